// The latency probe of a set of builds: every probe rpc timed on every build, a control
// (a large GetBlock answer) per build, then plateau detection (plateau.ts) with the
// reference build as the baseline, and each divergence classified against the ledger
// as case `latency.<Rpc>`, method <Rpc>, transport grpc.

import type { JsonValue } from "@bufbuild/protobuf";
import type { Divergence } from "../../core/diff/divergence.js";
import type { ClassifiedDivergence } from "../../core/results/result.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { baseline, detectPlateau, plateauShare, type Control, type TimedRpc } from "./plateau.js";
import { timeCalls, type ProbeSpec } from "./probe.js";
import { histogram, percentile, statsOf, type LatencyStats } from "./stats.js";

export interface LatencyBuild {
  name: string;
  target: GrpcTarget;
}

export interface LatencyOptions {
  builds: readonly LatencyBuild[];
  probes: readonly ProbeSpec[];
  /** The large-answer request timed per build as its own baseline. */
  control?: ProbeSpec;
  reference?: string;
  calls: number;
  warmup: number;
  /** Time the builds at once. Default one after the other: builds served from this
   * process (the fixture) would otherwise measure each other's work. */
  parallel?: boolean;
  classify?: (d: Divergence, build: string, rpc: string) => string | null;
  /** Told of each probe as it is timed. */
  onProgress?: (p: LatencyProgress) => void;
}

/** One probe timed: what a mode-progress event of the latency mode carries. */
export interface LatencyProgress {
  build: string;
  rpc: string;
  control: boolean;
  /** Probes timed so far, of total (every rpc and the control, on every build). */
  done: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export interface RpcTiming {
  build: string;
  rpc: string;
  request: JsonValue;
  stats: LatencyStats;
  /** Counts per bucket of stats.ts BUCKET_EDGES. */
  histogram: number[];
  /** Share of timed calls 35–45 ms above the baseline (above 0 when there is none). */
  plateauShare: number;
  /** The baseline's p50 and what it is (plateau.ts), when there is one. */
  baselineMs: number | null;
  baselineOf: string | null;
  warmupMs: number[];
  errors: number;
  statuses: Record<string, number>;
  answerBytes: number;
  /** Every timed sample, ms, in call order. */
  samples: number[];
  /** Per timed sample, ms from the answer's first byte to its end: what a transport held back. */
  holds: number[];
}

export interface LatencyResult {
  timings: RpcTiming[];
  controls: RpcTiming[];
  divergences: ClassifiedDivergence[];
}

function timing(build: string, spec: ProbeSpec, t: Awaited<ReturnType<typeof timeCalls>>): RpcTiming {
  return {
    build,
    rpc: spec.rpc.name,
    request: spec.requestJson,
    stats: statsOf(t.samples),
    histogram: histogram(t.samples),
    plateauShare: plateauShare(t.samples),
    baselineMs: null,
    baselineOf: null,
    warmupMs: t.warmupMs,
    errors: t.errors,
    statuses: t.statuses,
    answerBytes: t.answerBytes,
    samples: t.samples,
    holds: t.holds,
  };
}

export async function runLatency(o: LatencyOptions): Promise<LatencyResult> {
  const total = o.builds.length * (o.probes.length + (o.control ? 1 : 0));
  let done = 0;
  const told = (t: RpcTiming, control: boolean): RpcTiming => {
    o.onProgress?.({ build: t.build, rpc: t.rpc, control, done: ++done, total, p50Ms: t.stats.p50, p99Ms: t.stats.p99, errors: t.errors });
    return t;
  };
  const probeBuild = async (b: LatencyBuild) => {
    const timings: RpcTiming[] = [];
    for (const spec of o.probes) timings.push(told(timing(b.name, spec, await timeCalls(b.target, spec, o.calls, o.warmup)), false));
    const control = o.control
      ? told(timing(b.name, o.control, await timeCalls(b.target, o.control, Math.min(o.calls, 50), Math.min(o.warmup, 2))), true)
      : undefined;
    return { timings, control };
  };
  const perBuild: Awaited<ReturnType<typeof probeBuild>>[] = [];
  if (o.parallel) perBuild.push(...(await Promise.all(o.builds.map(probeBuild))));
  else for (const b of o.builds) perBuild.push(await probeBuild(b));
  const timings = perBuild.flatMap((p) => p.timings);
  const controls = perBuild.flatMap((p) => (p.control ? [p.control] : []));
  const asTimed = (t: RpcTiming): TimedRpc => ({ build: t.build, rpc: t.rpc, samples: t.samples, holds: t.holds, stats: t.stats, errors: t.errors });
  const divergences: ClassifiedDivergence[] = [];
  for (const t of timings) {
    const ref = o.reference ? timings.find((r) => r.build === o.reference && r.rpc === t.rpc) : undefined;
    const c = controls.find((x) => x.build === t.build);
    const control: Control | undefined = c
      ? {
          build: c.build,
          stats: c.stats,
          p10: percentile(
            [...c.samples].sort((a, b) => a - b),
            10,
          ),
          answerBytes: c.answerBytes,
          ok: c.errors === 0,
        }
      : undefined;
    const base = baseline(asTimed(t), ref ? asTimed(ref) : undefined, control);
    if (base) Object.assign(t, { baselineMs: base.floorMs, baselineOf: `p10 of ${base.what}`, plateauShare: plateauShare(t.samples, base.floorMs) });
    const d = detectPlateau(asTimed(t), ref ? asTimed(ref) : undefined, control);
    if (!d) continue;
    divergences.push({
      ...d,
      caseId: `latency.${t.rpc}`,
      method: t.rpc,
      transport: "grpc",
      build: t.build,
      quirk: o.classify ? o.classify(d, t.build, t.rpc) : null,
    });
  }
  return { timings, controls, divergences };
}
