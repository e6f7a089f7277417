// serve-bench's tip-following phase: after the serving scenarios (so that it disturbs
// none of them), the node mines `blocks` blocks, one in each `everyMs` interval, through its own
// JSON-RPC (`generate`, as a regtest zebrad answers it; the fixture's moving node answers
// it too), and every build's GetLatestBlock is watched as `zconform scenario` watches it
// (core/scenario/tip-watch.ts): per block, the ms from the node answering `generate` to
// the build naming that block, or one above it, as its latest. A node that answers no
// `generate` cannot be moved: the phase is skipped saying why, with no figure.
//
// Each block comes at a random point of its interval: indexers poll their node on a clock
// of their own (Zaino's chain head every 1 s), and blocks a fixed 1 s apart would meet
// every poll at the same phase, so that all blocks measured one lag, not its spread.

import { watchTips } from "../../core/scenario/tip-watch.js";
import type { TipId } from "../../core/scenario/mover.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import type { JsonRpcEndpoint } from "../../core/targets/endpoint.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { nodeCall, type NodeCall } from "../../zcash/real/node-call.js";
import { latestBlockProbe } from "../../zcash/scenario/tip-probe.js";
import { percentile } from "../latency/stats.js";
import type { BenchBuild } from "./runner.js";

export const DEFAULT_TIP_BLOCKS = 50;
/** One block per second on average, as often as Zaino's chain head polls (lightwalletd's ingestor: every 2 s). */
export const DEFAULT_TIP_EVERY_MS = 1_000;
/** How often a build that lags the node is asked for its tip: the figures' resolution (as `zconform scenario`). */
export const TIP_PROBE_MS = 5;
/** How long every build may take to serve the node's tip, before the first block and after the last. */
export const TIP_SETTLE_MS = 30_000;

/** One build's times to serve the mined blocks. */
export interface TipBuildFigures {
  build: string;
  /** Blocks mined, and those the build served within the phase. */
  events: number;
  served: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** Per mined block, in order: ms to serve it, or null when it did not within the phase. */
  ms: (number | null)[];
}

export interface TipFollowing {
  /** Blocks asked for (`--tip-blocks`) and the interval between them (`--tip-every-ms`). */
  blocks: number;
  everyMs: number;
  probeMs: number;
  /** Why the phase did not run (the node cannot be moved): no figure then. */
  skipped: string | null;
  /** Why it stopped before mining every block asked for (the figures cover the blocks mined). */
  error: string | null;
  /** The blocks the node mined, in order, and when it answered generate for each (ms from the first interval's start). */
  mined: (TipId & { atMs: number })[];
  builds: TipBuildFigures[];
}

export interface TipPhaseOptions {
  builds: readonly BenchBuild[];
  /** The node behind the builds, moved through its JSON-RPC. */
  node: JsonRpcEndpoint;
  blocks: number;
  everyMs: number;
  settleMs?: number;
  signal?: AbortSignal;
}

/** The phase not run, and why. */
export function tipSkipped(o: { blocks: number; everyMs: number }, reason: string): TipFollowing {
  return { blocks: o.blocks, everyMs: o.everyMs, probeMs: TIP_PROBE_MS, skipped: reason, error: null, mined: [], builds: [] };
}

/** Median, 99th percentile and maximum of the times served; null figures when none was. */
export function tipFigures(build: string, ms: readonly (number | null)[]): TipBuildFigures {
  const served = ms.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const pick = (p: number) => (served.length === 0 ? null : percentile(served, p));
  return {
    build,
    events: ms.length,
    served: served.length,
    p50Ms: pick(50),
    p99Ms: pick(99),
    maxMs: served.length === 0 ? null : served[served.length - 1]!,
    ms: [...ms],
  };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function nodeTip(node: NodeCall): Promise<TipId> {
  const info = await node<{ blocks: number; bestblockhash: string }>("getblockchaininfo");
  return { height: info.blocks, hash: info.bestblockhash };
}

export async function runTipFollowing(o: TipPhaseOptions): Promise<TipFollowing> {
  const settleMs = o.settleMs ?? TIP_SETTLE_MS;
  const rpc = jsonRpcTarget(o.node);
  const node = nodeCall(rpc, "the node");
  const targets = new Map<string, GrpcTarget>(o.builds.map((b) => [b.name, grpcTarget(b.grpc)]));
  const names = o.builds.map((b) => b.name);
  const watch = watchTips(names, latestBlockProbe(targets, Math.max(...o.builds.map((b) => b.deadlineMs))), TIP_PROBE_MS);
  const mined: TipFollowing["mined"] = [];
  let error: string | null = null;
  try {
    let start: TipId;
    try {
      start = await nodeTip(node);
    } catch (e) {
      return tipSkipped(o, `the node's tip could not be read: ${message(e)}`);
    }
    // Every build first serves the node's tip, so that the first block's figure is not a build still catching up.
    watch.baseline(start);
    await watch.atTip(settleMs);
    // Intervals from the phase's start: the time a block takes to mine does not stretch them.
    const t0 = performance.now();
    for (let i = 0; i < o.blocks && !o.signal?.aborted; i++) {
      await pause(t0 + (i + Math.random()) * o.everyMs - performance.now(), o.signal);
      if (o.signal?.aborted) break;
      let hash: string;
      try {
        const hashes = await node<unknown>("generate", [1]);
        if (!Array.isArray(hashes) || typeof hashes[0] !== "string")
          throw new Error(`generate [1] answered ${JSON.stringify(hashes)?.slice(0, 120)}, not one block hash`);
        hash = hashes[0];
      } catch (e) {
        if (i === 0) return tipSkipped(o, `the node cannot be moved: it answers no generate (${message(e)})`);
        error = `the node stopped mining after ${i} of ${o.blocks} blocks: ${message(e)}`;
        break;
      }
      // The node answers generate once it has the block: from then on, builds may serve it,
      // so it is watched at once, on the tip it was mined on, and its height checked after.
      const at = performance.now();
      const height = (mined.at(-1)?.height ?? start.height) + 1;
      watch.record({ kind: "block", height, hash, at });
      mined.push({ height, hash, atMs: Math.round(at - t0) });
      try {
        const block = await node<{ height: number }>("getblock", [hash, 1]);
        if (block.height !== height) throw new Error(`it is at height ${block.height}, not ${height}: something else moved the node's chain meanwhile`);
      } catch (e) {
        mined.pop();
        error = `block ${hash}: ${message(e)}`;
        break;
      }
    }
    if (!o.signal?.aborted) await watch.atTip(settleMs);
  } finally {
    await watch.stop();
    await Promise.all([...targets.values()].map((t) => t.close()));
    await rpc.close();
  }
  // A block dropped above (its height not the one watched for) has no figure.
  const records = watch.records().slice(0, mined.length);
  return {
    blocks: o.blocks,
    everyMs: o.everyMs,
    probeMs: TIP_PROBE_MS,
    skipped: null,
    error,
    mined,
    builds: names.map((b) =>
      tipFigures(
        b,
        records.map((r) => r.served.get(b) ?? null),
      ),
    ),
  };
}
