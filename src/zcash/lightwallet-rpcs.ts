// The names of CompactTxStreamer's 20 rpcs (lightwallet-protocol v0.5.0) as a literal
// type, for tables keyed by rpc. A test checks them against the generated descriptor.

export const RPC_NAMES = [
  "GetLatestBlock",
  "GetBlock",
  "GetBlockNullifiers",
  "GetBlockRange",
  "GetBlockRangeNullifiers",
  "GetTransaction",
  "SendTransaction",
  "GetTaddressTxids",
  "GetTaddressTransactions",
  "GetTaddressBalance",
  "GetTaddressBalanceStream",
  "GetMempoolTx",
  "GetMempoolStream",
  "GetTreeState",
  "GetLatestTreeState",
  "GetSubtreeRoots",
  "GetAddressUtxos",
  "GetAddressUtxosStream",
  "GetLightdInfo",
  "Ping",
] as const;

export type RpcName = (typeof RPC_NAMES)[number];

export function isRpcName(name: string): name is RpcName {
  return (RPC_NAMES as readonly string[]).includes(name);
}

/**
 * Protobuf JSON names of the fields that carry a block hash or txid in wire order
 * (BlockID.hash, TxFilter.hash, CompactBlock.hash and prevHash, CompactTx.txid,
 * CompactTxIn.prevoutTxid, GetAddressUtxosReply.txid): reports show them in display order
 * beside the wire bytes. SubtreeRoot.completingBlockHash is specified in display order
 * already, and tree roots are not shown reversed by anyone, so neither is listed.
 */
export const HASH_FIELDS = ["hash", "prevHash", "txid", "prevoutTxid"] as const;
