// The expected gRPC answer of a case, derived from the oracle's JSON-RPC (zebra-jsonrpc.md
// §4): the exact bytes a spec-correct (lightwallet-protocol v0.5.0) server sends, so the
// runner can compare every build with it byte for byte. This file interprets the
// request and dispatches; each rpc's derivation lives with its concern (blocks,
// transactions, addresses, trees, mempool, info), the error mapping in status.ts.
//
// The answer is an observation like a build's: status code and message, each response
// message as protobuf-es `toBinary` encodes it (ascending field numbers, zero scalars
// omitted), no headers or trailers, wireBytes = the messages' total size, timing = how
// long the derivation took. undefined means the oracle cannot say (UNDERIVABLE_ANSWERS):
// Ping, a SendTransaction that would broadcast, raw request bytes that do not parse, a
// block or mempool transaction the decoder does not know. A JSON-RPC call that faults
// gives an observation with that fault, so the verdict reads "the oracle was unavailable".

import { fromBinary, type DescMethod, type Message } from "@bufbuild/protobuf";
import { PoolType, ShieldedProtocol } from "../gen/walletrpc/service_pb.js";
import type {
  Address,
  AddressList,
  BlockID,
  BlockRange,
  GetAddressUtxosArg,
  GetMempoolTxRequest,
  GetSubtreeRootsArg,
  RawTransaction,
  TransparentAddressBlockFilter,
  TxFilter,
} from "../gen/walletrpc/service_pb.js";
import { GrpcCode } from "../../core/targets/grpc-status.js";
import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { Fault, GrpcObservation, Observation } from "../../core/targets/observation.js";
import { getAddressUtxos, getAddressUtxosStream, getTaddressBalance, getTaddressBalanceStream, getTaddressTransactions } from "./addresses.js";
import { getBlock, getBlockNullifiers, getBlockRange, getLatestBlock, protocolBefore } from "./blocks.js";
import { createOracleCache, type OracleCache } from "./cache.js";
import { derivation, type Derivation } from "./context.js";
import { getLightdInfo } from "./info.js";
import { getMempoolStream, getMempoolTx } from "./mempool.js";
import { createNode, type Node } from "./node.js";
import type { GrpcDeriver } from "./source.js";
import { NodeError, nodeRejection, OracleFault, Rejection, Underivable } from "./status.js";
import { getTransaction, sendTransaction } from "./transactions.js";
import { getLatestTreeState, getSubtreeRoots, getTreeState } from "./trees.js";
import { isRpcName, type RpcName } from "./underivable.js";

export { createOracleCache, type OracleCache } from "./cache.js";
export { UNDERIVABLE, UNDERIVABLE_ANSWERS, UNORDERED_RPCS, RPC_NAMES, type RpcName } from "./underivable.js";
export type { GrpcDeriver } from "./source.js";

type Handler = (d: Derivation, request: Message | Message[]) => Promise<void>;

// Ping has no entry: nothing a node answers corresponds to it.
const HANDLERS: Readonly<Partial<Record<RpcName, Handler>>> = {
  GetLatestBlock: (d) => getLatestBlock(d),
  GetBlock: (d, r) => getBlock(d, r as BlockID),
  GetBlockNullifiers: (d, r) => getBlockNullifiers(d, r as BlockID),
  GetBlockRange: (d, r) => getBlockRange(d, r as BlockRange, false),
  GetBlockRangeNullifiers: (d, r) => getBlockRange(d, r as BlockRange, true),
  GetTransaction: (d, r) => getTransaction(d, r as TxFilter),
  SendTransaction: (d, r) => sendTransaction(d, r as RawTransaction),
  GetTaddressTxids: (d, r) => getTaddressTransactions(d, r as TransparentAddressBlockFilter),
  GetTaddressTransactions: (d, r) => getTaddressTransactions(d, r as TransparentAddressBlockFilter),
  GetTaddressBalance: (d, r) => getTaddressBalance(d, r as AddressList),
  GetTaddressBalanceStream: (d, r) => getTaddressBalanceStream(d, r as Address[]),
  GetMempoolTx: (d, r) => getMempoolTx(d, r as GetMempoolTxRequest),
  GetMempoolStream: (d) => getMempoolStream(d),
  GetTreeState: (d, r) => getTreeState(d, r as BlockID),
  GetLatestTreeState: (d) => getLatestTreeState(d),
  GetSubtreeRoots: (d, r) => getSubtreeRoots(d, r as GetSubtreeRootsArg),
  GetAddressUtxos: (d, r) => getAddressUtxos(d, r as GetAddressUtxosArg),
  GetAddressUtxosStream: (d, r) => getAddressUtxosStream(d, r as GetAddressUtxosArg),
  GetLightdInfo: (d) => getLightdInfo(d),
};

