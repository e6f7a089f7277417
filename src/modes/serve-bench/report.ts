// The serve-bench report: JSON (`zconform serve-bench --json FILE`, "kind": "serve-bench"
// in the modes' envelope, schemas/serve-bench.schema.json), the terminal table shaped
// like the published comparison's — one row per scenario, one column per build, each cell
// the median of the runs with its spread — followed by what starting each server cost and
// how fast each build served the blocks its node mined (tip-following-report.ts), and the
// HTML page (`--html FILE`): blocks/s against the number of clients per build, the wallet
// download and the small rpcs' latency as bars, tip following as histograms, then the table.

import type { BuildInfo } from "../../core/results/events.js";
import { envelope, type Envelope } from "../../core/results/envelope.js";
import type { RunFigures, ScenarioRuns } from "./runner.js";
import { blockCount, type HeightRange, type Scenario } from "./scenarios.js";
import { CPU_TICK_MS, type StartupFacts } from "./server-usage.js";
import { coreShare, perSecond, spreadOf, type Spread } from "./stats.js";
import { modePage } from "../../core/report/html-mode.js";
import { esc } from "../../core/report/html-render.js";
import { barChart, lineChart, PALETTE, type BarRow } from "../../core/report/svg-charts.js";
import type { TipFollowing } from "./tip-following.js";
import { tipChart, tipLines, tipRows, type TipFollowingEntry } from "./tip-following-report.js";

/** Changes whenever a field is added, changes meaning or goes away (2: tipFollowing). */
export const SERVE_BENCH_REPORT_VERSION = 2;

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
  /** CPU the server used from its start to the end of the serving scenarios (before tip following, whose probes would add to it). */
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
  /** The tip-following phase; null when turned off (`--tip-blocks 0`). */
  tipFollowing: TipFollowingEntry | null;
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
  tipFollowing: TipFollowing | null;
  /** The emulated profiles' timing scale on a moving fixture; null without one. */
  timingScale: number | null;
  partial: boolean;
  /** Set by the command when a signal cut the bench short (130, 143). */
  interruptedExitCode?: number;
}

