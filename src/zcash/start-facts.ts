// What a lightwallet run learns before its first case: the chain tip (for `${tip}`
// anchors) and the protocol version each build speaks.

import { create, fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { StartFacts, StartFactsInput } from "../core/run/protocol.js";
import type { Connections } from "../core/run/runner.js";
import type { Build } from "../core/targets/config.js";
import type { JsonRpcTarget } from "../core/targets/jsonrpc.js";
import { CompactTxStreamer, ChainSpecSchema, EmptySchema, BlockIDSchema, LightdInfoSchema } from "./gen/walletrpc/service_pb.js";

const getLatest = CompactTxStreamer.method.getLatestBlock;
const getInfo = CompactTxStreamer.method.getLightdInfo;

/**
 * Startup calls (tip, protocol versions) get the build's own deadline, capped: a build
 * that hangs must not hold the run longer than its cases would.
 */
const STARTUP_DEADLINE_MS = 10_000;
const startupDeadline = (b: Build | undefined) => Math.min(b?.deadlineMs ?? STARTUP_DEADLINE_MS, STARTUP_DEADLINE_MS);

/** The message of a good unary answer, or undefined: a build's garbage must not end the run. */
function decodedAnswer<D extends DescMessage>(schema: D, obs: { code: number; messages: Uint8Array[] }): MessageShape<D> | undefined {
  if (obs.code !== 0 || obs.messages.length !== 1) return undefined;
  try {
    return fromBinary(schema, obs.messages[0]!);
  } catch {
    return undefined;
  }
}

/** The chain tip, from the oracle when there is one, else from the first gRPC build. */
async function tipOf(oracle: JsonRpcTarget | undefined, conns: Connections, builds: readonly Build[]): Promise<{ height: number; hash: string } | undefined> {
  if (oracle) {
    const [count, best] = await Promise.all([oracle.call("getblockcount", []), oracle.call("getbestblockhash", [])]);
    try {
      const h = JSON.parse(Buffer.from(count.body).toString("utf8")).result;
      const hash = JSON.parse(Buffer.from(best.body).toString("utf8")).result;
      if (typeof h === "number" && typeof hash === "string") return { height: h, hash };
    } catch {
      // falls through to the builds
    }
  }
  for (const [name, target] of conns.grpc) {
    const obs = await target.call(getLatest, create(ChainSpecSchema), { deadlineMs: startupDeadline(builds.find((b) => b.name === name)) });
    const id = decodedAnswer(BlockIDSchema, obs);
    if (!id) continue;
    return { height: Number(id.height), hash: Buffer.from(id.hash).reverse().toString("hex") };
  }
  return undefined;
}

/** Protocol version per build: declared in the config, else what GetLightdInfo says. */
async function protocolVersions(builds: readonly Build[], conns: Connections): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await Promise.all(builds.map(async (b) => {
    if (b.protocolVersion) return out.set(b.name, b.protocolVersion);
    const target = conns.grpc.get(b.name);
    if (!target) return;
    const obs = await target.call(getInfo, create(EmptySchema), { deadlineMs: startupDeadline(b) });
    const v = decodedAnswer(LightdInfoSchema, obs)?.lightwalletProtocolVersion;
    if (v) out.set(b.name, v);
  }));
  return out;
}

export async function startFacts(input: StartFactsInput): Promise<StartFacts> {
  const [tip, protocolVersionsOf] = await Promise.all([tipOf(input.oracle, input.connections, input.builds), protocolVersions(input.builds, input.connections)]);
  return { ...(tip ? { tip } : {}), protocolVersions: protocolVersionsOf };
}
