// How a derivation stops, and the gRPC status the oracle answers with.
//
// Three ways a derivation ends early, kept apart because they mean different things:
// - Rejection: the answer itself is an error status — the request fails a local check a
//   spec-correct server makes without asking its node, or the node refused it (a
//   NodeError mapped as below). The oracle vouches for the code.
// - OracleFault: the oracle could not answer at all (unreachable, bad JSON, a result of
//   the wrong shape, a method the node does not serve). The observation carries a
//   `fault`, so the verdict says "unavailable" instead of blaming the builds.
// - Underivable: the answer exists but the oracle cannot say what it is (a block with a
//   transaction the decoder does not know, a request it cannot interpret). The deriver
//   returns undefined.
//
// JSON-RPC error → gRPC code, as lightwalletd maps its node's errors (spec
// lightwallet-protocol.md §3.4, zebra-jsonrpc.md §3 and §4.2), with the spec-correct
// reference's codes where lightwalletd is documented as buggy:
//
// | rpc                                   | JSON-RPC error                        | gRPC code         |
// |---------------------------------------|---------------------------------------|-------------------|
// | any                                   | -28 warming up, -10 initial download  | UNAVAILABLE       |
// | any                                   | -32601 method not found               | (fault: protocol) |
// | GetBlock, GetBlockNullifiers,         | -8 height not in the best chain       | OUT_OF_RANGE      |
// |   GetBlockRange, …RangeNullifiers     | -5 unknown block hash                 | NOT_FOUND         |
// |                                       | anything else                         | INVALID_ARGUMENT  |
// | GetTransaction                        | -5 unknown txid                       | NOT_FOUND         |
// |                                       | anything else                         | INVALID_ARGUMENT  |
// | GetTreeState by hash                  | -5, -8 block not in the main chain    | NOT_FOUND         |
// | GetTreeState by height                | -8 above the tip                      | OUT_OF_RANGE      |
// |                                       | anything else                         | INVALID_ARGUMENT  |
// | GetTaddress*, GetAddressUtxos*        | any (-5 bad address, -1 start > end)  | INVALID_ARGUMENT  |
// | GetSubtreeRoots                       | any                                   | INVALID_ARGUMENT  |
// | GetLatestBlock, GetLatestTreeState    | any                                   | UNAVAILABLE       |
// | GetLightdInfo                         | any                                   | INTERNAL          |
// | GetMempoolTx, GetMempoolStream        | any (-5 for a listed txid: skipped)   | INTERNAL          |
// | SendTransaction                       | any                                   | OK, SendResponse{errorCode: code, errorMessage: message} |
//
// The status message of a node error is `oracle: <JSON-RPC error message>`; a local
// rejection's is `oracle: ` and the text lightwalletd uses for the same check.

import type { FaultKind } from "../../core/targets/observation.js";
import { GrpcCode } from "../../core/targets/grpc-status.js";
import type { RpcName } from "./underivable.js";

/** The answer is this error status. */
export class Rejection extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "Rejection";
  }
}

/** A JSON-RPC error object from the node. */
export class NodeError extends Error {
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
  ) {
    super(`${method}: ${rpcCode}: ${rpcMessage}`);
    this.name = "NodeError";
  }
}

/** The oracle gave no usable answer. */
export class OracleFault extends Error {
  constructor(
    readonly kind: FaultKind,
    detail: string,
  ) {
    super(detail);
    this.name = "OracleFault";
  }
}

/** The oracle cannot tell what the answer is. */
export class Underivable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Underivable";
  }
}

export const ORACLE_PREFIX = "oracle: ";

/** A local check failed: the code and lightwalletd's wording of it. */
export function reject(code: number, text: string): Rejection {
  return new Rejection(code, ORACLE_PREFIX + text);
}

export const invalidArgument = (text: string): Rejection => reject(GrpcCode.INVALID_ARGUMENT, text);

/** JSON-RPC error codes the mapping names (Zebra's server/error.rs). */
export const RPC_CODE = {
  MISC: -1,
  INVALID_ADDRESS_OR_KEY: -5,
  INVALID_PARAMETER: -8,
  CLIENT_IN_INITIAL_DOWNLOAD: -10,
  IN_WARMUP: -28,
  METHOD_NOT_FOUND: -32601,
} as const;

/** How a block is named in the request, where the mapping depends on it. */
export type BlockRefKind = "height" | "hash";

const BLOCK_RPCS: ReadonlySet<RpcName> = new Set(["GetBlock", "GetBlockNullifiers", "GetBlockRange", "GetBlockRangeNullifiers"]);
const ADDRESS_RPCS: ReadonlySet<RpcName> = new Set([
  "GetTaddressTxids",
  "GetTaddressTransactions",
  "GetTaddressBalance",
  "GetTaddressBalanceStream",
  "GetAddressUtxos",
  "GetAddressUtxosStream",
]);

/** The gRPC code for a node error answering `rpc` (the table above). */
export function grpcCodeForNodeError(rpc: RpcName, e: NodeError, ref?: BlockRefKind): number {
  const c = e.rpcCode;
  if (c === RPC_CODE.IN_WARMUP || c === RPC_CODE.CLIENT_IN_INITIAL_DOWNLOAD) return GrpcCode.UNAVAILABLE;
  if (BLOCK_RPCS.has(rpc)) {
    if (c === RPC_CODE.INVALID_PARAMETER) return GrpcCode.OUT_OF_RANGE;
    if (c === RPC_CODE.INVALID_ADDRESS_OR_KEY) return GrpcCode.NOT_FOUND;
    return GrpcCode.INVALID_ARGUMENT;
  }
  if (rpc === "GetTransaction") return c === RPC_CODE.INVALID_ADDRESS_OR_KEY ? GrpcCode.NOT_FOUND : GrpcCode.INVALID_ARGUMENT;
  if (rpc === "GetTreeState") {
    if (ref === "hash" && (c === RPC_CODE.INVALID_ADDRESS_OR_KEY || c === RPC_CODE.INVALID_PARAMETER)) return GrpcCode.NOT_FOUND;
    if (ref === "height" && c === RPC_CODE.INVALID_PARAMETER) return GrpcCode.OUT_OF_RANGE;
    return GrpcCode.INVALID_ARGUMENT;
  }
  if (ADDRESS_RPCS.has(rpc) || rpc === "GetSubtreeRoots") return GrpcCode.INVALID_ARGUMENT;
  if (rpc === "GetLatestBlock" || rpc === "GetLatestTreeState") return GrpcCode.UNAVAILABLE;
  return GrpcCode.INTERNAL;
}

/** A node error as the status the oracle answers with. */
export function nodeRejection(rpc: RpcName, e: NodeError, ref?: BlockRefKind): Rejection {
  return new Rejection(grpcCodeForNodeError(rpc, e, ref), ORACLE_PREFIX + e.rpcMessage);
}
