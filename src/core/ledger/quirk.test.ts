import { describe, expect, test } from "@jest/globals";
import { formatProblem, ProblemsError } from "../io/located-yaml.js";
import { parseLedger } from "./quirk.js";

const entry = (extra: string[]) =>
  [
    "quirks:",
    "  - id: zaino-script-empty",
    "    title: t",
    "    kind: value",
    "    builds: [{ implementation: zaino }]",
    "    match: { methods: [GetBlockRange] }",
    "    reference: r",
    "    status: open",
    ...extra.map((l) => `    ${l}`),
  ].join("\n");

function problems(text: string): string[] {
  try {
    parseLedger(text, "cases/quirks.yaml");
    return [];
  } catch (e) {
    if (!(e instanceof ProblemsError)) throw e;
    return e.problems.map(formatProblem);
  }
}

describe("evidence and sources of a ledger entry", () => {
  test("are read as written; a source's single pinned build becomes a list", () => {
    const [q] = parseLedger(
      entry([
        "evidence:",
        '  - { file: golden/regtest/zaino-0.10.1/GetBlockRange/transparent-descending.json, path: "[5].vtx[0].vout[0].scriptPubKey", equals: "" }',
        '  - { file: bench/README.md, holds: "| GetTreeState (863) |" }',
        "sources:",
        '  - { crate: zaino-state, version: 0.8.0, file: src/chain_index/types/db/legacy.rs, symbol: "TxOutCompact::to_compact", for: zainod 0.9.0 }',
        "  - { module: google.golang.org/grpc, version: v1.82.1, file: internal/transport/http2_server.go, for: [lightwalletd v0.5.4] }",
      ]),
      "cases/quirks.yaml",
    );
    expect(q!.evidence).toEqual([
      { file: "golden/regtest/zaino-0.10.1/GetBlockRange/transparent-descending.json", path: "[5].vtx[0].vout[0].scriptPubKey", equals: "" },
      { file: "bench/README.md", holds: "| GetTreeState (863) |" },
    ]);
    expect(q!.sources?.map((s) => s.for)).toEqual([["zainod 0.9.0"], ["lightwalletd v0.5.4"]]);
  });

  test("an evidence item says what the file holds in exactly one way, at a path that names one value", () => {
    expect(problems(entry(["evidence:", "  - { file: a.json, path: status.message }"]))).toEqual([
      "cases/quirks.yaml:10: quirks[0].evidence[0]: says what the file holds with exactly one of equals, length, holds (found none)",
    ]);
    expect(problems(entry(["evidence:", '  - { file: a.json, path: "", length: 0, holds: x }']))).toEqual([
      "cases/quirks.yaml:10: quirks[0].evidence[0]: says what the file holds with exactly one of equals, length, holds (found length, holds)",
    ]);
    expect(problems(entry(["evidence:", "  - file: a.json", "    length: 0"]))).toEqual([
      "cases/quirks.yaml:10: quirks[0].evidence[0]: length needs a path: the field it is about",
    ]);
    expect(problems(entry(["evidence:", "  - file: a.json", '    path: "[*].height"', '    equals: "1"']))).toEqual([
      'cases/quirks.yaml:11: quirks[0].evidence[0].path: "[*].height" has a wildcard: evidence names one value',
    ]);
    expect(problems(entry(["evidence:", '  - { file: a.json, path: "vtx[", length: 1 }']))[0]).toMatch(
      /^cases\/quirks\.yaml:10: quirks\[0\]\.evidence\[0\]\.path: bad field path/,
    );
  });

  test("a source names a crate or a module, its version, and the pinned builds that lock it", () => {
    expect(problems(entry(["sources:", "  - { crate: h2, module: golang.org/x/net, version: 0.4.15, file: src/lib.rs, for: zainod 0.10.1 }"]))).toEqual([
      "cases/quirks.yaml:10: quirks[0].sources[0]: names either a crate (crates.io) or a module (Go), not both or neither",
    ]);
    expect(problems(entry(["sources:", "  - { crate: h2, version: 0.4.15, file: src/lib.rs, for: zainod }"]))).toEqual([
      'cases/quirks.yaml:10: quirks[0].sources[0].for: must name a pinned build as "<name> <version>" (zainod 0.10.1)',
    ]);
    expect(problems(entry(["sources:", "  - { crate: h2, version: latest, file: src/lib.rs, for: zainod 0.10.1 }"]))).toHaveLength(1);
    expect(problems(entry(["sources:", "  - { crate: h2, version: 0.4.15, file: src/lib.rs, for: zainod 0.10.1, fn: buffer }"]))[0]).toMatch(
      /fn: is not a known field/,
    );
  });
});
