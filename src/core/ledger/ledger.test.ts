import { describe, expect, test } from "@jest/globals";
import type { Divergence } from "../diff/divergence.js";
import type { CaseResult } from "../results/result.js";
import { formatProblem, ProblemsError } from "../io/located-yaml.js";
import { appliesTo, classify } from "./classify.js";
import { ledgerFindings } from "./findings.js";
import { ledgerOnChain, parseLedger } from "./quirk.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const LEDGER = `
quirks:
  - id: zaino-internal
    title: Zaino answers INTERNAL where others answer INVALID_ARGUMENT or NOT_FOUND
    kind: error-code
    builds: [{ implementation: zaino }]
    match:
      transport: grpc
      methods: [GetTransaction]
      path: status.code
      shape: { from: [INVALID_ARGUMENT, NOT_FOUND], to: [INTERNAL] }
    reference: spec §3.4
    status: open
  - id: balance-doubled
    title: A duplicated address is counted twice
    kind: multiplicity
    builds: [{ implementation: zaino, versions: ">=0.9.0" }, { implementation: ztreamer, versions: [v0.1.0] }]
    match: { methods: [GetTaddressBalanceStream], path: valueZat, shape: { factor: 2 } }
    reference: published comparison
    status: open
    fixed_in: 0.11.0
  - id: old-protocol
    title: only for builds speaking protocol below v0.4.1
    kind: missing-field
    builds: [{ implementation: zaino }]
    protocol: "<0.4.1"
    match: { methods: [GetBlock], cases: ["GetBlock/with-*"], path: "vtx[*].vout" }
    reference: spec
    status: by-design
    expires: 2020-01-01
