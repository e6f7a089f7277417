// The run's byte budget (maxRunBytes) applied to its targets: every call of a run, to a
// build or to the oracle, startup calls included, holds as much of the budget as its
// answer may keep. A call's own limit is lowered to the whole budget when it is larger,
// so an answer that alone would pass the budget is cut there and is a too-large fault,
// like one over maxCallBytes.

import type { GrpcTarget } from "../targets/grpc.js";
import type { JsonRpcCallOptions, JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Fault, Observation } from "../targets/observation.js";
import type { ByteBudget } from "./limit.js";

interface CallLimits {
  maxMessageBytes: number;
  maxCallBytes: number;
}

/** The fault says which limit cut the answer when it was the run's and not the call's own. */
function noteRunLimit<O extends Observation>(obs: O, budget: ByteBudget, own: number): O {
  if (obs.fault?.kind !== "too-large" || own <= budget.max) return obs;
  const fault: Fault = { ...obs.fault, detail: `${obs.fault.detail}; every call is held to the run's maxRunBytes (${budget.max})` };
  return { ...obs, fault };
}

export function budgetedGrpc(target: GrpcTarget, budget: ByteBudget, limits: CallLimits): GrpcTarget {
  return {
    url: target.url,
    endpoint: target.endpoint,
    close: () => target.close(),
    abort: () => target.abort(),
    call: (method, request, opts = {}) => {
      const own = opts.maxCallBytes ?? limits.maxCallBytes;
      const share = Math.min(own, budget.max);
      return budget.run(share, async () => noteRunLimit(await target.call(method, request, { ...opts, maxCallBytes: share }), budget, own));
    },
  };
}

export function budgetedJsonRpc(target: JsonRpcTarget, budget: ByteBudget, limits: CallLimits): JsonRpcTarget {
  // A JSON-RPC answer is one body, bounded by both limits.
  const held = <T extends Observation>(opts: JsonRpcCallOptions, call: (o: JsonRpcCallOptions) => Promise<T>) => {
    const own = Math.min(opts.maxMessageBytes ?? limits.maxMessageBytes, opts.maxCallBytes ?? limits.maxCallBytes);
    const share = Math.min(own, budget.max);
    return budget.run(share, async () => noteRunLimit(await call({ ...opts, maxCallBytes: share }), budget, own));
  };
  return {
    url: target.url,
    endpoint: target.endpoint,
    close: () => target.close(),
    abort: () => target.abort(),
    call: (method, params, opts = {}) => held(opts, (o) => target.call(method, params, o)),
    batch: (method, params, opts = {}) => held(opts, (o) => target.batch(method, params, o)),
  };
}
