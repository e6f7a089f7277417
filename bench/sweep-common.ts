// What bench/sweep.ts and bench/sweep-paths.ts share: one timed pass (wall time, this
// process's CPU time, per-source totals) and the arithmetic over passes.
import { PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";
import { runSweep, type SweepOptions, type SweepResult } from "../src/modes/sweep/sweep.js";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { drain } from "./drain.js";

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
export function drainPass(urls: Record<string, string>, from: number, to: number, pools: readonly PoolType[]): Promise<Pass> {
  return timed(async () => ({
    perSource: await Promise.all(Object.entries(urls).map(async ([name, url]) => ({ name, ...(await drain(url, from, to, CHUNK, pools)) }))),
  }));
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

/** Blocks per second of one source in a pass, by its own time in calls. */
export function rate(p: Pass, name: string): number {
  const s = p.perSource.find((x) => x.name === name)!;
  return s.blocks / (s.ms / 1000);
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
