// The facts a run starts from, gathered once: every build and the oracle are contacted
// (GetLightdInfo over gRPC, getblockchaininfo over JSON-RPC) under their own limits,
// which tells whether they answer, which chain they serve and which protocol version
// they speak; and the chain's tip, for the dynamic anchors. `run`, `sweep` and the probe
// commands read these facts from here and nowhere else.

import { create, fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer, EmptySchema, LightdInfoSchema } from "./gen/walletrpc/service_pb.js";
import type { Network } from "../core/corpus/chain-profile.js";
import type { Build, Limits } from "../core/targets/config.js";
import type { GrpcTarget } from "../core/targets/grpc.js";
import type { JsonRpcTarget } from "../core/targets/jsonrpc.js";
import type { GrpcObservation, JsonRpcObservation } from "../core/targets/observation.js";
import type { Contact, Preflight } from "../core/results/events.js";
import type { ServerSays, StartFacts, StartFactsInput } from "../core/run/protocol.js";
import { nodeFromSubversion } from "./node-identity.js";
import { discoverAnchors } from "./discover-anchors.js";

export interface StartupFacts {
  preflight: Preflight;
  /** Per build: declared in the config, else what GetLightdInfo said. */
  protocolVersions: Map<string, string>;
  /** Per build: the version and node GetLightdInfo named. */
  servers: Map<string, ServerSays>;
  tip?: Tip;
  mempoolTxid?: string;
}

/** The chain names servers report for each network (LightdInfo.chainName, getblockchaininfo.chain). */
export const CHAIN_NAMES: Readonly<Record<Network, string>> = { mainnet: "main", testnet: "test", regtest: "regtest" };

export function grpcLimits(b: Limits) {
  return { deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, maxMessages: b.maxStreamMessages };
}

type JsonRpcLimits = Pick<Limits, "deadlineMs"> & Partial<Pick<Limits, "maxMessageBytes">>;

export function jsonRpcLimits(b: JsonRpcLimits) {
  return { deadlineMs: b.deadlineMs, ...(b.maxMessageBytes !== undefined ? { maxMessageBytes: b.maxMessageBytes } : {}) };
}

/** The message of a good unary answer, or undefined: a build's garbage must not end the run. */
function decodedAnswer<D extends DescMessage>(schema: D, obs: GrpcObservation): MessageShape<D> | undefined {
  if (obs.code !== 0 || obs.messages.length !== 1) return undefined;
  try {
    return fromBinary(schema, obs.messages[0]!);
  } catch {
    return undefined;
  }
}

function grpcFailure(obs: GrpcObservation): string {
  if (obs.fault) return obs.fault.detail;
  if (obs.code !== 0) return `status ${obs.code}${obs.message ? ` ${obs.message}` : ""}`;
  return `${obs.messages.length === 1 ? "an answer that does not decode" : `${obs.messages.length} messages`} instead of one LightdInfo`;
}

/** The `result` of a JSON-RPC answer, or a reason why there is none. */
export function jsonRpcResult(obs: JsonRpcObservation): { result: unknown } | { failure: string } {
  if (obs.fault) return { failure: obs.fault.detail };
  try {
    const body = JSON.parse(Buffer.from(obs.body).toString("utf8")) as { result?: unknown; error?: { message?: string } | null };
    if (body.error) return { failure: `JSON-RPC error: ${body.error.message ?? JSON.stringify(body.error)}` };
    return { result: body.result };
  } catch {
    return { failure: "an answer that is not JSON" };
  }
}

/** A server that answered anything at all (an error status, an oversized message) was reached. */
const answered = (obs: GrpcObservation | JsonRpcObservation) => obs.fault?.kind !== "unreachable" && obs.fault?.kind !== "timeout";

const elapsed = (t0: number) => Math.round(performance.now() - t0);

export async function contactGrpc(name: string, target: GrpcTarget, limits: Limits): Promise<{ contact: Contact; protocolVersion?: string; says: ServerSays }> {
  const t0 = performance.now();
  const obs = await target.call(CompactTxStreamer.method.getLightdInfo, create(EmptySchema), grpcLimits(limits));
  const info = decodedAnswer(LightdInfoSchema, obs);
  const contact: Contact = { name, transport: "grpc", reached: answered(obs), ms: elapsed(t0) };
  if (info?.chainName) contact.chainName = info.chainName;
  else contact.detail = grpcFailure(obs);
  const node = nodeFromSubversion(info?.zcashdSubversion);
  const says: ServerSays = { ...(info?.version ? { version: info.version } : {}), ...(node ? { node } : {}) };
  return { contact, ...(info?.lightwalletProtocolVersion ? { protocolVersion: info.lightwalletProtocolVersion } : {}), says };
}

