// What the oracle cannot vouch for. A node knows its chain, its mempool and its own build,
// but not the lightwallet server in front of it: that server's name, version and build,
// and its operator's donation address, are its own. The oracle derives those fields as
// empty values, so every oracle-anchored case must declare them volatile (the corpus
// test in underivable.test.ts checks that it does).
//
// Beyond fields, some answers cannot be derived at all (UNDERIVABLE_ANSWERS): the
// deriver returns undefined for them and an oracle-anchored case is "unavailable".
//
// Streams the node lists in its own order (getrawmempool sorts by txid; a server keeps
// its mempool in whatever order it likes) are compared unordered: UNORDERED_RPCS.

export { RPC_NAMES, isRpcName, type RpcName } from "../lightwallet-rpcs.js";
import type { RpcName } from "../lightwallet-rpcs.js";

/** LightdInfo fields the server sets about itself. */
const SERVER_IDENTITY = ["version", "vendor", "gitCommit", "branch", "buildDate", "buildUser", "donationAddress"] as const;

/**
 * Per rpc, the field paths (src/core/canon/paths.ts syntax) whose value the oracle cannot
 * know and derives as the empty value. Every oracle-anchored case of the rpc must
 * declare at least these volatile.
 */
export const UNDERIVABLE: Readonly<Record<RpcName, readonly string[]>> = {
  GetLatestBlock: [],
  GetBlock: [],
  GetBlockNullifiers: [],
  GetBlockRange: [],
  GetBlockRangeNullifiers: [],
  GetTransaction: [],
  // Only the failure path is derived (a node's rejection of bytes that are not a
  // transaction); the success path is in UNDERIVABLE_ANSWERS.
  SendTransaction: [],
  GetTaddressTxids: [],
  GetTaddressTransactions: [],
  GetTaddressBalance: [],
  GetTaddressBalanceStream: [],
  GetMempoolTx: [],
  GetMempoolStream: [],
  GetTreeState: [],
  GetLatestTreeState: [],
  GetSubtreeRoots: [],
  GetAddressUtxos: [],
  GetAddressUtxosStream: [],
  GetLightdInfo: SERVER_IDENTITY,
  // Entirely: a concurrency probe of the server itself (see UNDERIVABLE_ANSWERS).
  Ping: ["entry", "exit"],
};

/** Answers the deriver returns undefined for, and why. */
export const UNDERIVABLE_ANSWERS: Readonly<Partial<Record<RpcName, string>>> = {
  Ping: "every answer: Ping measures the server's own concurrency; no node call corresponds to it",
  SendTransaction:
    "a request whose data decodes as a transaction (or claims a transaction version the decoder does not know): " +
    "deriving the success answer would mean broadcasting it, and the oracle never broadcasts",
};

/**
 * Streams whose message order is the node's (or the server's) choice, which oracle-anchored
 * cases must compare unordered: getrawmempool lists txids sorted, a server keeps its own
 * mempool order (lightwalletd sorts by txid, others keep map order).
 */
export const UNORDERED_RPCS: ReadonlySet<RpcName> = new Set(["GetMempoolTx", "GetMempoolStream"]);
