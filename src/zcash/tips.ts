// The chain's tip as a run on a moving chain reads it: the oracle's getblockchaininfo, a
// gRPC build's GetLatestBlock, a JSON-RPC-only build's getblockchaininfo. Short deadlines:
// a tip that does not come quickly is no tip, and the case is judged as it is.

import type { TipReader } from "../core/run/moving-chain.js";
import type { Connections } from "../core/run/runner.js";
import type { JsonRpcTarget } from "../core/targets/jsonrpc.js";
import { contactJsonRpc, tipFromGrpc, tipFromOracle } from "./start-facts.js";

const TIP_DEADLINE_MS = 5_000;

export function lightwalletTips(oracle: JsonRpcTarget, connections: Connections): TipReader {
  return {
    node: () => tipFromOracle(oracle, { deadlineMs: TIP_DEADLINE_MS }),
    build: async (b) => {
      const grpc = connections.grpc.get(b.name);
      if (grpc) return tipFromGrpc(grpc, { ...b, deadlineMs: Math.min(b.deadlineMs, TIP_DEADLINE_MS) });
      const jsonrpc = connections.jsonrpc.get(b.name);
      return jsonrpc ? (await contactJsonRpc(b.name, jsonrpc, { deadlineMs: TIP_DEADLINE_MS })).tip : undefined;
    },
  };
}
