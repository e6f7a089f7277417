// A deadline case's call asked again when the client's own stall blurred its timing.

import { deadlineTimingUnclear } from "../canon/grpc.js";
import type { GrpcCallObservation } from "../targets/grpc.js";

/** How many more times a blurred call is asked before its last answer is kept. */
export const DEADLINE_ASKS_AGAIN = 2;

/**
 * The answer to a gRPC case, asked again (at most DEADLINE_ASKS_AGAIN times) while a
 * deadline case's OK cannot say whether the server held the stream past the deadline,
 * because the client's event loop stood still in between (canon/grpc.ts
 * deadlineTimingUnclear). Every other answer is the first one.
 */
export async function askedClearly(call: () => Promise<GrpcCallObservation>, deadlineMs: number | undefined): Promise<GrpcCallObservation> {
  let obs = await call();
  const blurred: number[] = [];
  while (blurred.length < DEADLINE_ASKS_AGAIN && deadlineTimingUnclear(obs, deadlineMs)) {
    blurred.push(obs.timing.stalledMs ?? 0);
    obs = await call();
  }
  return blurred.length > 0 ? { ...obs, askedAgain: blurred } : obs;
}
