// What bench/sweep.ts and bench/sweep-paths.ts share: one timed pass (wall time, this
// process's CPU time, per-source totals) of the bare drain, of zconform's client reading
// alone, of the client feeding the lockstep, and of the whole sweep; and the arithmetic
// over passes.
import { PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";
import { runSweep, type SweepOptions, type SweepResult } from "../src/modes/sweep/sweep.js";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { Lockstep } from "../src/modes/sweep/lockstep.js";
import { streamChunk } from "../src/modes/sweep/stream.js";
import { DEFAULT_WINDOW } from "../src/modes/sweep/sweep.js";
import { drain, type Windows } from "./drain.js";

export const CHUNK = 100_000;

export interface Pass {
  perSource: { name: string; blocks: number; bytes: number; ms: number }[];
  wallMs: number;
  cpuMs: number;
  result?: SweepResult;
}

export function poolsArg(text: string): PoolType[] {
  return text
    .split(",")
    .filter(Boolean)
    .map((p) => PoolType[p as keyof typeof PoolType]);
}

async function timed(run: () => Promise<Omit<Pass, "wallMs" | "cpuMs">>): Promise<Pass> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const r = await run();
  const c = process.cpuUsage(cpu);
  return { ...r, wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

/** bench/drain.ts on every build at once. */
export function drainPass(urls: Record<string, string>, from: number, to: number, pools: readonly PoolType[], windows: Windows): Promise<Pass> {
  return timed(async () => ({
    perSource: await Promise.all(Object.entries(urls).map(async ([name, url]) => ({ name, ...(await drain(url, from, to, CHUNK, pools, windows)) }))),
  }));
}

/**
 * The sweep's own reading without its comparison: every build's chunks through zconform's
 * gRPC client (stream.ts), the blocks handed to nothing, or to a Lockstep whose positions
 * are handed to nothing. Against the drain and the sweep, these split a block's time into
 * the client's read, the lockstep's bookkeeping and the comparison.
 */
export function readPass(urls: Record<string, string>, from: number, to: number, pools: readonly PoolType[], into: "nothing" | "lockstep"): Promise<Pass> {
  const builds = Object.entries(urls).map(([name, url]) => ({ name, target: grpcTarget({ url }) }));
  return timed(async () => {
    const perSource = builds.map((b) => ({ name: b.name, blocks: 0, bytes: 0, ms: 0 }));
    try {
      for (let h = from; h <= to; h += CHUNK) {
        const end = Math.min(to, h + CHUNK - 1);
        const lock = into === "lockstep" ? new Lockstep(builds.length, DEFAULT_WINDOW, end - h + 1, () => undefined) : undefined;
        const outcomes = await Promise.all(
          builds.map((b, j) =>
            streamChunk(b.target, { from: h, to: end, poolTypes: pools, deadlineMs: 600_000, maxMessageBytes: 16 * 1024 * 1024 }, (bytes) =>
              lock?.deliver(j, bytes),
            ).finally(() => lock?.end(j)),
          ),
        );
        await lock?.done();
        outcomes.forEach((o, j) => {
          if (o.code !== 0) throw new Error(`${builds[j]!.name}: ${o.message}`);
          perSource[j]!.blocks += o.blocks;
          perSource[j]!.bytes += o.bytes;
          perSource[j]!.ms += o.ms;
        });
      }
      return { perSource };
    } finally {
      await Promise.all(builds.map((b) => b.target.close()));
    }
  });
}

/** runSweep over every build at once (and the oracle, when given). */
export function sweepPass(
  urls: Record<string, string>,
  from: number,
  to: number,
  pools: readonly PoolType[],
  extra: Partial<SweepOptions> = {},
): Promise<Pass> {
  const builds = Object.entries(urls).map(([name, url]) => ({ name, target: grpcTarget({ url }) }));
  return timed(async () => {
    try {
      const result = await runSweep({ builds, from, to, poolTypes: pools, chunkSize: CHUNK, ...extra });
      if (result.compared !== to - from + 1) throw new Error(`sweep compared ${result.compared} of ${to - from + 1} heights`);
      return { perSource: result.totals.map((t) => ({ name: t.name, blocks: t.blocks, bytes: t.bytes, ms: t.ms })), result };
    } finally {
      await Promise.all(builds.map((b) => b.target.close()));
    }
  });
}

/** Heights per second of a whole pass, by wall time. */
export const wallRate = (p: Pass, heights: number) => heights / (p.wallMs / 1000);

export function bestAndMedian(values: number[]): { best: number; median: number } {
  const s = [...values].sort((a, b) => b - a);
  return { best: s[0]!, median: s[Math.floor((s.length - 1) / 2)]! };
}

/** Client CPU per height and build, µs: the least over passes. */
export const cpuPerBlock = (ps: Pass[], heights: number, builds: number) => Math.min(...ps.map((p) => (1000 * p.cpuMs) / (heights * builds)));

export const n0 = (v: number) => Math.round(v).toLocaleString("en-US");
