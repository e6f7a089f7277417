// The latency report: JSON (`zconform latency --json FILE`, "kind": "latency" in the
// modes' envelope, schemas/latency.schema.json), the
// terminal table — per rpc, one row per build with p50/p90/p99/max, the first warm-up
// call, the share in the 35–45 ms band and a one-character-per-bucket histogram — the
// HTML page (`--html FILE`: per rpc, each build's calls as a histogram on a log time axis
// with the ~40 ms plateau band marked), and the line per probe its progress events print
// while it runs.

import type { BuildInfo, ModeEvent, Reporter } from "../../core/results/events.js";
import { envelope, type Envelope } from "../../core/results/envelope.js";
import type { ClassifiedDivergence } from "../../core/results/result.js";
import type { LatencyProgress, LatencyResult, RpcTiming } from "./latency.js";
import { BUCKET_EDGES, bucketLabels, sparkline } from "./stats.js";
import { modePage } from "../../core/report/html-mode.js";
import { esc } from "../../core/report/html-render.js";
import { binCounts, formatMs, histogramRows, logEdges, type HistogramRow } from "../../core/report/svg-charts.js";
import { PLATEAU_HIGH_MS, PLATEAU_LOW_MS } from "./plateau.js";

export const LATENCY_REPORT_VERSION = 1;

export interface LatencyReport extends Envelope<"latency"> {
  reference: string | null;
  calls: number;
  warmup: number;
  /** Upper edges (ms) of the histogram buckets; a last bucket holds the rest. */
  bucketEdges: number[];
  timings: RpcTiming[];
  controls: RpcTiming[];
  skipped: { rpc: string; reason: string }[];
  divergences: ClassifiedDivergence[];
  summary: { divergences: number; newDivergences: number; known: number; durationMs: number };
}

export interface LatencyReportContext {
  startedAt: Date;
  chain: string;
  builds: BuildInfo[];
  reference?: string;
  calls: number;
  warmup: number;
  skipped: { rpc: string; reason: string }[];
}

export function latencyReport(r: LatencyResult, c: LatencyReportContext): LatencyReport {
  const fresh = r.divergences.filter((d) => d.quirk === null).length;
  return {
    ...envelope("latency", LATENCY_REPORT_VERSION, c, fresh > 0 ? 1 : 0),
    reference: c.reference ?? null,
    calls: c.calls,
    warmup: c.warmup,
    bucketEdges: [...BUCKET_EDGES],
    timings: r.timings,
    controls: r.controls,
    skipped: c.skipped,
    divergences: r.divergences,
    summary: { divergences: r.divergences.length, newDivergences: fresh, known: r.divergences.length - fresh, durationMs: Date.now() - c.startedAt.getTime() },
  };
}

const ms = (v: number) => (Number.isNaN(v) ? "-" : v < 10 ? v.toFixed(2) : v.toFixed(1));

function rows(ts: readonly RpcTiming[]): string[] {
  const width = Math.max(5, ...ts.map((t) => t.build.length));
  const head = `  ${"build".padEnd(width)}  ${"calls".padStart(5)}  ${"p50".padStart(6)}  ${"p90".padStart(6)}  ${"p99".padStart(6)}  ${"max".padStart(6)}  ${"first".padStart(6)}  +35-45  histogram`;
  return [
    head,
    ...ts.map(
      (t) =>
        `  ${t.build.padEnd(width)}  ${String(t.stats.count).padStart(5)}  ${ms(t.stats.p50).padStart(6)}  ${ms(t.stats.p90).padStart(6)}  ` +
        `${ms(t.stats.p99).padStart(6)}  ${ms(t.stats.max).padStart(6)}  ${ms(t.warmupMs[0] ?? NaN).padStart(6)}  ${`${Math.round(100 * t.plateauShare)}%`.padStart(6)}  ` +
        `${sparkline(t.histogram)}${
          t.errors > 0
            ? `  (${t.errors} failed: ${Object.keys(t.statuses)
                .filter((s) => s !== "OK")
                .join(", ")})`
            : ""
        }`,
    ),
  ];
}

export function latencyLines(r: LatencyReport): string[] {
  const out: string[] = [];
  out.push(
    `Latency of small unary rpcs on ${r.chain}: ${r.calls} timed calls per rpc and build after ${r.warmup} warm-up call(s), one at a time; milliseconds`,
  );
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  out.push(`histogram buckets (ms): ${bucketLabels().join(" ")}; +35-45: share of calls 35-45 ms slower than the baseline`);
  for (const rpc of [...new Set(r.timings.map((t) => t.rpc))]) {
    out.push("", rpc, ...rows(r.timings.filter((t) => t.rpc === rpc)));
  }
  if (r.controls.length > 0)
    out.push("", `Control: large answers (${r.controls[0]!.rpc}, ${r.controls.map((c) => c.answerBytes)[0]} bytes)`, ...rows(r.controls));
  for (const s of r.skipped) out.push(`skipped ${s.rpc}: ${s.reason}`);
  out.push("");
  if (r.divergences.length === 0) out.push("No latency plateau found.");
  else {
    out.push(`Latency divergences: ${r.divergences.length} (${r.summary.known} known, ${r.summary.newDivergences} new)`);
    for (const d of r.divergences) out.push(`  ${d.build} ${d.method} ${d.path}: ${d.detail}${d.quirk ? `  (known: ${d.quirk})` : "  NEW"}`);
  }
  return out;
}

