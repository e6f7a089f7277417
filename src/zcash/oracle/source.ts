// The oracle as the runner sees it: for a JSON-RPC case, the same call made to Zebra;
// for a gRPC case, the answer derived from Zebra JSON-RPC (src/oracle/derive), when the
// rpc can be derived at all.

import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { Observation } from "../../core/targets/observation.js";
import { JSONRPC_CASE_ID, type OracleSource } from "../../core/run/runner.js";
import type { PlannedCase } from "../../core/run/plan.js";

/**
 * The expected answer of a gRPC case; with `protocol` ("v0.4.0"), the answer a server
 * speaking that older protocol version must give (undefined when its rules do not say).
 */
export type GrpcDeriver = (pc: PlannedCase, protocol?: string) => Promise<Observation | undefined>;

export function jsonRpcOracle(target: JsonRpcTarget, deriveGrpc?: GrpcDeriver): OracleSource {
  return {
    label: target.url,
    async answer(pc, protocol) {
      if (pc.case.transport === "jsonrpc")
        return protocol === undefined ? target.call(pc.case.method, pc.request as unknown[], { id: JSONRPC_CASE_ID }) : undefined;
      return deriveGrpc ? deriveGrpc(pc, protocol) : undefined;
    },
  };
}