export function scenarioInfo(s: Scenario): ScenarioInfo {
  const range = s.kind === "latency" ? null : s.range;
  return {
    id: s.id,
    label: s.label,
    kind: s.kind,
    clients: s.clients,
    range,
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
  // A node that stopped mining mid-phase is a call that failed; a node that cannot be moved at all is a skipped phase.
  const exitCode = c.interruptedExitCode ?? (failedCalls > 0 || c.unreachable.length > 0 || (c.tipFollowing?.error ?? null) !== null ? 3 : 0);
  return {
    ...envelope("serve-bench", SERVE_BENCH_REPORT_VERSION, c, exitCode),
    partial: c.partial,
    machine: c.machine,
    runs: c.runs,
    clients: c.clients,
    range: c.range,
    download: c.download,
    scenarios: c.scenarios.map(scenarioInfo),
    startup: c.startup,
    serverTotals: c.serverTotals,
    results: summaries,
    unreachable: c.unreachable,
    skipped: c.skipped,
    tipFollowing: c.tipFollowing && { ...c.tipFollowing, timingScale: c.timingScale },
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
  out.push(
    `Serving benchmark on ${r.chain}: median of ${r.runs} run(s) per cell; ~N%: (highest − lowest) / median over the runs${r.partial ? " — PARTIAL (interrupted)" : ""}`,
  );
  const m = r.machine;
  out.push(
    `machine: ${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${m.loadAverage.start.toFixed(1)} at the start, ${m.loadAverage.end.toFixed(1)} at the end`,
  );
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  const rows: string[][] = [["scenario", ...names]];
  const facts = (f: (s: StartupFacts) => string) =>
    names.map((n) => {
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
  rows.push([
    "client CPU / wall time, all runs (1 = one core busy)",
    ...names.map((n) => {
      const runs = r.results.filter((x) => x.build === n).flatMap((x) => x.runs);
      return runs.length > 0
        ? coreShare(
            runs.reduce((a, x) => a + x.clientCpuMs, 0),
            runs.reduce((a, x) => a + x.wallMs, 0),
          ).toFixed(2)
        : "-";
    }),
  ]);
  // Summed over every range run: one run's CPU time is a few /proc ticks of 10 ms at most on a short chain.
  const streamed = (n: string) => r.results.filter((x) => x.build === n && x.serverCpuMs !== null && kinds.get(x.scenario) === "range").flatMap((x) => x.runs);
  if (names.some((n) => streamed(n).length > 0)) {
    rows.push([
      "server CPU per 1,000 blocks streamed (all range runs), ms",
      ...names.map((n) => {
        const runs = streamed(n);
        const blocks = runs.reduce((a, x) => a + x.blocks, 0);
        if (blocks === 0) return "-";
        const cpuMs = runs.reduce((a, x) => a + x.serverCpuMs!, 0);
        return cpuMs < CPU_TICK_MS ? `< ${short((CPU_TICK_MS * 1000) / blocks)}` : short((cpuMs * 1000) / blocks);
      }),
    ]);
  }
  rows.push(...tipRows(r.tipFollowing, names));
  if (r.serverTotals.length > 0) {
    rows.push(["server CPU, start to end of the serving scenarios, s", ...names.map((n) => seconds(r.serverTotals.find((x) => x.build === n)?.cpuMs ?? null))]);
  }
  out.push("", ...table(rows));
  const noIndex = r.startup.filter((s) => s.indexBytes === null).map((s) => s.build);
  if (noIndex.length > 0) out.push(`index size "-": ${noIndex.join(", ")} wrote no data dir (an index kept in memory only)`);
  for (const u of r.unreachable) out.push(`not benchmarked: ${u.build}: ${u.reason}`);
  for (const s of r.skipped) out.push(`skipped ${s.scenario}: ${s.reason}`);
  out.push(...tipLines(r.tipFollowing));
  if (r.summary.failedCalls > 0) out.push(`${r.summary.failedCalls} call(s) failed; their statuses are in the JSON report (results[].runs[].statuses)`);
  return out;
}

/** Blocks/s against the number of clients, a line per build, for the scenarios of one kind. */
function clientsFigure(r: ServeBenchReport, names: readonly string[], kind: "range" | "block", id: string, title: string): string {
  const scenarios = r.scenarios.filter((s) => s.kind === kind && (kind === "block" || s.id.startsWith("range-1000.")));
  const series = names.map((n) => ({
    label: n,
    points: scenarios.flatMap((s) => {
      const rate = r.results.find((x) => x.scenario === s.id && x.build === n)?.blocksPerSecond;
      return rate ? [{ x: s.clients, y: rate.median, lo: rate.min, hi: rate.max }] : [];
    }),
  }));
  // A build with no point keeps its place, so that it keeps its colour and marker.
  if (series.every((x) => x.points.length === 0)) return "";
  return lineChart({
    id,
    title,
    xLabel: "concurrent clients (log scale)",
    yLabel: "blocks/s, all clients",
    series,
    table: {
      head: ["clients", ...series.map((x) => x.label)],
      rows: scenarios.map((s) => [
        s.clients,
        ...series.map((x) => {
          const p = x.points.find((q) => q.x === s.clients);
          return p ? `${whole(p.y)} (runs ${whole(p.lo)}–${whole(p.hi)})` : "–";
        }),
      ]),
    },
  });
}

/** One bar per build, the median run with the runs' spread; each build in its colour of the line charts. */
function scenarioBars(
  r: ServeBenchReport,
  names: readonly string[],
  scenario: string,
  pick: (s: ScenarioSummary) => Spread | null,
  unit: string,
  id: string,
  title: string,
): string {
  const rows: BarRow[] = names.flatMap((n, i) => {
    const s = r.results.find((x) => x.scenario === scenario && x.build === n);
    const v = s ? pick(s) : null;
    return v ? [{ label: n, value: v.median, lo: v.min, hi: v.max, color: PALETTE[i % PALETTE.length]! }] : [];
  });
  if (rows.length === 0) return "";
  return barChart({
    id,
    title,
    unit,
    rows,
    table: { head: ["", `${unit} (median run)`, "lowest run", "highest run"], rows: rows.map((b) => [b.label, short(b.value), short(b.lo!), short(b.hi!)]) },
  });
}

/** The HTML page of a serve-bench report. */
export function serveBenchHtml(r: ServeBenchReport): string {
  const names = r.builds.map((b) => b.name).filter((n) => !r.unreachable.some((u) => u.build === n));
  const latency = r.scenarios.filter((s) => s.kind === "latency");
  const figures = [
    clientsFigure(r, names, "range", "bench-range", `GetBlockRange ${r.range.from}..${r.range.to} (${blockCount(r.range)} blocks): blocks/s against clients`),
    clientsFigure(r, names, "block", "bench-block", "GetBlock single blocks: blocks/s against clients"),
    scenarioBars(
      r,
      names,
      "download.c1",
      (s) => s.blocksPerSecond,
      "blocks/s",
      "bench-download",
      `Wallet download ${r.download.from}..${r.download.to}, 1 client`,
    ),
    ...latency.map((s, i) => scenarioBars(r, names, s.id, (x) => x.latencyP50Ms, "p50 ms", `bench-latency-${i}`, `${s.rpc}, one call at a time: median call`)),
    tipChart(r.tipFollowing),
  ].filter((f) => f !== "");
  const m = r.machine;
  return modePage(r, {
    title: `serving benchmark${r.partial ? " (PARTIAL: interrupted)" : ""}`,
    facts: [
      `median of ${r.runs} run(s); bars and whiskers span the runs`,
      `${m.cpus} CPUs (${m.cpuModel}), Node ${m.node}, load average ${m.loadAverage.start.toFixed(1)} → ${m.loadAverage.end.toFixed(1)}`,
    ],
    body: `<div class="charts">${figures.join("")}</div>
<h2>As the terminal shows it</h2>
<pre>${esc(serveBenchLines(r).join("\n"))}</pre>`,
  });
}