/** A figure of one rpc (or the control): a histogram per build on the report's shared axis, the plateau band above each build's baseline. */
function timingFigure(id: string, title: string, ts: readonly RpcTiming[], edges: number[], divergences: readonly ClassifiedDivergence[]): string {
  const rows = ts.map((t): HistogramRow => {
    const d = divergences.find((x) => x.build === t.build && x.method === t.rpc);
    const base = t.baselineMs ?? 0;
    return {
      label: t.build,
      counts: binCounts(t.samples, edges),
      note: `${d ? `⚠ plateau (${d.quirk ? "known" : "NEW"}) · ` : ""}p50 ${formatMs(t.stats.p50)} · ${Math.round(100 * t.plateauShare)}% on the band${t.errors > 0 ? ` · ${t.errors} failed` : ""}`,
      band: {
        from: base + PLATEAU_LOW_MS,
        to: base + PLATEAU_HIGH_MS,
        label: `~40 ms plateau (${PLATEAU_LOW_MS}–${PLATEAU_HIGH_MS} ms above ${t.baselineOf ?? "zero: no baseline"})`,
      },
    };
  });
  return histogramRows({
    id,
    title,
    edges,
    rows,
    axisLabel: "time per call, ms (log scale)",
    plotWidth: 480,
    table: {
      head: ["build", "calls", "p50", "p90", "p99", "max", "first warm-up", "baseline", "on the band", "failed"],
      rows: ts.map((t) => [
        t.build,
        t.stats.count,
        ms(t.stats.p50),
        ms(t.stats.p90),
        ms(t.stats.p99),
        ms(t.stats.max),
        ms(t.warmupMs[0] ?? NaN),
        t.baselineMs === null ? "none" : `${ms(t.baselineMs)} (${t.baselineOf})`,
        `${Math.round(100 * t.plateauShare)}%`,
        t.errors,
      ]),
    },
  });
}

/** The HTML page of a latency report: a histogram figure per rpc and for the control, then the divergences and the terminal table. */
export function latencyHtml(r: LatencyReport): string {
  const all = [...r.timings, ...r.controls].flatMap((t) => t.samples).filter((v) => v > 0);
  const edges = logEdges(Math.max(0.01, Math.min(...all, 1)), Math.max(100, ...all), 8);
  const rpcs = [...new Set(r.timings.map((t) => t.rpc))];
  const figures = rpcs.map((rpc, i) =>
    timingFigure(
      `latency-${i}`,
      rpc,
      r.timings.filter((t) => t.rpc === rpc),
      edges,
      r.divergences,
    ),
  );
  if (r.controls.length > 0)
    figures.push(timingFigure("latency-control", `Control: ${r.controls[0]!.rpc}, ${r.controls[0]!.answerBytes}-byte answers`, r.controls, edges, []));
  const found =
    r.divergences.length === 0
      ? `<p class="note">No latency plateau found.</p>`
      : `<ul>${r.divergences.map((d) => `<li>${esc(`${d.build} ${d.method}: ${d.detail}`)} <b>${esc(d.quirk ? `known: ${d.quirk}` : "NEW")}</b></li>`).join("")}</ul>`;
  return modePage(r, {
    title: "latency of small unary rpcs",
    facts: [`${r.calls} timed calls per rpc and build after ${r.warmup} warm-up call(s), one at a time`, `baseline build ${r.reference ?? "none"}`],
    body: `<p class="note">Shaded on each row: the ~40 ms plateau, ${PLATEAU_LOW_MS}–${PLATEAU_HIGH_MS} ms above that build's baseline — where a server without TCP_NODELAY holds its answers until the client's delayed ACK. A row that says ⚠ plateau is a latency divergence, known to the ledger or new.</p>
<div class="charts">${figures.join("")}</div>
<h2>Latency divergences</h2>
${found}
<h2>As the terminal shows it</h2>
<pre>${esc(latencyLines(r).join("\n"))}</pre>`,
  });
}

/** The latency mode's progress on stderr: a line per probe as it is timed. */
export function latencyProgressReporter(write: (line: string) => void): Reporter<ModeEvent<LatencyReport, LatencyProgress>> {
  return {
    onEvent: (e) => {
      if (e.type !== "mode-progress") return;
      const p = e.progress;
      write(
        `latency ${p.done}/${p.total}: ${p.build} ${p.rpc}${p.control ? " (control)" : ""} p50 ${p.p50Ms.toFixed(2)} ms, p99 ${p.p99Ms.toFixed(2)} ms${p.errors > 0 ? `, ${p.errors} errors` : ""}`,
      );
    },
    finish: async () => {},
  };
}