`;

const zaino = { name: "zaino-0.10.1", implementation: "zaino", version: "0.10.1", protocolVersion: "v0.4.0" };
const ztreamerOld = { name: "zt-old", implementation: "ztreamer", version: "v0.1.0" };
const ztreamerMaster = { name: "zt-master", implementation: "ztreamer", version: "master" };
const ctx = (method: string, caseId = `${method}/x`) => ({ caseId, method, transport: "grpc" as const });
const div = (d: Partial<Divergence>): Divergence => ({ kind: "value", path: "", left: "oracle", right: "b", detail: "", ...d });

describe("ledger", () => {
  const ledger = parseLedger(LEDGER, "cases/quirks.yaml");

  test("an error-code divergence of the expected shape is known", () => {
    const d = div({ kind: "error-code", path: "status.code", leftValue: "NOT_FOUND", rightValue: "INTERNAL" });
    expect(classify(ledger, d, ctx("GetTransaction"), zaino)).toBe("zaino-internal");
  });

  test("an entry naming chains applies on those chains only; a misspelt chains field is refused", () => {
    const text = (chains: string) =>
      `quirks:\n  - id: mempool-order\n    title: t\n    kind: order\n    builds: [{ implementation: zaino }]\n    ${chains}\n    match: { methods: [GetMempoolTx] }\n    reference: r\n    status: open\n`;
    const scoped = parseLedger(text("chains: [fixture]"), "cases/quirks.yaml");
    const d = div({ kind: "order", path: "" });
    expect([ledgerOnChain(scoped, "fixture"), ledgerOnChain(scoped, "regtest")].map((l) => classify(l, d, ctx("GetMempoolTx"), zaino))).toEqual([
      "mempool-order",
      null,
    ]);
    expect(ledgerOnChain(ledger, "regtest")).toEqual(ledger);
    expect(() => parseLedger(text("chains: []"), "cases/quirks.yaml")).toThrow(/quirks\[0\]\.chains/);
  });

  test("a different divergence on the same field stays new", () => {
    const d = div({ kind: "error-code", path: "status.code", leftValue: "NOT_FOUND", rightValue: "UNKNOWN" });
    expect(classify(ledger, d, ctx("GetTransaction"), zaino)).toBeNull();
    const tripled = div({ kind: "multiplicity", path: "valueZat", factor: 3 });
    expect(classify(ledger, tripled, ctx("GetTaddressBalanceStream"), zaino)).toBeNull();
  });

  test("a count entry with counts explains only those item counts; its other kinds are not held to them", () => {
    const [q] = parseLedger(
      [
        "quirks:",
        "  - id: drops-coinbase",
        "    title: drops the transparent-only coinbase from GetBlock",
        "    kind: [count, missing-field]",
        "    builds: [{ implementation: zaino }]",
        "    match: { methods: [GetBlock], path: vtx, shape: { counts: [[2, 1], [6, 4]] } }",
        "    reference: spec",
        "    status: open",
      ].join("\n"),
      "q.yaml",
    );
    const count = (l: number, r: number) => div({ kind: "count", path: "vtx", leftValue: l, rightValue: r });
    expect(classify([q!], count(2, 1), ctx("GetBlock"), zaino)).toBe("drops-coinbase");
    expect(classify([q!], count(6, 4), ctx("GetBlock"), zaino)).toBe("drops-coinbase");
    // One shielded transaction dropped as well: another bug, new.
    expect(classify([q!], count(6, 3), ctx("GetBlock"), zaino)).toBeNull();
    expect(classify([q!], div({ kind: "missing-field", path: "vtx", leftValue: [] }), ctx("GetBlock"), zaino)).toBe("drops-coinbase");
  });

  test("builds, exact version lists, fixed_in and protocol ranges select who an entry is about", () => {
    const doubled = div({ kind: "multiplicity", path: "valueZat", factor: 2 });
    expect(classify(ledger, doubled, ctx("GetTaddressBalanceStream"), zaino)).toBe("balance-doubled");
    expect(classify(ledger, doubled, ctx("GetTaddressBalanceStream"), ztreamerOld)).toBe("balance-doubled");
    expect(classify(ledger, doubled, ctx("GetTaddressBalanceStream"), ztreamerMaster)).toBeNull();
    expect(appliesTo(ledger[1]!, { ...zaino, version: "0.11.0" })).toBe(false);
    const missing = div({ kind: "missing-field", path: "vtx[3].vout" });
    expect(classify(ledger, missing, ctx("GetBlock", "GetBlock/with-transparent"), zaino)).toBe("old-protocol");
    expect(classify(ledger, missing, ctx("GetBlock", "GetBlock/with-transparent"), { ...zaino, protocolVersion: "v0.5.0" })).toBeNull();
    expect(classify(ledger, missing, ctx("GetBlock", "GetBlock/genesis"), zaino)).toBeNull();
  });

  test("stale: an applicable entry a build never showed; expired: past its date", () => {
    const result = (method: string, build: string, quirk: string | null): CaseResult => ({
      caseId: `${method}/x`,
      method,
      transport: "grpc",
      expect: "oracle",
      tags: [],
      source: "f:1",
      answers: [{ side: build, transport: "grpc", status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] }],
      divergences: quirk ? [{ ...div({ kind: "multiplicity" }), caseId: `${method}/x`, method, transport: "grpc", build, quirk }] : [],
      volatile: [],
      excluded: [],
      unordered: false,
      patches: [],
    });
    const results = [
      result("GetTransaction", zaino.name, "zaino-internal"),
      result("GetTaddressBalanceStream", zaino.name, null),
      result("GetTaddressBalanceStream", ztreamerOld.name, "balance-doubled"),
    ];
    const f = ledgerFindings(ledger, results, [zaino, ztreamerOld, ztreamerMaster], new Date("2026-11-29"));
    expect(f.stale).toEqual([{ quirk: "balance-doubled", build: zaino.name, reason: expect.stringContaining("never showed it") }]);
    expect(f.expired).toEqual([{ quirk: "old-protocol", expires: "2020-01-01", builds: [zaino.name] }]);
    expect(f.matched).toEqual({ "zaino-internal": 1, "balance-doubled": 1 });
  });

  test("schema problems name file, line and field", () => {
    const bad =
      "quirks:\n  - id: x\n    title: t\n    kind: doubled\n    builds: [{ implementation: zaino }]\n    match: {}\n    reference: r\n    status: open\n";
    try {
      parseLedger(bad, "cases/quirks.yaml");
      throw new Error("expected problems");
    } catch (e) {
      expect(e).toBeInstanceOf(ProblemsError);
      expect((e as ProblemsError).problems.map(formatProblem)[0]).toMatch(/^cases\/quirks\.yaml:4: quirks\[0\]\.kind: must be one of "error-code"/);
    }
  });

  test("a misspelt field gets the closest known name, as in the config", () => {
    const bad =
      "quirks:\n  - id: x\n    title: t\n    kind: value\n    builds: [{ implementation: zaino }]\n    match: {}\n    reference: r\n    staus: open\n";
    expect(() => parseLedger(bad, "cases/quirks.yaml")).toThrow("cases/quirks.yaml:8: quirks[0].staus: is not a known field (did you mean status?)");
  });

  test("an implementation the protocol does not name is an error at its line, with the closest name", () => {
    const bad =
      "quirks:\n  - id: x\n    title: t\n    kind: value\n    builds: [{ implementation: zaimo }]\n    match: {}\n    reference: r\n    status: open\n";
    const names = ["lightwalletd", "zaino", "zebrad"];
    expect(() => parseLedger(bad, "cases/quirks.yaml", names)).toThrow(
      'cases/quirks.yaml:5: quirks[0].builds[0].implementation: unknown implementation "zaimo" (did you mean zaino?); known: lightwalletd, zaino, zebrad',
    );
    expect(parseLedger(bad.replace("zaimo", "zaino"), "cases/quirks.yaml", names)).toHaveLength(1);
    // Without the protocol's names nothing is checked (a ledger read on its own).
    expect(parseLedger(bad, "cases/quirks.yaml")).toHaveLength(1);
  });

  test("a duplicate key and a misspelt one are reported at their lines in the config's format", () => {
    const bad = "quirks:\n  - id: x\n    title: t\n    title: u\n    kind: value\n    builds: [{ implemantation: zaino }]\n    match: {}\n    reference: r\n";
    expect(() => parseLedger(bad, "cases/quirks.yaml")).toThrow("cases/quirks.yaml:4: quirks[0].title: duplicate key (first on line 3)");
    expect(() => parseLedger(bad.replace("    title: u\n", ""), "cases/quirks.yaml")).toThrow(
      "cases/quirks.yaml:5: quirks[0].builds[0].implemantation: is not a known field (did you mean implementation?)",
    );
  });

  test("bad ranges and duplicate ids are reported", () => {
    const bad = LEDGER.replace('versions: ">=0.9.0"', 'versions: "lots"').replace("id: old-protocol", "id: zaino-internal");
    expect(() => parseLedger(bad, "q.yaml")).toThrow(/q\.yaml:\d+: quirks\[1\]\.builds\[0\]\.versions: not a semver range[\s\S]*duplicate id "zaino-internal"/);
  });
});

describe("what a build is, not what it is called", () => {
  const NODE_LEDGER = `
