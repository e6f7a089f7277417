// What counts as a broadcast in the lightwallet protocol: SendTransaction, or JSON-RPC
// sendrawtransaction, carrying bytes the oracle's own rule calls a possible transaction:
// bytes that decode, or that claim an overwintered version the decoder does not know yet.
// The guard itself (skip unless a regtest run allows it) is the core's: core/run/broadcast.ts.

import { fromBinary, type Message } from "@bufbuild/protobuf";
import type { PlannedCase } from "../core/run/plan.js";
import { RawTransactionSchema, type RawTransaction } from "./gen/walletrpc/service_pb.js";
import { mayBeTransaction } from "./oracle/transactions.js";

/** The transaction bytes a case would send, if it is a broadcasting call at all. */
function payload(pc: PlannedCase): Uint8Array | undefined {
  const c = pc.case;
  if (c.transport === "grpc" && c.method === "SendTransaction") {
    const r = pc.request;
    if (r instanceof Uint8Array) {
      try {
        return fromBinary(RawTransactionSchema, r).data;
      } catch {
        return undefined; // a server cannot read it either
      }
    }
    if (r && !Array.isArray(r) && (r as Message).$typeName === RawTransactionSchema.typeName) return (r as RawTransaction).data;
    return undefined;
  }
  if (c.transport === "jsonrpc" && c.method === "sendrawtransaction" && Array.isArray(pc.request)) {
    const hex = pc.request[0];
    // Nodes decode the hex strictly: anything else never reaches their transaction parser.
    if (typeof hex !== "string" || !/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
    return new Uint8Array(Buffer.from(hex, "hex"));
  }
  return undefined;
}

/** Whether the case hands a server a valid transaction (the core's broadcast guard asks). */
export function sendsTransaction(pc: PlannedCase): boolean {
  const data = payload(pc);
  return data !== undefined && data.length > 0 && mayBeTransaction(data);
}
