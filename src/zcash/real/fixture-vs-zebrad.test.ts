import { expect, test } from "@jest/globals";
import type { JsonReport } from "../../core/report/json.js";
import { fixtureVsZebrad, fixtureVsZebradMarkdown, reasonFor } from "./fixture-vs-zebrad.js";

const divergence = (caseId: string, method: string, path: string, build = "reference", left = "oracle") =>
  ({ caseId, method, transport: "jsonrpc", build, left, right: build, kind: "value", path, detail: `${path} differs`, quirk: null });
const kase = (caseId: string, method: string, divergences: ReturnType<typeof divergence>[], skipped?: string) =>
  ({ caseId, method, transport: "jsonrpc", divergences, ...(skipped ? { skipped } : {}) });

const report = {
  cases: [
    kase("getblock/a", "getblock", [divergence("getblock/a", "getblock", "result.finalsaplingroot")]),
    kase("getblock/b", "getblock", [divergence("getblock/b", "getblock", "result.finalsaplingroot"), divergence("getblock/b", "getblock", "result.size", "zaino-0.10.1")]),
    kase("getblock/c", "getblock", []),
    kase("getblock/d", "getblock", [], 'chain "regtest" has no anchor "txid_sprout"'),
    kase("getinfo/plain", "getinfo", [divergence("getinfo/plain", "getinfo", "result.weird")]),
    { caseId: "GetBlock/tip", method: "GetBlock", transport: "grpc", divergences: [] },
  ],
} as unknown as JsonReport;

test("per JSON-RPC method: judged, equal and skipped cases, and the reference's differences from the oracle grouped by field", () => {
  const rows = fixtureVsZebrad(report);
  expect(rows.map((r) => [r.method, r.cases, r.equal, r.skipped])).toEqual([["getblock", 3, 1, 1], ["getinfo", 1, 0, 0]]);
  expect(rows[0]!.differences).toEqual([expect.objectContaining({ path: "result.finalsaplingroot", cases: ["getblock/a", "getblock/b"], reason: expect.stringContaining("stand-in") })]);
  expect(rows[1]!.differences[0]!.reason).toBeUndefined();
});

test("a difference without a known reason is named as such", () => {
  const md = fixtureVsZebradMarkdown(fixtureVsZebrad(report), { zebrad: "7.0.0", tip: 300, startedAt: "2026-12-01T00:00:00.000Z" });
  expect(md).toContain("| getblock | 3 | 1 | 1 | `result.finalsaplingroot` (2) |");
  expect(md).toContain("Without a known reason: getinfo result.weird.");
  expect(reasonFor("gettxout", "error.code")).toContain("-8 where the fixture answers -5");
  expect(reasonFor("getblock", "result.size")).toBeUndefined();
});
