// The broadcast guard. A case that would hand a server a valid transaction (SendTransaction,
// or JSON-RPC sendrawtransaction) could put it on a real network, and a checker must not
// spend anyone's money or leak a transaction that was never meant to be mined. Such a
// case is only sent when the run allows it, which the command line permits only for a
// regtest chain with --allow-broadcast, and only when every server says itself that its
// chain is regtest (GetLightdInfo.chainName, getblockchaininfo.chain): a chain profile is
// only what the config claims. Otherwise the case becomes a skipped result that says
// why. "Valid" is what the oracle's own rule calls a possible transaction: bytes that
// begin with a transaction that decodes, or that claim an overwintered version the
// decoder does not know yet.

import { create, fromBinary, type Message } from "@bufbuild/protobuf";
import { CompactTxStreamer, EmptySchema, LightdInfoSchema, RawTransactionSchema, type RawTransaction } from "../../zcash/gen/walletrpc/service_pb.js";
import type { GrpcTarget } from "../targets/grpc.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import { mayBeTransaction } from "../../zcash/oracle/transactions.js";
import type { PlannedCase } from "./plan.js";

export const BROADCAST_REFUSED =
  "not sent: the request holds a valid transaction, and sending it could broadcast it " +
  "(only a run against a regtest chain with --allow-broadcast sends it)";

/** The transaction bytes a case would send, if it is a broadcasting call at all. */
function payload(pc: PlannedCase): Uint8Array | undefined {
  const c = pc.case;
  if (c.transport === "grpc" && c.method === "SendTransaction") {
    const r = pc.request;
    if (r instanceof Uint8Array) {
      try {
        return fromBinary(RawTransactionSchema, r).data;
      } catch {
        return undefined; // a server cannot read it either
      }
    }
    if (r && !Array.isArray(r) && (r as Message).$typeName === RawTransactionSchema.typeName) return (r as RawTransaction).data;
    return undefined;
  }
  if (c.transport === "jsonrpc" && c.method === "sendrawtransaction" && Array.isArray(pc.request)) {
    const hex = pc.request[0];
    // Nodes decode the hex strictly: anything else never reaches their transaction parser.
    if (typeof hex !== "string" || !/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
    return new Uint8Array(Buffer.from(hex, "hex"));
  }
  return undefined;
}

/** Why the case must not be sent, or undefined when it broadcasts nothing. */
export function broadcastRisk(pc: PlannedCase): string | undefined {
  const data = payload(pc);
  return data !== undefined && data.length > 0 && mayBeTransaction(data) ? BROADCAST_REFUSED : undefined;
}

const REGTEST = "regtest";

/** What one server says its chain is, or undefined when it would not say. */
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

/**
 * Why the servers forbid broadcasting, or undefined when every one of them (each build's
 * gRPC and JSON-RPC endpoint, and the oracle) says its chain is regtest.
 */
export async function serversForbidBroadcast(
  grpc: ReadonlyMap<string, GrpcTarget>,
  jsonrpc: ReadonlyMap<string, JsonRpcTarget>,
  oracle: JsonRpcTarget | undefined,
): Promise<string | undefined> {
  const asks: [string, Promise<string | undefined>][] = [
    ...[...grpc].map(([name, t]): [string, Promise<string | undefined>] => [`${name} (GetLightdInfo.chainName)`, grpcChainName(t)]),
    ...[...jsonrpc].map(([name, t]): [string, Promise<string | undefined>] => [`${name} (getblockchaininfo.chain)`, jsonRpcChainName(t)]),
    ...(oracle ? [["oracle (getblockchaininfo.chain)", jsonRpcChainName(oracle)] as [string, Promise<string | undefined>]] : []),
  ];
  const names = await Promise.all(asks.map(([, p]) => p));
  const wrong = asks.flatMap(([who], i) => (names[i] === REGTEST ? [] : [`${who} says ${names[i] === undefined ? "nothing" : JSON.stringify(names[i])}`]));
  return wrong.length === 0 ? undefined : `${BROADCAST_REFUSED}; --allow-broadcast needs every server to say regtest: ${wrong.join(", ")}`;
}
