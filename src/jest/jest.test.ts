import { describe, expect, test } from "@jest/globals";
import type { CaseResult } from "../core/results/result.js";
import { conformanceError, failureOf, ledgerProblems, uncheckedOf } from "./format.js";
import { planSuite } from "./plan.js";

function result(over: Partial<CaseResult>): CaseResult {
  return {
    caseId: "GetBlock/x", method: "GetBlock", transport: "grpc", expect: "oracle", tags: [], source: "cases/grpc/GetBlock.yaml:3",
    answers: [], divergences: [], volatile: [], excluded: [], unordered: false, patches: [], request: { height: "11" }, ...over,
  };
}
const d = { caseId: "GetBlock/x", method: "GetBlock", transport: "grpc" as const, left: "oracle", detail: "" };

describe("failureOf", () => {
  const r = result({
    title: "A block",
    divergences: [
      { ...d, kind: "count", path: "vtx", right: "zaino", build: "zaino", leftValue: 2, rightValue: 1, quirk: null },
      { ...d, kind: "missing-field", path: "vtx[0].vin", right: "zaino", build: "zaino", leftValue: 3, quirk: "zaino-no-vin" },
      { ...d, kind: "value", path: "hash", right: "other", build: "other", leftValue: "aa", rightValue: "bb", quirk: null },
    ],
    patches: [{ left: "oracle", right: "zaino", ops: [{ op: "remove", path: "/vtx/1", old: { index: "1" } }] }],
  });

  test("names the case, the build, each new divergence with both values, the known ones and the patch", () => {
    const text = failureOf(r, ["zaino"])!;
    expect(text.split("\n")).toEqual([
      "GetBlock/x [zaino]: 1 new divergence from oracle",
      "  A block (cases/grpc/GetBlock.yaml:3)",
      '  request: {"height":"11"}',
      "  verdict: –",
      "",
      "  count at vtx  [NEW]",
      "    oracle: 2",
      "    zaino:  1",
      "",
      "  known (ledger), not failing:",
      "    zaino-no-vin: missing-field at vtx[0].vin",
      "",
      "  JSON Patch oracle → zaino:",
      '    remove  /vtx/1 (was {"index":"1"})',
    ]);
  });

  test("passes a build whose divergences are all known, and looks only at the builds asked about", () => {
    expect(failureOf(result({ divergences: [r.divergences[1]!] }), ["zaino"])).toBeUndefined();
    expect(failureOf(r, ["other"])).toMatch(/^GetBlock\/x \[other\]: 1 new divergence/);
  });

  test("drift from a golden fails too", () => {
    const drifted = result({ drift: [{ build: "zaino", status: "changed", divergences: [{ kind: "value", path: "hash", left: "golden", right: "zaino", leftValue: "a", rightValue: "b", detail: "" }] }] });
    expect(failureOf(drifted, ["zaino"])).toContain('drift of zaino from its golden:\n    value at hash: "a" → "b"');
  });

  test("the ledger test: expired entries always fail, stale ones unless allowed", () => {
    const stale = [{ quirk: "q1", reason: "zaino answered 3 case(s) this entry covers and never showed it" }];
    const expired = [{ quirk: "q2", expires: "2020-01-01" }];
    expect(ledgerProblems({ stale: [], expired: [] }, false)).toBeUndefined();
    expect(ledgerProblems({ stale, expired: [] }, true)).toBeUndefined();
    expect(ledgerProblems({ stale, expired: [] }, false)).toContain("stale: q1: zaino answered");
    expect(ledgerProblems({ stale, expired }, true)).toContain("expired: q2 (expired 2020-01-01)");
  });

  test("the error carries only the message, no stack frames", () => {
    expect(conformanceError("boom").stack).toBe("ConformanceError: boom");
  });
});

describe("uncheckedOf", () => {
  const refused = { kind: "unreachable" as const, detail: "connect ECONNREFUSED 127.0.0.1:9067" };
  const down = result({
    answers: [{ side: "mybackend", transport: "grpc", status: "fault:unreachable", code: 14, message: "", count: 0, wireBytes: 0, ms: 1, hex: [], fault: refused }],
    outcomes: [{ build: "mybackend", outcome: "unchecked", cause: "mybackend", fault: refused }],
  });

  test("a build that could not be checked fails its test with what happened and what to do", () => {
    expect(uncheckedOf(down, ["mybackend"])!.split("\n")).toEqual([
      "GetBlock/x: could not be checked, so it cannot pass",
      "  mybackend: unreachable — connect ECONNREFUSED 127.0.0.1:9067; is the server running?",
      "  (cases/grpc/GetBlock.yaml:3)",
    ]);
  });

  test("the oracle down is named as the cause", () => {
    const fault = { kind: "empty-body" as const, detail: "connection closed with no reply (ECONNRESET); Zebra does this for a missing or wrong cookie" };
    const r = result({ outcomes: [{ build: "zaino", outcome: "unchecked", cause: "oracle", fault }] });
    expect(uncheckedOf(r, ["zaino"])).toContain("  the oracle (needed to judge zaino): connection closed with no reply — ");
  });

  test("nothing for builds that were checked, or not asked about", () => {
    expect(uncheckedOf(down, ["other"])).toBeUndefined();
    expect(uncheckedOf(result({ outcomes: [{ build: "zaino", outcome: "pass" }] }), ["zaino"])).toBeUndefined();
  });
});

describe("planSuite", () => {
  test("with the fixture: every profile, each with the transports it serves", () => {
    const p = planSuite({ fixture: {}, ledger: false });
    expect(p.cases.length).toBeGreaterThan(100);
    expect(p.ledger).toEqual([]);
    expect(p.builds!.find((b) => b.name === "zaino-0.9.0")!.transports).toEqual(["grpc", "jsonrpc"]);
    expect(p.builds!.find((b) => b.name === "lightwalletd")!.transports).toEqual(["grpc"]);
  });

  test("a case filter (patterns, or a function)", () => {
    expect(planSuite({ fixture: {}, ledger: false, caseFilter: { method: ["GetLightdInfo"] } }).cases.every((c) => c.method === "GetLightdInfo")).toBe(true);
    expect(planSuite({ fixture: {}, ledger: false, caseFilter: (c) => c.id === "GetLightdInfo/basic" }).cases.length).toBeLessThanOrEqual(1);
  });

  test("a factory's builds are unknown until it runs, unless named", () => {
    const factory = () => { throw new Error("not called while declaring"); };
    expect(planSuite({ config: factory, ledger: false }).builds).toBeUndefined();
    expect(planSuite({ config: factory, ledger: false, builds: ["x"] }).builds).toEqual([{ name: "x" }]);
  });

  test("says what is wrong with its options", () => {
    expect(() => planSuite({ ledger: false })).toThrow(/give config/);
    expect(() => planSuite({ fixture: {}, config: "x.yaml" })).toThrow(/either config or fixture/);
    expect(() => planSuite({ fixture: {}, ledger: "no/such/quirks.yaml" })).toThrow(/ledger file not found/);
  });
});
