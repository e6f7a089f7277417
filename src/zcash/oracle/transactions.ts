// GetTransaction from `getrawtransaction <display txid> 1`, and SendTransaction's failure
// path from sendrawtransaction (zebra-jsonrpc.md §4.2, lightwallet-protocol.md §3.4).
//
// SendTransaction — safety first: the oracle must never broadcast. Bytes that decode as
// a transaction are never sent (the deriver returns undefined); neither are bytes whose
// header claims an overwintered version the decoder does not support (6 to 255, with a
// non-zero version group id), since a node may well accept those. Only bytes that cannot be a transaction reach
// sendrawtransaction, whose rejection becomes SendResponse{errorCode, errorMessage}
// with status OK, as lightwalletd and Zebra's server relay it.

import { create } from "@bufbuild/protobuf";
import { RawTransactionSchema, SendResponseSchema, type RawTransaction, type TxFilter } from "../gen/walletrpc/service_pb.js";
import { bytesToHex, decodeTransactionPrefix, displayHex } from "../codec/index.js";
import type { Derivation } from "./context.js";
import { field, hex, obj, optionalUint, str } from "./node.js";
import { invalidArgument, NodeError, Underivable } from "./status.js";

/** Largest transaction lightwalletd and Zebra accept. */
export const MAX_SEND_BYTES = 2_000_000;
/** Transaction versions above the decoder's (v5) up to this one are taken as real formats. */
export const MAX_PLAUSIBLE_VERSION = 0xff;
/** RawTransaction.height of a transaction mined only on a side chain. */
export const SIDE_CHAIN_HEIGHT = (1n << 64n) - 1n;

/** The TxFilter's txid after lightwalletd's checks. */
function txidOf(filter: TxFilter): Uint8Array {
  const { hash } = filter;
  if (hash.length === 0) {
    if (filter.block && filter.block.hash.length > 0) throw invalidArgument("GetTransaction: specify a txid, not a blockhash+num");
    throw invalidArgument("GetTransaction: specify a txid");
  }
  if (hash.length !== 32) throw invalidArgument(`GetTransaction: transaction ID has invalid length: ${hash.length}`);
  return hash;
}

/**
 * A RawTransaction from a verbose getrawtransaction object: the main-chain height when
 * mined there, 0 for the mempool (no height, no block), 2^64 − 1 for a side chain (a
 * block hash but not in the active chain).
 */
export function rawTransactionOf(o: Record<string, unknown>, what: string): RawTransaction {
  const data = hex(field(o, "hex", what));
  const height = optionalUint(field(o, "height", what));
  let h = 0n;
  if (height !== undefined) h = BigInt(height);
  else if (o.in_active_chain === false && typeof o.blockhash === "string") h = SIDE_CHAIN_HEIGHT;
  return create(RawTransactionSchema, { data, height: h });
}

/** `getrawtransaction <txid> 1` as the RawTransaction a server sends. */
export async function fetchRawTransaction(d: Derivation, displayTxid: string): Promise<RawTransaction> {
  const what = `getrawtransaction ${displayTxid} 1`;
  return rawTransactionOf(obj(await d.node.call("getrawtransaction", [displayTxid, 1]), what), what);
}

export async function getTransaction(d: Derivation, filter: TxFilter): Promise<void> {
  d.emit(RawTransactionSchema, await fetchRawTransaction(d, displayHex(txidOf(filter))));
}

/**
 * Whether the bytes might be a transaction a node accepts; such bytes are never sent.
 * Any prefix that decodes counts: Zebra and zcashd deserialize one transaction and
 * ignore bytes after it, so a valid transaction with trailing bytes is still one.
 */
export function mayBeTransaction(data: Uint8Array): boolean {
  try {
    decodeTransactionPrefix(data);
    return true;
  } catch {
    // An overwintered header with a plausible version above 5 and a version group id (every
    // overwintered format has a non-zero one) is a format the decoder does not know (v6
    // onwards), not garbage.
    if (data.length < 8) return false;
    const view = new DataView(data.buffer, data.byteOffset, 8);
    const header = view.getUint32(0, true);
    const version = header & 0x7fffffff;
    return header >>> 31 === 1 && version > 5 && version <= MAX_PLAUSIBLE_VERSION && view.getUint32(4, true) !== 0;
  }
}

export async function sendTransaction(d: Derivation, raw: RawTransaction): Promise<void> {
  const { data } = raw;
  if (data.length === 0) throw invalidArgument("bad transaction data");
  if (data.length > MAX_SEND_BYTES) throw invalidArgument(`SendTransaction: transaction is too large: ${data.length} bytes (limit ${MAX_SEND_BYTES})`);
  if (mayBeTransaction(data)) throw new Underivable("the data decodes as a transaction: the oracle never broadcasts");
  let errorCode = 0;
  let errorMessage: string;
  try {
    errorMessage = str({ v: await d.node.call("sendrawtransaction", [bytesToHex(data)]), what: "sendrawtransaction" });
  } catch (e) {
    if (!(e instanceof NodeError)) throw e;
    errorCode = e.rpcCode;
    errorMessage = e.rpcMessage;
  }
  d.emit(SendResponseSchema, create(SendResponseSchema, { errorCode, errorMessage }));
}