export interface DeriveOptions {
  /** Share a cache between derivers; default a fresh one for this deriver's lifetime. */
  cache?: OracleCache;
}

/** The deriver of a run: every gRPC case's expected answer, from `oracle`. */
export function deriveFromOracle(oracle: JsonRpcTarget, opts: DeriveOptions = {}): GrpcDeriver {
  const node = createNode(oracle, opts.cache ?? createOracleCache());
  return async (pc, protocol) => {
    const rpc = pc.rpc;
    if (!rpc || !isRpcName(rpc.name)) return undefined;
    const handler = HANDLERS[rpc.name];
    if (!handler) return undefined;
    const request = interpret(rpc, pc.request);
    if (request === undefined) return undefined;
    if (protocol !== undefined && !rulesKnownFor(request, protocol)) return undefined;
    return run(rpc.name, handler, request, node, protocol);
  };
}

/**
 * Whether the oracle can say what a build speaking `protocol` must answer. Ironwood (the
 * IRONWOOD pool type, the ironwood shielded protocol) arrived in v0.5.0: what an older
 * server does with the unknown enum value is not specified, so such requests have no
 * answer under older rules.
 */
function rulesKnownFor(request: Message | Message[], protocol: string): boolean {
  if (!protocolBefore(protocol, "0.5.0")) return true;
  const r = request as { poolTypes?: PoolType[]; shieldedProtocol?: ShieldedProtocol; range?: { poolTypes?: PoolType[] } };
  return !(r.poolTypes?.includes(PoolType.IRONWOOD) || r.range?.poolTypes?.includes(PoolType.IRONWOOD) || r.shieldedProtocol === ShieldedProtocol.ironwood);
}

/**
 * The request as messages of the rpc's input type. Raw bytes are read as a server reads
 * them; bytes that do not parse leave the answer underivable (undefined).
 */
function interpret(rpc: DescMethod, request: unknown): Message | Message[] | undefined {
  const one = (r: unknown): Message | undefined => {
    if (r instanceof Uint8Array) {
      try {
        return fromBinary(rpc.input, r);
      } catch {
        return undefined;
      }
    }
    const m = r as Message | undefined;
    return m?.$typeName === rpc.input.typeName ? m : undefined;
  };
  if (rpc.methodKind === "client_streaming") {
    if (!Array.isArray(request)) return undefined;
    const list = request.map(one);
    return list.every((m): m is Message => m !== undefined) ? list : undefined;
  }
  return Array.isArray(request) ? undefined : one(request);
}

async function run(rpc: RpcName, handler: Handler, request: Message | Message[], node: Node, protocol?: string): Promise<Observation | undefined> {
  const startedAt = Date.now();
  const t0 = performance.now();
  const d = derivation(rpc, node, protocol);
  let code: number = GrpcCode.OK;
  let message = "";
  let fault: Fault | undefined;
  try {
    await handler(d, request);
  } catch (e) {
    if (e instanceof Underivable) return undefined;
    if (e instanceof NodeError) ({ code, message } = nodeRejection(rpc, e));
    else if (e instanceof Rejection) ({ code, message } = e);
    else {
      // A fault of the oracle, or a derivation that broke on what the node said: either
      // way there is no answer to measure the builds against.
      fault =
        e instanceof OracleFault ? { kind: e.kind, detail: e.message } : { kind: "protocol", detail: `oracle derivation failed: ${(e as Error).message}` };
      code = GrpcCode.UNAVAILABLE;
      message = `oracle unavailable: ${fault.detail}`;
    }
  }
  const messages = fault ? [] : d.messages;
  const obs: GrpcObservation = {
    transport: "grpc",
    method: rpc,
    code,
    message,
    messages,
    headers: {},
    trailers: {},
    wireBytes: messages.reduce((n, m) => n + m.length, 0),
    timing: { startedAt, totalMs: performance.now() - t0 },
  };
  if (fault) obs.fault = fault;
  return obs;
}
