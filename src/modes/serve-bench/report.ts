// The serve-bench report: JSON (`zconform serve-bench --json FILE`, "kind": "serve-bench"
// in the modes' envelope, schemas/serve-bench.schema.json) and the terminal table shaped
// like the published comparison's — one row per scenario, one column per build, each cell
// the median of the runs with its spread — followed by what starting each server cost.

import type { BuildInfo } from "../../core/results/events.js";
import { envelope, type Envelope } from "../../core/results/envelope.js";
import type { RunFigures, ScenarioRuns } from "./runner.js";
import { blockCount, type HeightRange, type Scenario } from "./scenarios.js";
import { CPU_TICK_MS, type StartupFacts } from "./server-usage.js";
import { coreShare, perSecond, spreadOf, type Spread } from "./stats.js";

export const SERVE_BENCH_REPORT_VERSION = 1;

export interface ScenarioInfo {
  id: string;
  label: string;
  kind: Scenario["kind"];
  rpc: string;
  clients: number;
  /** Range and block scenarios: the heights asked. */
  range: HeightRange | null;
  /** Blocks one client asks for in one run (range: the whole range; block: its requests). */
  blocksPerClient: number | null;
  /** Latency scenarios: timed calls per run. */
  calls: number | null;
}

export interface ScenarioSummary extends ScenarioRuns {
  wallMs: Spread;
  /** Range and block scenarios. */
  blocksPerSecond: Spread | null;
  requestsPerSecond: Spread;
  clientCpuMs: Spread;
  /** The most of one core the client used in any run (CPU ms / wall ms). */
  clientCoreShareMax: number;
  serverCpuMs: Spread | null;
  /** Latency scenarios: the median over runs of each run's median call. */
  latencyP50Ms: Spread | null;
  failedCalls: number;
}

export interface ServerTotals {
  build: string;
  /** CPU the server used from its start to the end of the bench. */
  cpuMs: number | null;
  indexBytes: number | null;
}

/** Where the figures were measured: they mean little without it. */
export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  /** 1-minute load average at the start and at the end: other work on the machine skews every figure. */
  loadAverage: { start: number; end: number };
}

export interface ServeBenchReport extends Envelope<"serve-bench"> {
  partial: boolean;
  machine: Machine;
  runs: number;
  clients: number[];
  range: HeightRange;
  download: HeightRange;
  scenarios: ScenarioInfo[];
  startup: StartupFacts[];
  serverTotals: ServerTotals[];
  results: ScenarioSummary[];
  unreachable: { build: string; reason: string }[];
  skipped: { scenario: string; reason: string }[];
  summary: { durationMs: number; failedCalls: number };
}

export interface ServeBenchContext {
  startedAt: Date;
  machine: Machine;
  chain: string;
  builds: BuildInfo[];
  runs: number;
  clients: number[];
  range: HeightRange;
  download: HeightRange;
  scenarios: readonly Scenario[];
  startup: StartupFacts[];
  serverTotals: ServerTotals[];
  unreachable: { build: string; reason: string }[];
  skipped: { scenario: string; reason: string }[];
  partial: boolean;
  /** Set by the command when a signal cut the bench short (130, 143). */
  interruptedExitCode?: number;
}

export function scenarioInfo(s: Scenario): ScenarioInfo {
  const range = s.kind === "latency" ? null : s.range;
  return {
    id: s.id, label: s.label, kind: s.kind, clients: s.clients, range,
    rpc: s.kind === "range" ? "GetBlockRange" : s.kind === "block" ? "GetBlock" : s.probe.rpc.name,
    blocksPerClient: s.kind === "range" ? blockCount(s.range) : s.kind === "block" ? s.requestsPerClient : null,
    calls: s.kind === "latency" ? s.calls : null,
  };
}

export function summarizeRuns(r: ScenarioRuns, kind: Scenario["kind"]): ScenarioSummary {
  const of = (f: (x: RunFigures) => number) => spreadOf(r.runs.map(f));
  const server = r.runs.every((x) => x.serverCpuMs !== null) && r.runs.length > 0 ? of((x) => x.serverCpuMs!) : null;
  return {
    ...r,
    wallMs: of((x) => x.wallMs),
    blocksPerSecond: kind === "latency" ? null : of((x) => perSecond(x.blocks, x.wallMs)),
    requestsPerSecond: of((x) => perSecond(x.calls, x.wallMs)),
    clientCpuMs: of((x) => x.clientCpuMs),
    clientCoreShareMax: Math.max(0, ...r.runs.map((x) => coreShare(x.clientCpuMs, x.wallMs))),
    serverCpuMs: server,
    latencyP50Ms: kind === "latency" ? of((x) => x.latencyMs?.p50 ?? NaN) : null,
    failedCalls: r.runs.reduce((a, x) => a + x.failed, 0),
  };
}

export function serveBenchReport(results: readonly ScenarioRuns[], c: ServeBenchContext): ServeBenchReport {
  const kinds = new Map(c.scenarios.map((s) => [s.id, s.kind]));
  const summaries = results.map((r) => summarizeRuns(r, kinds.get(r.scenario)!));
  const failedCalls = summaries.reduce((a, s) => a + s.failedCalls, 0);
  const exitCode = c.interruptedExitCode ?? (failedCalls > 0 || c.unreachable.length > 0 ? 3 : 0);
  return {
    ...envelope("serve-bench", SERVE_BENCH_REPORT_VERSION, c, exitCode),
    partial: c.partial, machine: c.machine, runs: c.runs, clients: c.clients, range: c.range, download: c.download,
    scenarios: c.scenarios.map(scenarioInfo), startup: c.startup, serverTotals: c.serverTotals, results: summaries,
    unreachable: c.unreachable, skipped: c.skipped,
    summary: { durationMs: Date.now() - c.startedAt.getTime(), failedCalls },
  };
}

