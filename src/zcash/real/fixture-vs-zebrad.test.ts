import { expect, test } from "@jest/globals";
import type { JsonReport } from "../../core/report/json.js";
import { fixtureVsZebrad, fixtureVsZebradMarkdown, reasonFor } from "./fixture-vs-zebrad.js";

const answer = (side: string, result: unknown) => ({
  side,
  transport: "jsonrpc",
  ms: 1,
  hex: [Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, result })).toString("hex")],
});
/** A JSON-RPC case of a regtest run: zebrad's answer (the oracle) and the fixture node's. */
const kase = (caseId: string, method: string, zebrad: unknown, fixture: unknown, skipped?: string) => ({
  caseId,
  method,
  transport: "jsonrpc",
  expect: "oracle",
  answers: [],
  divergences: [],
  volatile: [],
  ...(skipped ? { skipped } : {}),
  oracle: answer("oracle", zebrad),
  otherOracles: [answer("oracle:fixture", fixture)],
});

const report = {
  cases: [
    kase("getblock/a", "getblock", { finalsaplingroot: "aa", size: 5 }, { finalsaplingroot: "bb", size: 5 }),
    kase("getblock/b", "getblock", { finalsaplingroot: "aa" }, { finalsaplingroot: "cc" }),
    kase("getblock/c", "getblock", { size: 5 }, { size: 5 }),
    kase("getblock/d", "getblock", {}, {}, 'chain "regtest" has no anchor "txid_sprout"'),
    kase("getinfo/plain", "getinfo", { weird: 1 }, { weird: 2 }),
    // An error case asks no node: the reference (the fixture node's own server) against the expected error.
    {
      caseId: "getinfo/bad",
      method: "getinfo",
      transport: "jsonrpc",
      expect: "error -32602",
      answers: [{ side: "reference" }],
      volatile: [],
      divergences: [{ build: "reference", left: "expected", kind: "error-code", path: "error.code", detail: "-1 vs -32602" }],
    },
    { caseId: "GetBlock/tip", method: "GetBlock", transport: "grpc", divergences: [] },
  ],
} as unknown as JsonReport;

test("per JSON-RPC method: judged, equal and skipped cases, and the fixture node's differences from zebrad grouped by field", () => {
  const rows = fixtureVsZebrad(report);
  expect(rows.map((r) => [r.method, r.cases, r.equal, r.skipped])).toEqual([
    ["getblock", 3, 1, 1],
    ["getinfo", 2, 0, 0],
  ]);
  expect(rows[1]!.differences.map((d) => [d.path, d.cases])).toEqual([
    ["result.weird", ["getinfo/plain"]],
    ["error.code", ["getinfo/bad"]],
  ]);
  expect(rows[0]!.differences).toEqual([
    expect.objectContaining({ path: "result.finalsaplingroot", cases: ["getblock/a", "getblock/b"], reason: expect.stringContaining("stand-in") }),
  ]);
  expect(rows[1]!.differences[0]!.reason).toBeUndefined();
});

test("a difference without a known reason is named as such", () => {
  const md = fixtureVsZebradMarkdown(fixtureVsZebrad(report), { zebrad: "7.0.0", tip: 300, startedAt: "2026-12-01T00:00:00.000Z" });
  expect(md).toContain("| getblock | 3 | 1 | 1 | `result.finalsaplingroot` (2) |");
  expect(md).toContain("Without a known reason: getinfo result.weird; getinfo error.code.");
  expect(reasonFor("gettxout", "error.code")).toContain("-8 where the fixture answers -5");
  expect(reasonFor("getblock", "result.size")).toBeUndefined();
});
