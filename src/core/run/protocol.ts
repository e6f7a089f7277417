// The protocol a run checks, as a value. The core knows gRPC and JSON-RPC but no
// particular service: what the service is, which JSON-RPC methods the corpus may call,
// which facts a run learns at its start, which requests could broadcast something, and
// how the oracle answers are all the protocol's to say. The Zcash lightwallet protocol is
// one such value (src/zcash/protocol.ts).

import type { DescService } from "@bufbuild/protobuf";
import type { Network } from "../corpus/chain-profile.js";
import type { CorpusMethods } from "../corpus/load.js";
import type { Preflight } from "../results/events.js";
import type { Build } from "../targets/config.js";
import type { NodeIdentity } from "../targets/config.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { PlannedCase } from "./plan.js";
import type { Connections, OracleSource } from "./runner.js";
import type { TipReader } from "./moving-chain.js";

/** What a run learns before its first case: the chain tip and a mempool transaction for the dynamic anchors, and each build's protocol version. */
export interface StartFacts {
  tip?: { height: number; hash: string };
  /** Display-order id of a transaction in the oracle's mempool, when asked for and there is one. */
  mempoolTxid?: string;
  protocolVersions: Map<string, string>;
  /** Per build, what the server says of itself: the version it runs and the node behind it. */
  servers?: Map<string, ServerSays>;
  /** Anchors read from the chain the oracle serves (a profile that asks for discovery), by name. */
  anchors?: Record<string, number | string>;
  /** Why discovery found no anchors, when the profile asked for it. */
  anchorsUnread?: string;
  /** Whom the run reached, which chain each said it serves, and why the run should stop. */
  preflight: Preflight;
}

export interface ServerSays {
  version?: string;
  node?: NodeIdentity;
}

export interface StartFactsInput {
  oracle?: JsonRpcTarget;
  /** The oracle's own deadline for its startup call. */
  oracleDeadlineMs?: number;
  connections: Connections;
  builds: readonly Build[];
  /** The chain profile's network; absent = any chain is accepted. */
  network?: Network;
  /** The chain name the servers must give, when not the network's usual one. */
  chainName?: string;
  /** Whether the run needs the tip (the chain profile has dynamic anchors); default true. */
  needTip?: boolean;
  /** Whether the run needs a transaction from the oracle's mempool (a `mempool_txid` dynamic anchor). */
  needMempoolTxid?: boolean;
  /** Read the chain's anchors from the oracle (the chain profile's `discover`), starting from the profile's own. */
  discover?: { anchors: Readonly<Record<string, number | string>> };
}

export interface Protocol extends CorpusMethods {
  /** e.g. "lightwallet". */
  name: string;
  /** The gRPC service every build serves. */
  service: DescService;
  /** The JSON-RPC methods cases may call. */
  jsonRpcMethods: readonly string[];
  /** Implementation names a build may declare (config `implementation:`). */
  implementations: readonly string[];
  startFacts(input: StartFactsInput): Promise<StartFacts>;
  /** The chain each server says it is on, keyed by who said it (undefined: it would not say). */
  serverChains(input: StartFactsInput): Promise<Map<string, string | undefined>>;
  /** Whether sending the case could broadcast something real (a valid transaction). */
  sendsTransaction(pc: PlannedCase): boolean;
  /** The ground truth, asked through the oracle's JSON-RPC endpoint. */
  oracle(target: JsonRpcTarget): OracleSource;
  /** How the chain's tip is read from the oracle and from each build, for runs on a chain that moves. */
  tips?(oracle: JsonRpcTarget, connections: Connections): TipReader;
}
