// Canonical forms: the bytes compared. One entry point per transport, and one notion of
// "the same answer" that the verdict and the fast comparison share.

import type { DescMessage } from "@bufbuild/protobuf";
import type { Observation } from "../targets/observation.js";
import { canonGrpc, type GrpcCanonical, type GrpcCanonOptions } from "./grpc.js";
import { canonJsonRpc, type JsonRpcCanonical } from "./jsonrpc.js";

export type Canonical = GrpcCanonical | JsonRpcCanonical;

export interface CanonOptions extends Partial<GrpcCanonOptions> {
  /** The rpc's output message; required for gRPC observations. */
  schema?: DescMessage;
  /** JSON-RPC: objects whose member order is not compared (see canonJsonRpc). */
  unorderedKeys?: readonly string[];
}

export function canonOf(obs: Observation, options: CanonOptions = {}): Canonical {
  if (obs.transport === "jsonrpc") return canonJsonRpc(obs, { volatile: options.volatile, unorderedKeys: options.unorderedKeys });
  if (!options.schema) throw new Error(`canonOf: a gRPC observation of ${obs.method} needs the output schema`);
  return canonGrpc(obs, options.schema, {
    streaming: options.streaming ?? false,
    volatile: options.volatile,
    unordered: options.unordered,
    lazy: options.lazy,
    ...(options.openEnded ? { openEnded: true } : {}),
    ...(options.cancelAfter !== undefined ? { cancelAfter: options.cancelAfter } : {}),
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
  });
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}

/**
 * Whether two canonical forms are the same answer: same transport, same fault kind (if
 * any), same status, and the same compared bytes message for message.
 */
export function sameCanonical(a: Canonical, b: Canonical): boolean {
  if (a.fault?.kind !== b.fault?.kind) return false;
  if (a.transport === "grpc") {
    if (b.transport !== "grpc") return false;
    if (a.status.code !== b.status.code || a.status.message !== b.status.message) return false;
    if (a.messages.length !== b.messages.length) return false;
    for (let i = 0; i < a.messages.length; i++) if (!bytesEqual(a.messages[i]!.compared, b.messages[i]!.compared)) return false;
    return true;
  }
  if (b.transport !== "jsonrpc") return false;
  // A body that is not JSON is compared whole, a JSON one by its answer's members: never the one with the other.
  return a.httpStatus === b.httpStatus && (a.tree === undefined) === (b.tree === undefined) && bytesEqual(a.compared, b.compared);
}

export * from "./grpc.js";
export * from "./jsonrpc.js";
export * from "./paths.js";
export * from "./volatile.js";
export { grpcCodeName, grpcCodeOf } from "./grpc-status.js";
export { hex, messageJson, type UnknownFieldNote } from "./grpc-json.js";
