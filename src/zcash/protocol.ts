// The Zcash lightwallet protocol as the core sees it: CompactTxStreamer, the JSON-RPC
// methods of Zebra and Zaino, the implementations builds declare, the start-of-run facts,
// which cases could broadcast a transaction, and Zebra JSON-RPC as the oracle.

import type { Protocol } from "../core/run/protocol.js";
import { CompactTxStreamer } from "./gen/walletrpc/service_pb.js";
import { deriveFromOracle } from "./oracle/derive.js";
import { JSONRPC_METHOD_NAMES } from "./jsonrpc-methods.js";
import { jsonRpcOracle } from "./oracle/source.js";
import { sendsTransaction } from "./send-risk.js";
import { serverChains } from "./server-chains.js";
import { startFacts } from "./start-facts.js";

/** What a build's `implementation:` may say: the servers of the lightwallet protocol. */
export const LIGHTWALLET_IMPLEMENTATIONS = ["lightwalletd", "zaino", "ztreamer", "zebrad", "other"] as const;

export const lightwalletProtocol: Protocol = {
  name: "lightwallet",
  service: CompactTxStreamer,
  jsonRpcMethods: JSONRPC_METHOD_NAMES,
  implementations: LIGHTWALLET_IMPLEMENTATIONS,
  startFacts,
  sendsTransaction,
  serverChains,
  oracle: (target) => jsonRpcOracle(target, deriveFromOracle(target)),
};
