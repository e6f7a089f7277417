// The chain each server says it is on: GetLightdInfo.chainName over gRPC,
// getblockchaininfo.chain over JSON-RPC, asked the way the preflight asks them (each under
// its build's own limits). What the servers say, not what the config claims, decides
// whether a run may broadcast (core/run/broadcast.ts); every endpoint of a build is asked.
//
// zebrad names every network but mainnet "test" (zebra-chain NetworkKind::bip70_network_name),
// so a zebrad regtest node, and every indexer it backs, says "test" like a testnet one. Such
// a server is taken to be on regtest only when its own genesis block is the regtest genesis:
// a testnet server answers with the testnet genesis and stays refused.

import { create, fromBinary } from "@bufbuild/protobuf";
import type { StartFactsInput } from "../core/run/protocol.js";
import type { GrpcTarget } from "../core/targets/grpc.js";
import type { JsonRpcTarget } from "../core/targets/jsonrpc.js";
import type { Limits } from "../core/targets/config.js";
import { CompactBlockSchema } from "./gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, CompactTxStreamer } from "./gen/walletrpc/service_pb.js";
import { contactGrpc, contactJsonRpc, grpcLimits, jsonRpcLimits, jsonRpcResult } from "./start-facts.js";

/**
 * `zcash-cli -regtest getblockhash 0`, display order (zebra-chain@15.0.0
 * src/parameters/network/testnet.rs REGTEST_GENESIS_HASH).
 */
export const REGTEST_GENESIS_HASH = "029f11d80ef9765602235e1bc9727e3eb6ba20839319f761fee920d63401e327";

async function grpcGenesis(target: GrpcTarget, limits: Limits): Promise<string | undefined> {
  const obs = await target.call(CompactTxStreamer.method.getBlock, create(BlockIDSchema, { height: 0n }), grpcLimits(limits));
  if (obs.code !== 0 || obs.messages.length !== 1) return undefined;
  try {
    return Buffer.from(fromBinary(CompactBlockSchema, obs.messages[0]!).hash).reverse().toString("hex");
  } catch {
    return undefined;
  }
}

async function jsonRpcGenesis(target: JsonRpcTarget, limits: Pick<Limits, "deadlineMs">): Promise<string | undefined> {
  const answer = jsonRpcResult(await target.call("getblockhash", [0], jsonRpcLimits(limits)));
  return "result" in answer && typeof answer.result === "string" ? answer.result : undefined;
}

/** "regtest" for a server that says "test" over the regtest genesis block; its own word otherwise. */
async function chainOf(said: string | undefined, genesis: () => Promise<string | undefined>): Promise<string | undefined> {
  return said === "test" && (await genesis()) === REGTEST_GENESIS_HASH ? "regtest" : said;
}

/** Each server's own chain name, keyed by who said it; undefined when it would not say. */
export async function serverChains(input: StartFactsInput): Promise<Map<string, string | undefined>> {
  const byName = new Map(input.builds.map((b) => [b.name, b]));
  const oracleLimits = { deadlineMs: input.oracleDeadlineMs ?? 30_000 };
  const asks: [string, Promise<string | undefined>][] = [
    ...[...input.connections.grpc].map(([name, t]): [string, Promise<string | undefined>] => {
      const limits = byName.get(name)!;
      return [`${name} (GetLightdInfo.chainName)`, contactGrpc(name, t, limits).then((r) => chainOf(r.contact.chainName, () => grpcGenesis(t, limits)))];
    }),
    ...[...input.connections.jsonrpc].map(([name, t]): [string, Promise<string | undefined>] => {
      const limits = byName.get(name)!;
      return [`${name} (getblockchaininfo.chain)`, contactJsonRpc(name, t, limits).then((r) => chainOf(r.contact.chainName, () => jsonRpcGenesis(t, limits)))];
    }),
    ...(input.oracle
      ? [
          [
            "oracle (getblockchaininfo.chain)",
            contactJsonRpc("oracle", input.oracle, oracleLimits).then((r) => chainOf(r.contact.chainName, () => jsonRpcGenesis(input.oracle!, oracleLimits))),
          ] as [string, Promise<string | undefined>],
        ]
      : []),
  ];
  const names = await Promise.all(asks.map(([, p]) => p));
  return new Map(asks.map(([who], i) => [who, names[i]]));
}