interface ChainInfo {
  contact: Contact;
  tip?: Tip;
}

export async function contactJsonRpc(name: string, target: JsonRpcTarget, limits: JsonRpcLimits): Promise<ChainInfo> {
  const t0 = performance.now();
  const obs = await target.call("getblockchaininfo", [], jsonRpcLimits(limits));
  const answer = jsonRpcResult(obs);
  const contact: Contact = { name, transport: "jsonrpc", reached: answered(obs), ms: elapsed(t0) };
  if ("failure" in answer) return { contact: { ...contact, detail: answer.failure } };
  const info = answer.result as { chain?: unknown; blocks?: unknown; bestblockhash?: unknown } | null;
  if (typeof info?.chain === "string") contact.chainName = info.chain;
  else contact.detail = "getblockchaininfo has no chain name";
  const tip = typeof info?.blocks === "number" && typeof info.bestblockhash === "string" ? { height: info.blocks, hash: info.bestblockhash } : undefined;
  return { contact, ...(tip ? { tip } : {}) };
}

export type Tip = { height: number; hash: string };

export async function tipFromOracle(target: JsonRpcTarget, limits: JsonRpcLimits): Promise<Tip | undefined> {
  return (await contactJsonRpc("oracle", target, limits)).tip;
}

export async function tipFromGrpc(target: GrpcTarget, limits: Limits): Promise<Tip | undefined> {
  const id = decodedAnswer(BlockIDSchema, await target.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema), grpcLimits(limits)));
  return id ? { height: Number(id.height), hash: Buffer.from(id.hash).reverse().toString("hex") } : undefined;
}

/** The tip: from the oracle when there is one, else from the first build whose GetLatestBlock answers. */
export async function chainTip(o: {
  oracle?: { target: JsonRpcTarget; limits: JsonRpcLimits };
  builds: readonly { build: Build; target: GrpcTarget }[];
}): Promise<Tip | undefined> {
  const fromOracle = o.oracle ? await tipFromOracle(o.oracle.target, o.oracle.limits) : undefined;
  if (fromOracle) return fromOracle;
  for (const { build, target } of o.builds) {
    const tip = await tipFromGrpc(target, build);
    if (tip) return tip;
  }
  return undefined;
}

/**
 * A transaction waiting in the oracle's mempool, display order: the least txid, so that two
 * runs over the same mempool pick the same one. Undefined when the mempool is empty or the
 * oracle will not say.
 */
export async function mempoolTxidFromOracle(target: JsonRpcTarget, limits: JsonRpcLimits): Promise<string | undefined> {
  const answer = jsonRpcResult(await target.call("getrawmempool", [], jsonRpcLimits(limits)));
  if ("failure" in answer || !Array.isArray(answer.result)) return undefined;
  return answer.result.filter((t): t is string => typeof t === "string" && /^[0-9a-f]{64}$/.test(t)).sort()[0];
}

/** Why these contacts should stop the run: a chain other than the profile's, or builds on different chains. */
export function preflightProblems(builds: readonly Contact[], oracle: Contact | undefined, expected: Network | undefined, chainName?: string): string[] {
  // A server not reached is no config problem: its cases could not be checked (core/run/preflight.ts).
  const problems: string[] = [];
  const named = builds.filter((c) => c.chainName !== undefined);
  const chains = new Set(named.map((c) => c.chainName));
  if (chains.size > 1) {
    problems.push(`the builds serve different chains: ${named.map((c) => `${c.name} says "${c.chainName}"`).join(", ")}`);
  }
  if (expected) {
    const want = chainName ?? CHAIN_NAMES[expected];
    for (const c of [...named, ...(oracle?.chainName !== undefined ? [oracle] : [])]) {
      if (c.chainName !== want) {
        problems.push(
          `${c.name === "oracle" ? "the oracle" : `build ${c.name}`} serves chain "${c.chainName}", but the chain profile is ${expected} ("${want}")`,
        );
      }
    }
  }
  return problems;
}

