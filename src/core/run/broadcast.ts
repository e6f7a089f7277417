// The broadcast guard. A case that would hand a server a valid transaction (SendTransaction,
// or JSON-RPC sendrawtransaction) could put it on a real network, and a checker must not
// spend anyone's money or leak a transaction that was never meant to be mined. Such a
// case is only sent when the run allows it, which the command line permits only for a
// regtest chain with --allow-broadcast; otherwise it becomes a skipped result that says
// why. "Valid" is what the oracle's own rule calls a possible transaction: bytes that
// decode, or that claim an overwintered version the decoder does not know yet.

import { fromBinary, type Message } from "@bufbuild/protobuf";
import { RawTransactionSchema, type RawTransaction } from "../../zcash/gen/walletrpc/service_pb.js";
import { mayBeTransaction } from "../../zcash/oracle/transactions.js";
import type { PlannedCase } from "./plan.js";

export const BROADCAST_REFUSED =
  "not sent: the request holds a valid transaction, and sending it could broadcast it " +
  "(only a run against a regtest chain with --allow-broadcast sends it)";

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

/** Why the case must not be sent, or undefined when it broadcasts nothing. */
export function broadcastRisk(pc: PlannedCase): string | undefined {
  const data = payload(pc);
  return data !== undefined && data.length > 0 && mayBeTransaction(data) ? BROADCAST_REFUSED : undefined;
}
