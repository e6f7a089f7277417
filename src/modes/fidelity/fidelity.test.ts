import { expect, test } from "@jest/globals";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { Answer, CaseResult, ClassifiedDivergence } from "../../core/results/result.js";
import { fidelityOf, renderFidelity } from "./fidelity.js";

const pair = { emulated: "lightwalletd", real: "lightwalletd v0.5.4 (real)" };

function answer(side: string, status: string, hex: string[], message = ""): Answer {
  return { side, transport: "grpc", status, code: status === "OK" ? null : 3, message, count: hex.length, wireBytes: 0, ms: 1, hex };
}

function result(caseId: string, emulated: Answer, real: Answer, divergences: Partial<ClassifiedDivergence>[] = [], unordered = false): CaseResult {
  return {
    caseId,
    method: caseId.split("/")[0]!,
    transport: "grpc",
    expect: "oracle",
    tags: [],
    source: "x.yaml:1",
    answers: [emulated, real],
    divergences: divergences as ClassifiedDivergence[],
    volatile: [],
    excluded: [],
    unordered,
    patches: [],
  };
}

test("agreement is status, message and every message's bytes; unordered cases compare as multisets", () => {
  const f = fidelityOf(
    [
      result("GetBlock/a", answer(pair.emulated, "OK", ["0a01"]), answer(pair.real, "OK", ["0a01"])),
      result("GetBlock/b", answer(pair.emulated, "INVALID_ARGUMENT", [], "x"), answer(pair.real, "INVALID_ARGUMENT", [], "y")),
      result("GetMempoolTx/c", answer(pair.emulated, "OK", ["01", "02"]), answer(pair.real, "OK", ["02", "01"]), [], true),
      result("GetMempoolTx/d", answer(pair.emulated, "OK", ["01", "02"]), answer(pair.real, "OK", ["02", "01"])),
    ],
    pair,
  );
  expect(f.rows).toEqual([
    { method: "GetBlock", cases: 2, agree: 1, differ: 1, explained: 0 },
    { method: "GetMempoolTx", cases: 2, agree: 1, differ: 1, explained: 0 },
  ]);
  expect(f.totals).toEqual({ cases: 4, agree: 2, differ: 2, explained: 0, unexplained: 2 });
  expect(renderFidelity(f).filter((l) => l.includes("UNEXPLAINED"))).toHaveLength(2);
});

test("a difference is explained when every divergence of the real build is in the ledger, or a ledger entry names the real build and the case", () => {
  const ledger = [{ id: "named", builds: [{ names: [pair.real] }], match: { methods: ["GetBlock"], cases: ["GetBlock/conform*"] } }] as unknown as Quirk[];
  const differ = () => [answer(pair.emulated, "OK", ["01"]), answer(pair.real, "OK", ["02"])] as const;
  const f = fidelityOf(
    [
      result("GetBlock/known", ...differ(), [
        { build: pair.real, quirk: "q1" },
        { build: pair.real, quirk: "q2" },
      ]),
      result("GetBlock/half-known", ...differ(), [
        { build: pair.real, quirk: "q1" },
        { build: pair.real, quirk: null },
      ]),
      result("GetBlock/conforms", ...differ()),
      result("GetBlock/other", ...differ(), [{ build: pair.emulated, quirk: "q3" }]),
    ],
    pair,
    ledger,
  );
  expect(f.differences.map((d) => [d.caseId, d.explainedBy])).toEqual([
    ["GetBlock/known", ["q1", "q2"]],
    ["GetBlock/half-known", null],
    ["GetBlock/conforms", ["named"]],
    ["GetBlock/other", null],
  ]);
});

test("cases one side did not answer, and skipped cases, are not counted", () => {
  const r = result("GetBlock/a", answer(pair.emulated, "OK", ["01"]), answer("someone-else", "OK", ["01"]));
  expect(
    fidelityOf([r, { ...result("GetBlock/b", answer(pair.emulated, "OK", []), answer(pair.real, "OK", [])), skipped: "not served" }], pair).totals.cases,
  ).toBe(0);
});

test("a deadline case: a stream the client ended past the deadline and one the server held past it before its OK agree; an OK sent in one piece does not, however late it arrived; DEADLINE_EXCEEDED agrees with itself, whatever came before it", () => {
  const deadline = (emulated: Answer, real: Answer): CaseResult => ({ ...result("GetMempoolStream/deadline", emulated, real), deadlineMs: 100 });
  const heldByReal: Answer = { ...answer(pair.real, "CANCELLED", ["01"], "still open"), endedBy: "deadline", ms: 1100, firstByteMs: 2 };
  const heldThenOk: Answer = { ...answer(pair.emulated, "OK", ["01"]), ms: 230, firstByteMs: 2 };
  const okInOnePiece: Answer = { ...answer(pair.emulated, "OK", []), ms: 230, firstByteMs: 230 };
  const enforced: Answer = { ...answer(pair.emulated, "DEADLINE_EXCEEDED", ["01"], "the operation timed out"), ms: 104 };
  const resetAtDeadline: Answer = {
    ...answer(pair.real, "DEADLINE_EXCEEDED", ["01"], "stream reset (RST_STREAM CANCEL) by the server at the deadline it was sent"),
    ms: 101,
  };
  // Real lightwalletd resets with nothing sent when a refresh of its mempool cache falls in the call.
  const resetBeforeSending: Answer = { ...resetAtDeadline, hex: [], count: 0 };
  const f = fidelityOf(
    [
      deadline(heldThenOk, heldByReal),
      deadline(okInOnePiece, { ...heldByReal, hex: [], count: 0 }),
      deadline(enforced, heldByReal),
      deadline(enforced, resetAtDeadline),
      deadline(enforced, resetBeforeSending),
    ],
    pair,
  );
  expect(f.totals).toMatchObject({ cases: 5, agree: 3, differ: 2 });
  expect(f.differences.map((d) => d.emulated.status)).toEqual(["OK", "DEADLINE_EXCEEDED"]);
});
