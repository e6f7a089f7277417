// The oracle as the runner sees it: for a JSON-RPC case, the same call made to Zebra;
// for a gRPC case, the answer derived from Zebra JSON-RPC (src/oracle/derive), when the
// rpc can be derived at all.

import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Observation } from "../targets/observation.js";
import { JSONRPC_CASE_ID, type OracleSource } from "../run/runner.js";
import type { PlannedCase } from "../run/plan.js";

export type GrpcDeriver = (pc: PlannedCase) => Promise<Observation | undefined>;

export function jsonRpcOracle(target: JsonRpcTarget, deriveGrpc?: GrpcDeriver): OracleSource {
  return {
    label: target.url,
    async answer(pc) {
      if (pc.case.transport === "jsonrpc") return target.call(pc.case.method, pc.request as unknown[], { id: JSONRPC_CASE_ID });
      return deriveGrpc ? deriveGrpc(pc) : undefined;
    },
  };
}
