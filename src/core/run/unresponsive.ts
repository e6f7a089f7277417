// A server that has stopped answering is not asked again. Once `after` calls to a target
// in a row ended at the client's deadline, the target is unresponsive: every later call
// resolves at once, unsent, with an `unresponsive` fault. A frozen server (its process
// stopped, its sockets open) then costs a run a few deadlines instead of one per case.
// An answer, or any fault other than a timeout, starts the count again; calls that end
// with nothing from the server and no fault (an open-ended stream that stayed quiet)
// leave it as it is. Builds' targets and the oracles' get the same treatment.

import type { GrpcCallObservation, GrpcTarget } from "../targets/grpc.js";
import { GrpcCode } from "../targets/grpc-status.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Fault, JsonRpcObservation, Observation } from "../targets/observation.js";

/** Timeouts in a row after which a target is unresponsive, unless configured (unresponsiveAfter). */
export const DEFAULT_UNRESPONSIVE_AFTER = 3;

interface Count {
  after: number;
  inARow: number;
  /** The fault every call gets once the target is unresponsive. */
  declared?: Fault;
}

function counter(after: number): Count {
  if (!Number.isInteger(after) || after < 1) throw new RangeError(`unresponsiveAfter must be a positive integer, got ${after}`);
  return { after, inARow: 0 };
}

function note(c: Count, obs: Observation, deadlineMs: number | undefined): void {
  if (c.declared) return;
  if (obs.fault?.kind === "timeout") {
    c.inARow++;
    if (c.inARow >= c.after) {
      c.declared = {
        kind: "unresponsive",
        detail: `after ${c.inARow} timeouts in a row${deadlineMs !== undefined ? ` (client deadline ${deadlineMs} ms)` : ""}`,
      };
    }
    return;
  }
  if (obs.fault || obs.timing.firstByteMs !== undefined) c.inARow = 0;
}

const notSent = (fault: Fault) => ({ fault, timing: { startedAt: Date.now(), totalMs: 0 }, wireBytes: 0 });

/** `deadlineMs`: the target's own deadline, named in the fault when a call does not set one. */
export function responsiveGrpc(target: GrpcTarget, after: number, deadlineMs?: number): GrpcTarget {
  const c = counter(after);
  return {
    url: target.url,
    endpoint: target.endpoint,
    close: () => target.close(),
    abort: () => target.abort(),
    call: async (method, request, opts = {}) => {
      if (c.declared) {
        const obs: GrpcCallObservation = {
          transport: "grpc",
          method: method.name,
          code: GrpcCode.UNAVAILABLE,
          message: c.declared.detail,
          messages: [],
          messageCount: 0,
          headers: {},
          trailers: {},
          ...notSent(c.declared),
        };
        return obs;
      }
      const obs = await target.call(method, request, opts);
      note(c, obs, opts.deadlineMs ?? deadlineMs);
      return obs;
    },
  };
}

export function responsiveJsonRpc(target: JsonRpcTarget, after: number, deadlineMs?: number): JsonRpcTarget {
  const c = counter(after);
  const guarded = async (method: string, opts: { deadlineMs?: number } | undefined, call: () => Promise<JsonRpcObservation>) => {
    if (c.declared) {
      const obs: JsonRpcObservation = { transport: "jsonrpc", method, httpStatus: 0, body: new Uint8Array(0), ...notSent(c.declared) };
      return obs;
    }
    const obs = await call();
    note(c, obs, opts?.deadlineMs ?? deadlineMs);
    return obs;
  };
  return {
    url: target.url,
    endpoint: target.endpoint,
    close: () => target.close(),
    abort: () => target.abort(),
    call: (method, params, opts) => guarded(method, opts, () => target.call(method, params, opts)),
    batch: (method, params, opts) => guarded(method, opts, () => target.batch(method, params, opts)),
  };
}
