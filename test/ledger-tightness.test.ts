// Every ledger entry bounds what it explains (see ledger-tightness.test-helper.ts); the
// entries' named cases are held to the demo run in demo-ledger.test.ts.

import { describe, expect, test } from "@jest/globals";
import { join } from "node:path";
import { loadCorpus } from "../src/core/corpus/load.js";
import { loadLedger, parseLedger } from "../src/core/ledger/quirk.js";
import type { CaseResult } from "../src/core/results/result.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { statedCases, unbounded, unknownNamedCases, unshownStatedCases } from "./ledger-tightness.test-helper.js";

const CASES = join(import.meta.dirname, "..", "cases");

const entry = (id: string, match: string) =>
  [
    `  - id: ${id}`,
    "    title: t",
    "    kind: [count, error-vs-ok]",
    "    builds: [{ implementation: zaino }]",
    `    match: ${match}`,
    "    reference: r",
    "    status: open",
  ].join("\n");

describe("ledger tightness", () => {
  test("every entry of cases/quirks.yaml names its cases or gives both sides of its shape", () => {
    expect(unbounded(loadLedger(join(CASES, "quirks.yaml")))).toEqual([]);
  });

  test("every case id an entry names outright is a case of the corpus (a renamed or removed case is named nowhere)", () => {
    expect(unknownNamedCases(loadLedger(join(CASES, "quirks.yaml")), loadCorpus(CASES, lightwalletProtocol))).toEqual({});
  });

  test("an entry with only a kind, a method and a path is unbounded; cases or a two-sided shape bound it", () => {
    const ledger = parseLedger(
      [
        "quirks:",
        entry("broad", '{ methods: [GetMempoolTx], path: ["", status.code] }'),
        entry("one-sided", "{ methods: [GetMempoolTx], path: status.code, shape: { to: [OK] } }"),
        entry("named", '{ methods: [GetMempoolTx], cases: [GetMempoolTx/default], path: "" }'),
        entry("two-sided", "{ methods: [GetMempoolTx], path: status.code, shape: { from: [INVALID_ARGUMENT], to: [OK] } }"),
      ].join("\n"),
      "q.yaml",
    );
    expect(unbounded(ledger)).toEqual(["broad", "one-sided"]);
  });

  test("a named case the entry never explained in a run is reported; an exempt entry or one for no build of the run is not", () => {
    const cases = loadCorpus(CASES, lightwalletProtocol).filter((c) => c.method === "GetMempoolTx");
    const [q] = parseLedger(["quirks:", entry("mempool", '{ methods: [GetMempoolTx], cases: ["GetMempoolTx/*"], path: "" }')].join("\n"), "q.yaml");
    const stated = statedCases(q!, cases);
    expect(stated).toEqual(cases.map((c) => c.id));
    const shownOn = stated[0]!;
    const results = [{ caseId: shownOn, divergences: [{ quirk: "mempool" }] }] as unknown as CaseResult[];
    const zaino = [{ name: "z", implementation: "zaino", version: "0.10.1" }];
    expect(unshownStatedCases([q!], cases, results, zaino, {})).toEqual({ mempool: stated.slice(1) });
    expect(unshownStatedCases([q!], cases, results, zaino, { mempool: "shows on real builds" })).toEqual({});
    expect(unshownStatedCases([q!], cases, results, [{ name: "l", implementation: "lightwalletd" }], {})).toEqual({});
  });
});
