// The chain each server says it is on: GetLightdInfo.chainName over gRPC,
// getblockchaininfo.chain over JSON-RPC, asked the way the preflight asks them (each under
// its build's own limits). What the servers say, not what the config claims, decides
// whether a run may broadcast (core/run/broadcast.ts); every endpoint of a build is asked.

import type { StartFactsInput } from "../core/run/protocol.js";
import { contactGrpc, contactJsonRpc } from "./start-facts.js";

/** Each server's own chain name, keyed by who said it; undefined when it would not say. */
export async function serverChains(input: StartFactsInput): Promise<Map<string, string | undefined>> {
  const byName = new Map(input.builds.map((b) => [b.name, b]));
  const asks: [string, Promise<string | undefined>][] = [
    ...[...input.connections.grpc].map(([name, t]): [string, Promise<string | undefined>] =>
      [`${name} (GetLightdInfo.chainName)`, contactGrpc(name, t, byName.get(name)!).then((r) => r.contact.chainName)]),
    ...[...input.connections.jsonrpc].map(([name, t]): [string, Promise<string | undefined>] =>
      [`${name} (getblockchaininfo.chain)`, contactJsonRpc(name, t, byName.get(name)!).then((r) => r.contact.chainName)]),
    ...(input.oracle
      ? [["oracle (getblockchaininfo.chain)", contactJsonRpc("oracle", input.oracle, { deadlineMs: input.oracleDeadlineMs ?? 30_000 }).then((r) => r.contact.chainName)] as [string, Promise<string | undefined>]]
      : []),
  ];
  const names = await Promise.all(asks.map(([, p]) => p));
  return new Map(asks.map(([who], i) => [who, names[i]]));
}
