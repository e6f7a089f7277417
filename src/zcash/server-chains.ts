// The chain each server says it is on: GetLightdInfo.chainName over gRPC,
// getblockchaininfo.chain over JSON-RPC. What the servers say, not what the config
// claims, decides whether a run may broadcast (core/run/broadcast.ts).

import { create, fromBinary } from "@bufbuild/protobuf";
import type { StartFactsInput } from "../core/run/protocol.js";
import type { GrpcTarget } from "../core/targets/grpc.js";
import type { JsonRpcTarget } from "../core/targets/jsonrpc.js";
import { CompactTxStreamer, EmptySchema, LightdInfoSchema } from "./gen/walletrpc/service_pb.js";

async function grpcChainName(target: GrpcTarget): Promise<string | undefined> {
  const obs = await target.call(CompactTxStreamer.method.getLightdInfo, create(EmptySchema));
  if (obs.code !== 0 || obs.messages.length !== 1) return undefined;
  try {
    return fromBinary(LightdInfoSchema, obs.messages[0]!).chainName;
  } catch {
    return undefined;
  }
}

async function jsonRpcChainName(target: JsonRpcTarget): Promise<string | undefined> {
  const obs = await target.call("getblockchaininfo", []);
  if (obs.fault) return undefined;
  try {
    const chain = (JSON.parse(Buffer.from(obs.body).toString("utf8")) as { result?: { chain?: unknown } }).result?.chain;
    return typeof chain === "string" ? chain : undefined;
  } catch {
    return undefined;
  }
}

/** Each server's own chain name, keyed by who said it; undefined when it would not say. */
export async function serverChains(input: StartFactsInput): Promise<Map<string, string | undefined>> {
  const asks: [string, Promise<string | undefined>][] = [
    ...[...input.connections.grpc].map(([name, t]): [string, Promise<string | undefined>] => [`${name} (GetLightdInfo.chainName)`, grpcChainName(t)]),
    ...[...input.connections.jsonrpc].map(([name, t]): [string, Promise<string | undefined>] => [`${name} (getblockchaininfo.chain)`, jsonRpcChainName(t)]),
    ...(input.oracle ? [["oracle (getblockchaininfo.chain)", jsonRpcChainName(input.oracle)] as [string, Promise<string | undefined>]] : []),
  ];
  const names = await Promise.all(asks.map(([, p]) => p));
  return new Map(asks.map(([who], i) => [who, names[i]]));
}
