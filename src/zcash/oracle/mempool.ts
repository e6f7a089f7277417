// GetMempoolTx and GetMempoolStream from getrawmempool and `getrawtransaction <txid> 0`
// (zebra-jsonrpc.md §4.2; lightwallet-protocol.md §3.2).
//
// - GetMempoolTx: each mempool transaction decoded by src/zcash/codec and made compact with
//   index 0 and its LE txid; poolTypes as for ranges (empty = shielded only; 0 or an
//   unknown number is INVALID_ARGUMENT); a transaction without data in those pools is
//   left out. Each exclude entry is a suffix of the LE txid bytes: one matching exactly
//   one mempool transaction excludes it, one matching several (or the empty entry,
//   which matches all) excludes none. Entries over 32 bytes, or more than 20,000 of
//   them, are INVALID_ARGUMENT.
// - GetMempoolStream: the raw transactions with height 0. A server keeps the stream open
//   until the next block; the derived answer is the mempool's messages.
// Both come in getrawmempool's order (sorted by txid), which is not a server's: cases
// compare these streams unordered (UNORDERED_RPCS). A transaction that leaves the
// mempool between the two calls (-5) is skipped.

import { create } from "@bufbuild/protobuf";
import { CompactTxSchema } from "../gen/walletrpc/compact_formats_pb.js";
import { RawTransactionSchema, type GetMempoolTxRequest } from "../gen/walletrpc/service_pb.js";
import { compactTx, decodeTransaction, excludeBySuffix, hasData, MAX_EXCLUDE_ENTRIES, wireFromDisplay, type Transaction } from "../codec/index.js";
import { requestedPools } from "./blocks.js";
import { inOrder, type Derivation } from "./context.js";
import { arr, hex, str } from "./node.js";
import { invalidArgument, NodeError, RPC_CODE, Underivable } from "./status.js";

interface MempoolTx {
  /** Wire order. */
  txid: Uint8Array;
  raw: Uint8Array;
}

/** The mempool as the node lists it; transactions gone by the time they are fetched are skipped. */
async function mempool(d: Derivation): Promise<MempoolTx[]> {
  const listed = arr(await d.node.call("getrawmempool"), "getrawmempool").map((t, i) => str({ v: t, what: `getrawmempool[${i}]` }));
  const fetch = async (txid: string): Promise<MempoolTx | undefined> => {
    try {
      const raw = hex({ v: await d.node.call("getrawtransaction", [txid, 0]), what: `getrawtransaction ${txid} 0` });
      return { txid: wireFromDisplay(txid), raw };
    } catch (e) {
      if (e instanceof NodeError && e.rpcCode === RPC_CODE.INVALID_ADDRESS_OR_KEY) return undefined;
      throw e;
    }
  };
  const out: MempoolTx[] = [];
  for await (const t of inOrder(listed, fetch)) if (t) out.push(t);
  return out;
}

function decoded(t: MempoolTx): Transaction {
  try {
    return decodeTransaction(t.raw);
  } catch (e) {
    throw new Underivable(`a mempool transaction does not decode: ${(e as Error).message}`);
  }
}

export async function getMempoolTx(d: Derivation, req: GetMempoolTxRequest): Promise<void> {
  const excludes = req.excludeTxidSuffixes;
  if (excludes.length > MAX_EXCLUDE_ENTRIES) {
    throw invalidArgument(`GetMempoolTx: too many exclude txid suffixes: ${excludes.length} (limit ${MAX_EXCLUDE_ENTRIES})`);
  }
  excludes.forEach((e, i) => {
    if (e.length > 32) throw invalidArgument(`exclude txid ${i} is larger than 32 bytes`);
  });
  const pools = requestedPools("", req.poolTypes);
  for (const t of excludeBySuffix(await mempool(d), excludes)) {
    // Mempool compact transactions have index 0 (and fee 0).
    const c = compactTx(decoded(t), t.txid, 0, pools);
    if (hasData(c)) d.emit(CompactTxSchema, c);
  }
}

export async function getMempoolStream(d: Derivation): Promise<void> {
  for (const t of await mempool(d)) d.emit(RawTransactionSchema, create(RawTransactionSchema, { data: t.raw, height: 0n }));
}
