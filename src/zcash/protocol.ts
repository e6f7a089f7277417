// The Zcash lightwallet protocol as the core sees it: CompactTxStreamer, the JSON-RPC
// methods of Zebra and Zaino, the implementations builds declare, the start-of-run facts,
// which cases could broadcast a transaction, and Zebra JSON-RPC as the oracle. Coverage
// also reads which JSON-RPC methods each real version serves, from its source.

import type { Protocol } from "../core/run/protocol.js";
import { CompactTxStreamer } from "./gen/walletrpc/service_pb.js";
import { deriveFromOracle } from "./oracle/derive.js";
import { JSONRPC_METHOD_NAMES, JSONRPC_SERVED_BY } from "./jsonrpc-methods.js";
import { jsonRpcOracle } from "./oracle/source.js";
import { sendsTransaction } from "./send-risk.js";
import { serverChains } from "./server-chains.js";
import { startFacts } from "./start-facts.js";
import { lightwalletTips } from "./tips.js";

/** What a build's `implementation:` may say: the servers of the lightwallet protocol. */
export const LIGHTWALLET_IMPLEMENTATIONS = ["lightwalletd", "zaino", "ztreamer", "zebrad", "other"] as const;

/**
 * The methods of one real version and the source they are read from: what the coverage
 * mode prints when a protocol carries them (modes/coverage/served.ts), beside the members
 * every Protocol has.
 */
interface ServedMethods {
  implementation: string;
  version: string;
  source: string;
  methods: readonly string[];
}

export const lightwalletProtocol: Protocol & { jsonRpcServedBy: readonly ServedMethods[] } = {
  name: "lightwallet",
  service: CompactTxStreamer,
  jsonRpcMethods: JSONRPC_METHOD_NAMES,
  jsonRpcServedBy: JSONRPC_SERVED_BY.map(({ source: s, ...served }) => ({ ...served, source: `${s.crate} ${s.version} ${s.file} ${s.symbol}` })),
  implementations: LIGHTWALLET_IMPLEMENTATIONS,
  startFacts,
  sendsTransaction,
  serverChains,
  oracle: (target) => jsonRpcOracle(target, deriveFromOracle(target)),
  tips: lightwalletTips,
};
