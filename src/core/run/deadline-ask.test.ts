import { describe, expect, test } from "@jest/globals";
import { grpcObs } from "../canon/testing.test-helper.js";
import type { GrpcCallObservation } from "../targets/grpc.js";
import { askedClearly, DEADLINE_ASKS_AGAIN } from "./deadline-ask.js";

/** An OK held `heldMs` after its headers, during which the client's loop stalled `stalledMs`. */
function answer(heldMs: number, stalledMs: number): GrpcCallObservation {
  return { ...grpcObs([], { method: "GetMempoolStream" }), messageCount: 0, timing: { startedAt: 0, firstByteMs: 5, totalMs: 5 + heldMs, stalledMs } };
}

/** A call that answers the given observations in turn, counting how often it was asked. */
function calls(...answers: GrpcCallObservation[]) {
  let asked = 0;
  return { call: async () => answers[Math.min(asked++, answers.length - 1)]!, asked: () => asked };
}

describe("a deadline case's call asked again", () => {
  test("a blurred answer is asked again until one is clear, and that one is kept", async () => {
    const clear = answer(200, 2);
    const c = calls(answer(250, 300), clear);
    // The answer kept says how long the client stood still in the call asked again.
    expect(await askedClearly(c.call, 100)).toEqual({ ...clear, askedAgain: [300] });
    expect(c.asked()).toBe(2);
  });

  test("at most DEADLINE_ASKS_AGAIN more times; then the last answer is kept", async () => {
    const blurred = [answer(250, 300), answer(250, 300), answer(260, 300), answer(200, 2)];
    const c = calls(...blurred);
    expect(await askedClearly(c.call, 100)).toEqual({ ...blurred[DEADLINE_ASKS_AGAIN], askedAgain: [300, 300] });
    expect(c.asked()).toBe(1 + DEADLINE_ASKS_AGAIN);
  });

  test("a clear answer, or a case without a deadline, is asked once", async () => {
    const clear = calls(answer(200, 2));
    expect((await askedClearly(clear.call, 100)).askedAgain).toBeUndefined();
    expect(clear.asked()).toBe(1);
    const noDeadline = calls(answer(250, 300));
    await askedClearly(noDeadline.call, undefined);
    expect(noDeadline.asked()).toBe(1);
  });
});