const whole = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en-US") : "-");
const short = (v: number) => (!Number.isFinite(v) ? "-" : v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : whole(v));
const seconds = (ms: number | null) => (ms === null ? "-" : (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));
const size = (b: number | null) => (b === null ? "-" : b < 1024 * 1024 ? `${(b / 1024).toFixed(1)} KiB` : `${(b / 1024 / 1024).toFixed(1)} MiB`);
const spreadText = (s: Spread) => (Number.isFinite(s.relative) && s.relative > 0 ? ` ~${Math.round(100 * s.relative)}%` : "");

function cell(s: ScenarioSummary | undefined): string {
  if (!s || s.runs.length === 0) return "-";
  const failed = s.failedCalls > 0 ? ` (${s.failedCalls} failed)` : "";
  if (s.latencyP50Ms) return `${short(s.latencyP50Ms.median)}${spreadText(s.latencyP50Ms)}${failed}`;
  const rate = s.blocksPerSecond ?? s.requestsPerSecond;
  return `${whole(rate.median)}${spreadText(rate)}${failed}`;
}

function unit(s: ScenarioInfo): string {
  return s.kind === "latency" ? "p50 ms" : s.kind === "block" ? "blocks/s (= requests/s)" : "blocks/s";
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(3, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join(" | ")} |`;
  return [line(rows[0]!), `|${widths.map((w, i) => (i === 0 ? `${"-".repeat(w + 1)}|` : `${"-".repeat(w + 1)}:|`)).join("")}`, ...rows.slice(1).map(line)];
}

export function serveBenchLines(r: ServeBenchReport): string[] {
  const names = r.builds.map((b) => b.name).filter((n) => !r.unreachable.some((u) => u.build === n));
  const kinds = new Map(r.scenarios.map((s) => [s.id, s.kind]));
  const out: string[] = [];
  out.push(`Serving benchmark on ${r.chain}: median of ${r.runs} run(s) per cell; ~N%: (highest − lowest) / median over the runs${r.partial ? " — PARTIAL (interrupted)" : ""}`);
  const m = r.machine;
  out.push(`machine: ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${m.loadAverage.start.toFixed(1)} at the start, ${m.loadAverage.end.toFixed(1)} at the end`);
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  const rows: string[][] = [["scenario", ...names]];
  const facts = (f: (s: StartupFacts) => string) => names.map((n) => {
    const s = r.startup.find((x) => x.build === n);
    return s ? f(s) : "-";
  });
  if (r.startup.length > 0) {
    rows.push(["start: first answer, s", ...facts((s) => seconds(s.firstAnswerMs))]);
    rows.push(["start: index at the tip, s", ...facts((s) => seconds(s.tipMs))]);
    rows.push(["start: server CPU to the tip, s", ...facts((s) => seconds(s.cpuMsAtTip))]);
    rows.push(["start: index size on disk", ...facts((s) => size(s.indexBytes))]);
  }
  for (const s of r.scenarios) {
    rows.push([`${s.label}, ${unit(s)}`, ...names.map((n) => cell(r.results.find((x) => x.scenario === s.id && x.build === n)))]);
  }
  rows.push(["client CPU / wall time, all runs (1 = one core busy)", ...names.map((n) => {
    const runs = r.results.filter((x) => x.build === n).flatMap((x) => x.runs);
    return runs.length > 0 ? coreShare(runs.reduce((a, x) => a + x.clientCpuMs, 0), runs.reduce((a, x) => a + x.wallMs, 0)).toFixed(2) : "-";
  })]);
  // Summed over every range run: one run's CPU time is a few /proc ticks of 10 ms at most on a short chain.
  const streamed = (n: string) => r.results.filter((x) => x.build === n && x.serverCpuMs !== null && kinds.get(x.scenario) === "range").flatMap((x) => x.runs);
  if (names.some((n) => streamed(n).length > 0)) {
    rows.push(["server CPU per 1,000 blocks streamed (all range runs), ms", ...names.map((n) => {
      const runs = streamed(n);
      const blocks = runs.reduce((a, x) => a + x.blocks, 0);
      if (blocks === 0) return "-";
      const cpuMs = runs.reduce((a, x) => a + x.serverCpuMs!, 0);
      return cpuMs < CPU_TICK_MS ? `< ${short((CPU_TICK_MS * 1000) / blocks)}` : short((cpuMs * 1000) / blocks);
    })]);
  }
  if (r.serverTotals.length > 0) {
    rows.push(["server CPU, start to end of bench, s", ...names.map((n) => seconds(r.serverTotals.find((x) => x.build === n)?.cpuMs ?? null))]);
  }
  out.push("", ...table(rows));
  const noIndex = r.startup.filter((s) => s.indexBytes === null).map((s) => s.build);
  if (noIndex.length > 0) out.push(`index size "-": ${noIndex.join(", ")} wrote no data dir (an index kept in memory only)`);
  for (const u of r.unreachable) out.push(`not benchmarked: ${u.build}: ${u.reason}`);
  for (const s of r.skipped) out.push(`skipped ${s.scenario}: ${s.reason}`);
  if (r.summary.failedCalls > 0) out.push(`${r.summary.failedCalls} call(s) failed; their statuses are in the JSON report (results[].runs[].statuses)`);
  return out;
}