quirks:
  - id: refusal-hidden
    title: the indexer hides a refusal its node makes
    kind: count
    builds: [{ implementation: lightwalletd, node: { implementation: zebrad, versions: ">=7.0.0" } }]
    match: { methods: [GetAddressUtxos] }
    reference: r
    status: open
  - id: newer-only
    title: only from 0.5.4 on
    kind: value
    builds: [{ implementation: lightwalletd, versions: ">=0.5.4" }]
    match: { methods: [GetBlock] }
    reference: r
    status: open
`;
  const ledger = parseLedger(NODE_LEDGER, "cases/quirks.yaml");
  const lwd = { name: "my-lwd", implementation: "lightwalletd", version: "v0.5.4" };

  test("an entry about the node applies to a build backed by that node, whatever the build is called", () => {
    const d = div({ kind: "count" });
    expect(classify(ledger, d, ctx("GetAddressUtxos"), { ...lwd, node: { implementation: "zebrad", version: "7.0.0" } })).toBe("refusal-hidden");
    expect(classify(ledger, d, ctx("GetAddressUtxos"), { ...lwd, name: "anything", node: { implementation: "zebrad", version: "7.1.2" } })).toBe(
      "refusal-hidden",
    );
    expect(classify(ledger, d, ctx("GetAddressUtxos"), { ...lwd, node: { implementation: "zebrad", version: "6.3.0" } })).toBeNull();
    expect(classify(ledger, d, ctx("GetAddressUtxos"), { ...lwd, node: { implementation: "zcashd", version: "7.0.0" } })).toBeNull();
    // A node nobody named: the entry cannot be said to apply.
    expect(classify(ledger, d, ctx("GetAddressUtxos"), lwd)).toBeNull();
  });

  test("a build of unknown version gets the entries of every version, and none of them is stale for it", () => {
    const dev = { name: "my-lwd", implementation: "lightwalletd", versionUnknown: true };
    expect(classify(ledger, div({ kind: "value" }), ctx("GetBlock"), dev)).toBe("newer-only");
    expect(classify(ledger, div({ kind: "value" }), ctx("GetBlock"), { ...dev, versionUnknown: false })).toBeNull();
    const quiet: CaseResult = {
      caseId: "GetBlock/x",
      method: "GetBlock",
      transport: "grpc",
      expect: "oracle",
      tags: [],
      source: "f:1",
      answers: [{ side: dev.name, transport: "grpc", status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] }],
      divergences: [],
      volatile: [],
      excluded: [],
      unordered: false,
      patches: [],
    };
    expect(ledgerFindings(ledger, [quiet], [dev]).stale).toEqual([]);
    expect(ledgerFindings(ledger, [quiet], [{ ...dev, versionUnknown: false, version: "0.5.4" }]).stale.map((s) => s.quirk)).toEqual(["newer-only"]);
  });

  test("a run that left out a case the entry covers does not call the entry stale", () => {
    const both = parseLedger(NODE_LEDGER.replace("match: { methods: [GetBlock] }", "match: { methods: [GetBlock, GetBlockRange] }"), "cases/quirks.yaml");
    const quiet: CaseResult = {
      caseId: "GetBlock/x",
      method: "GetBlock",
      transport: "grpc",
      expect: "oracle",
      tags: [],
      source: "f:1",
      answers: [{ side: lwd.name, transport: "grpc", status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] }],
      divergences: [],
      volatile: [],
      excluded: [],
      unordered: false,
      patches: [],
    };
    const leftOut = [{ caseId: "GetBlockRange/y", method: "GetBlockRange", transport: "grpc" as const }];
    expect(ledgerFindings(both, [quiet], [lwd], new Date(), leftOut).stale).toEqual([]);
    expect(ledgerFindings(both, [quiet], [lwd]).stale.map((s) => s.quirk)).toEqual(["newer-only"]);
    // A left-out case of another method says nothing about this entry.
    expect(ledgerFindings(both, [quiet], [lwd], new Date(), [{ caseId: "Ping/z", method: "Ping", transport: "grpc" }]).stale.map((s) => s.quirk)).toEqual([
      "newer-only",
    ]);
  });

  test("on a case the builds' agreement judges, agreeing only with builds the entry covers too does not make it stale", () => {
    const answer = (side: string) => ({ side, transport: "grpc" as const, status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] });
    const agreed = (sides: string[]): CaseResult => ({
      caseId: "GetBlock/x",
      method: "GetBlock",
      transport: "grpc",
      expect: "agree",
      tags: [],
      source: "f:1",
      answers: sides.map(answer),
      outcomes: sides.map((build) => ({ build, outcome: "pass" as const })),
      divergences: [],
      volatile: [],
      excluded: [],
      unordered: false,
      patches: [],
    });
    const twin = { ...lwd, name: "my-lwd-2" };
    const other = { name: "zaino", implementation: "zaino", version: "0.10.1" };
    const stale = (r: CaseResult, builds: { name: string; implementation: string; version: string }[]) =>
      ledgerFindings(ledger, [r], builds).stale.map((x) => `${x.quirk} ${x.build}`);
    // Two builds of the same version agree: the entry, about how that version differs from others, is not seen either way.
    expect(stale(agreed([lwd.name, twin.name]), [lwd, twin])).toEqual([]);
    // Agreeing with a build the entry does not cover: the behaviour is gone.
    expect(stale(agreed([lwd.name, other.name]), [lwd, other])).toEqual(["newer-only my-lwd"]);
    // A tie, two against two: answering as its twin did, apart from the build the entry does not cover, shows nothing gone.
    const tie: CaseResult = {
      ...agreed([lwd.name, twin.name, other.name]),
      verdict: { verdict: "split", deviants: [], groups: [[lwd.name, twin.name], [other.name]], reference: "none", unavailable: [], detail: "" },
    };
    expect(stale(tie, [lwd, twin, other])).toEqual([]);
  });

  test("a node selector's range is checked at its line", () => {
    expect(() => parseLedger(NODE_LEDGER.replace('versions: ">=7.0.0"', 'versions: "seven"'), "cases/quirks.yaml")).toThrow(
      /cases\/quirks\.yaml:6: quirks\[0\]\.builds\[0\]\.node\.versions: not a semver range: "seven"/,
    );
  });

  test("the shipped ledger keys no entry on a build's name", () => {
    const shipped = parseLedger(readFileSync(join(import.meta.dirname, "..", "..", "..", "cases", "quirks.yaml"), "utf8"), "cases/quirks.yaml");
    expect(shipped.filter((q) => q.builds.some((b) => b.names !== undefined)).map((q) => q.id)).toEqual([]);
  });
});
