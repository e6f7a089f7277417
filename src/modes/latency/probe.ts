// Timing unary rpcs: N calls one after another per build and rpc (never two at once on
// one connection: concurrent calls share segments and ACKs and would hide the plateau),
// builds in parallel (each has its own connection). The first `warmup` calls of each rpc
// are kept apart: the very first pays for the TCP and HTTP/2 handshakes.

import { fromJson, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { MissingAnchorError, resolveAnchors, type Anchors } from "../../core/corpus/anchors.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { grpcCodeName } from "../../core/targets/grpc-status.js";

export interface ProbeSpec {
  rpc: DescMethod;
  request: Message;
  requestJson: JsonValue;
}

/** Small unary answers: where a missing TCP_NODELAY shows. */
export const DEFAULT_PROBES: Readonly<Record<string, JsonValue>> = {
  GetLatestBlock: {},
  GetLightdInfo: {},
  GetTreeState: { height: "${tip}" },
  GetTaddressBalance: { addresses: ["${taddr_with_utxos}"] },
  Ping: {},
  GetTransaction: { hash: "${txid_coinbase|le}" },
  GetBlock: { height: "${tip}" },
  GetLatestTreeState: {},
};
export const DEFAULT_RPCS = ["GetLatestBlock", "GetLightdInfo", "GetTreeState", "GetTaddressBalance"];

/** A large answer of the same build: GetBlock of a block with many transactions. */
export const CONTROL_REQUEST: JsonValue = { height: "${block_many_txs}" };

const METHODS = new Map(CompactTxStreamer.methods.map((m) => [m.name, m]));

/** The probe of an rpc with its request resolved, or why it cannot run on this chain. */
export function probeSpec(rpcName: string, anchors: Anchors, request: JsonValue | undefined = DEFAULT_PROBES[rpcName]): ProbeSpec | { skipped: string } {
  const rpc = METHODS.get(rpcName);
  if (!rpc) return { skipped: `unknown rpc ${rpcName}` };
  if (rpc.methodKind !== "unary") return { skipped: `${rpcName} is not unary` };
  let resolved: unknown;
  try {
    resolved = resolveAnchors(request ?? {}, anchors);
  } catch (e) {
    if (e instanceof MissingAnchorError) return { skipped: `the chain has no anchor "${e.anchor}"` };
    throw e;
  }
  return { rpc, request: fromJson(rpc.input, resolved as JsonValue), requestJson: resolved as JsonValue };
}

export interface TimedCalls {
  warmupMs: number[];
  samples: number[];
  /** Per timed call, ms from the answer's first byte to its end (0 when nothing came). */
  holds: number[];
  errors: number;
  /** Status name → calls. */
  statuses: Record<string, number>;
  /** Size of the last answer's message (0 when it failed). */
  answerBytes: number;
}

export async function timeCalls(target: GrpcTarget, spec: ProbeSpec, calls: number, warmup: number, deadlineMs = 10_000): Promise<TimedCalls> {
  const out: TimedCalls = { warmupMs: [], samples: [], holds: [], errors: 0, statuses: {}, answerBytes: 0 };
  for (let i = 0; i < warmup + calls; i++) {
    const obs = await target.call(spec.rpc, spec.request, { deadlineMs });
    const ms = obs.timing.totalMs;
    if (i < warmup) {
      out.warmupMs.push(ms);
      continue;
    }
    out.samples.push(ms);
    out.holds.push(obs.timing.firstByteMs === undefined ? 0 : ms - obs.timing.firstByteMs);
    const status = obs.fault ? `${grpcCodeName(obs.code)} (${obs.fault.kind})` : grpcCodeName(obs.code);
    out.statuses[status] = (out.statuses[status] ?? 0) + 1;
    if (obs.code !== 0) out.errors++;
    out.answerBytes = obs.code === 0 ? (obs.messages[0]?.length ?? 0) : 0;
  }
  return out;
}