export interface StartupOptions {
  builds: readonly Build[];
  grpc: ReadonlyMap<string, GrpcTarget>;
  jsonrpc: ReadonlyMap<string, JsonRpcTarget>;
  oracle?: { target: JsonRpcTarget; limits: JsonRpcLimits };
  /** The chain profile's network; absent = any chain is accepted. */
  network?: Network;
  /** The chain name the servers must give instead of the network's usual one. */
  chainName?: string;
  /** Find the tip (the chain profile has dynamic anchors). */
  needTip?: boolean;
  /** Take a transaction from the oracle's mempool (a `mempool_txid` dynamic anchor). */
  needMempoolTxid?: boolean;
}

/** Contacts every build (in parallel) and the oracle once; then the tip, when asked for. */
export async function gatherStartupFacts(o: StartupOptions): Promise<StartupFacts> {
  const versions = new Map<string, string>();
  const servers = new Map<string, ServerSays>();
  const [contacts, oracleInfo] = await Promise.all([
    Promise.all(
      o.builds.map(async (b): Promise<Contact | undefined> => {
        const grpc = o.grpc.get(b.name);
        if (grpc) {
          const { contact, protocolVersion, says } = await contactGrpc(b.name, grpc, b);
          if (protocolVersion) versions.set(b.name, protocolVersion);
          servers.set(b.name, says);
          return contact;
        }
        const jsonrpc = o.jsonrpc.get(b.name);
        return jsonrpc ? (await contactJsonRpc(b.name, jsonrpc, b)).contact : undefined;
      }),
    ),
    o.oracle ? contactJsonRpc("oracle", o.oracle.target, o.oracle.limits) : undefined,
  ]);
  for (const b of o.builds) if (b.protocolVersion) versions.set(b.name, b.protocolVersion);
  const builds = contacts.filter((c): c is Contact => c !== undefined);
  const reached = o.builds.filter((b) => o.grpc.has(b.name) && builds.find((c) => c.name === b.name)?.reached);
  const tip = oracleInfo?.tip ?? (o.needTip ? await chainTip({ builds: reached.map((b) => ({ build: b, target: o.grpc.get(b.name)! })) }) : undefined);
  const mempoolTxid = o.needMempoolTxid && o.oracle ? await mempoolTxidFromOracle(o.oracle.target, o.oracle.limits) : undefined;
  const preflight: Preflight = {
    builds,
    ...(oracleInfo ? { oracle: oracleInfo.contact } : {}),
    problems: preflightProblems(builds, oracleInfo?.contact, o.network, o.chainName),
    forced: false,
  };
  return { preflight, protocolVersions: versions, servers, ...(tip ? { tip } : {}), ...(mempoolTxid ? { mempoolTxid } : {}) };
}

/** The lightwallet protocol's start-of-run facts (Protocol.startFacts), with the chain's anchors when the profile asks to discover them. */
export async function startFacts(input: StartFactsInput): Promise<StartFacts> {
  const facts = await startupFacts(input);
  if (!input.discover) return facts;
  if (!input.oracle) return { ...facts, anchorsUnread: "the chain profile reads its anchors from the oracle's chain, and the run has no oracle" };
  const oracle = input.oracle;
  const limits = jsonRpcLimits({ deadlineMs: input.oracleDeadlineMs ?? 30_000 });
  const rpc = async (method: string, params: unknown[]) => {
    const answer = jsonRpcResult(await oracle.call(method, params, limits));
    if ("failure" in answer) throw new Error(`${method}: ${answer.failure}`);
    return answer.result;
  };
  const found = await discoverAnchors(rpc, input.discover.anchors);
  return { ...facts, ...("anchors" in found ? { anchors: found.anchors } : { anchorsUnread: found.failure }) };
}

function startupFacts(input: StartFactsInput): Promise<StartupFacts> {
  return gatherStartupFacts({
    builds: input.builds,
    grpc: input.connections.grpc,
    jsonrpc: input.connections.jsonrpc,
    ...(input.oracle ? { oracle: { target: input.oracle, limits: { deadlineMs: input.oracleDeadlineMs ?? 30_000 } } } : {}),
    ...(input.network ? { network: input.network } : {}),
    ...(input.chainName ? { chainName: input.chainName } : {}),
    needTip: input.needTip ?? true,
    ...(input.needMempoolTxid ? { needMempoolTxid: true } : {}),
  });
}
