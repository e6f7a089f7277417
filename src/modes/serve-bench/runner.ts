// Running the scenarios: every build, one after the other (builds served by this
// process, the fixture's, would otherwise measure each other), each scenario `runs`
// times, rounds interleaved (run 1 of every scenario on every build, then run 2, …) so
// that a machine getting busier mid-bench does not land on one build alone. Each client
// has its own connection, opened with one untimed GetLatestBlock before the clock
// starts; the clients then start together and the run's wall time ends with the last.
// The client's CPU time (process.cpuUsage) is taken around every run, and the server's
// (/proc/<pid>/stat) when zconform started it.

import { create } from "@bufbuild/protobuf";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import type { GrpcEndpoint } from "../../core/targets/endpoint.js";
import { grpcCodeName } from "../../core/targets/grpc-status.js";
import { BlockIDSchema, BlockRangeSchema, ChainSpecSchema, CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { timeCalls } from "../latency/probe.js";
import { percentile } from "../latency/stats.js";
import { blockCount, blockHeight, type BlockScenario, type LatencyScenario, type RangeScenario, type Scenario } from "./scenarios.js";
import { processCpuMs } from "./server-usage.js";

export interface BenchBuild {
  name: string;
  grpc: GrpcEndpoint;
  deadlineMs: number;
  maxMessageBytes: number;
  /** The server's process when zconform started it: its CPU time is read per run. */
  pid?: number;
}

export interface RunFigures {
  wallMs: number;
  /** Blocks received in full (range and block scenarios). */
  blocks: number;
  /** Calls finished, whatever their status. */
  calls: number;
  /** Calls that failed, or ended OK with fewer blocks than asked for. */
  failed: number;
  bytes: number;
  clientCpuMs: number;
  serverCpuMs: number | null;
  /** Status name → calls; "OK" for the ones that answered in full. */
  statuses: Record<string, number>;
  /** Latency scenarios: per-call milliseconds of this run. */
  latencyMs?: { p50: number; p90: number; p99: number; max: number };
}

export interface ScenarioRuns {
  scenario: string;
  build: string;
  runs: RunFigures[];
}

export interface BenchOptions {
  builds: readonly BenchBuild[];
  scenarios: readonly Scenario[];
  runs: number;
  signal?: AbortSignal;
  /** Called after each run, for progress lines. */
  onRun?: (scenario: Scenario, build: string, run: number, figures: RunFigures) => void;
}

/**
 * A range call's deadline grows with the work all clients ask of the server at once: the
 * build's own deadline plus 2 ms per block per client (an aggregate floor of 500
 * blocks/s), so a slow server is measured rather than cut off.
 */
export function rangeDeadlineMs(build: BenchBuild, s: RangeScenario): number {
  return build.deadlineMs + blockCount(s.range) * s.clients * 2;
}

interface Tally {
  blocks: number;
  calls: number;
  failed: number;
  bytes: number;
  statuses: Record<string, number>;
}

function count(t: Tally, status: string, ok: boolean): void {
  t.calls++;
  if (!ok) t.failed++;
  t.statuses[status] = (t.statuses[status] ?? 0) + 1;
}

async function rangeClient(target: GrpcTarget, build: BenchBuild, s: RangeScenario, t: Tally): Promise<void> {
  const expected = blockCount(s.range);
  const request = create(BlockRangeSchema, { start: { height: BigInt(s.range.from) }, end: { height: BigInt(s.range.to) } });
  const obs = await target.call(CompactTxStreamer.method.getBlockRange, request, {
    deadlineMs: rangeDeadlineMs(build, s),
    maxMessageBytes: build.maxMessageBytes,
    maxMessages: expected,
    onMessage: (bytes) => {
      t.bytes += bytes.length;
    },
  });
  t.blocks += obs.messageCount;
  if (obs.code !== 0) count(t, obs.fault ? `${grpcCodeName(obs.code)} (${obs.fault.kind})` : grpcCodeName(obs.code), false);
  else if (obs.messageCount !== expected) count(t, `OK with ${obs.messageCount} of ${expected} blocks`, false);
  else count(t, "OK", true);
}

async function blockClient(target: GrpcTarget, build: BenchBuild, s: BlockScenario, client: number, t: Tally): Promise<void> {
  for (let call = 0; call < s.requestsPerClient; call++) {
    const request = create(BlockIDSchema, { height: BigInt(blockHeight(s, client, call)) });
    const obs = await target.call(CompactTxStreamer.method.getBlock, request, { deadlineMs: build.deadlineMs, maxMessageBytes: build.maxMessageBytes });
    const ok = obs.code === 0 && obs.messageCount === 1;
    if (ok) {
      t.blocks++;
      t.bytes += obs.messages[0]!.length;
    }
    count(
      t,
      ok
        ? "OK"
        : obs.fault
          ? `${grpcCodeName(obs.code)} (${obs.fault.kind})`
          : obs.code === 0
            ? `OK with ${obs.messageCount} messages`
            : grpcCodeName(obs.code),
      ok,
    );
  }
}

// The client's connection is already open (runOnce's untimed call), so no call here is a warm-up.
async function latencyRun(target: GrpcTarget, build: BenchBuild, s: LatencyScenario, t: Tally): Promise<NonNullable<RunFigures["latencyMs"]>> {
  const timed = await timeCalls(target, s.probe, s.calls, 0, build.deadlineMs);
  for (const [status, n] of Object.entries(timed.statuses)) for (let i = 0; i < n; i++) count(t, status, status === "OK");
  t.bytes += timed.answerBytes * (s.calls - timed.errors);
  const sorted = [...timed.samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

/** One run of one scenario on one build. */
export async function runOnce(build: BenchBuild, s: Scenario, signal?: AbortSignal): Promise<RunFigures> {
  const targets = Array.from({ length: s.clients }, () => grpcTarget(build.grpc));
  const abort = () => targets.forEach((x) => x.abort());
  signal?.addEventListener("abort", abort, { once: true });
  try {
    await Promise.all(targets.map((x) => x.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema), { deadlineMs: build.deadlineMs })));
    const t: Tally = { blocks: 0, calls: 0, failed: 0, bytes: 0, statuses: {} };
    const server0 = processCpuMs(build.pid);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let latencyMs: RunFigures["latencyMs"];
    if (s.kind === "range") await Promise.all(targets.map((x) => rangeClient(x, build, s, t)));
    else if (s.kind === "block") await Promise.all(targets.map((x, i) => blockClient(x, build, s, i, t)));
    else latencyMs = await latencyRun(targets[0]!, build, s, t);
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const server1 = processCpuMs(build.pid);
    return {
      wallMs,
      blocks: t.blocks,
      calls: t.calls,
      failed: t.failed,
      bytes: t.bytes,
      clientCpuMs: (cpu.user + cpu.system) / 1000,
      serverCpuMs: server0 !== null && server1 !== null ? server1 - server0 : null,
      statuses: t.statuses,
      ...(latencyMs ? { latencyMs } : {}),
    };
  } finally {
    signal?.removeEventListener("abort", abort);
    await Promise.all(targets.map((x) => x.close()));
  }
}

/** Every scenario `runs` times on every build; rounds interleaved. Stops early (partial) on abort. */
export async function runBench(o: BenchOptions): Promise<{ results: ScenarioRuns[]; partial: boolean }> {
  const results: ScenarioRuns[] = o.scenarios.flatMap((s) => o.builds.map((b) => ({ scenario: s.id, build: b.name, runs: [] as RunFigures[] })));
  for (let run = 0; run < o.runs; run++) {
    for (const s of o.scenarios) {
      for (const b of o.builds) {
        if (o.signal?.aborted) return { results, partial: true };
        const figures = await runOnce(b, s, o.signal);
        if (o.signal?.aborted) return { results, partial: true };
        results.find((r) => r.scenario === s.id && r.build === b.name)!.runs.push(figures);
        o.onRun?.(s, b.name, run + 1, figures);
      }
    }
  }
  return { results, partial: false };
}

/** Why a build cannot be benchmarked (no OK answer to GetLatestBlock), or undefined when it can. */
export async function unreachable(build: BenchBuild): Promise<string | undefined> {
  const target = grpcTarget(build.grpc);
  try {
    const obs = await target.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema), { deadlineMs: build.deadlineMs });
    if (obs.code === 0) return undefined;
    return `GetLatestBlock answered ${grpcCodeName(obs.code)}${obs.message ? `: ${obs.message}` : ""}`;
  } finally {
    await target.close();
  }
}
