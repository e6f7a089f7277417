// The latency report: JSON (`zconform latency --json FILE`, "kind": "latency" in the
// modes' envelope, schemas/latency.schema.json) and the
// terminal table — per rpc, one row per build with p50/p90/p99/max, the first warm-up
// call, the share in the 35–45 ms band and a one-character-per-bucket histogram — and
// the line per probe its progress events print while it runs.

import type { BuildInfo, ModeEvent, Reporter } from "../../core/results/events.js";
import { envelope, type Envelope } from "../../core/results/envelope.js";
import type { ClassifiedDivergence } from "../../core/results/result.js";
import type { LatencyProgress, LatencyResult, RpcTiming } from "./latency.js";
import { BUCKET_EDGES, bucketLabels, sparkline } from "./stats.js";

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
  return [head, ...ts.map((t) => `  ${t.build.padEnd(width)}  ${String(t.stats.count).padStart(5)}  ${ms(t.stats.p50).padStart(6)}  ${ms(t.stats.p90).padStart(6)}  ` +
    `${ms(t.stats.p99).padStart(6)}  ${ms(t.stats.max).padStart(6)}  ${ms(t.warmupMs[0] ?? NaN).padStart(6)}  ${`${Math.round(100 * t.plateauShare)}%`.padStart(6)}  ` +
    `${sparkline(t.histogram)}${t.errors > 0 ? `  (${t.errors} failed: ${Object.keys(t.statuses).filter((s) => s !== "OK").join(", ")})` : ""}`)];
}

export function latencyLines(r: LatencyReport): string[] {
  const out: string[] = [];
  out.push(`Latency of small unary rpcs on ${r.chain}: ${r.calls} timed calls per rpc and build after ${r.warmup} warm-up call(s), one at a time; milliseconds`);
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  out.push(`histogram buckets (ms): ${bucketLabels().join(" ")}; +35-45: share of calls 35-45 ms slower than the baseline`);
  for (const rpc of [...new Set(r.timings.map((t) => t.rpc))]) {
    out.push("", rpc, ...rows(r.timings.filter((t) => t.rpc === rpc)));
  }
  if (r.controls.length > 0) out.push("", `Control: large answers (${r.controls[0]!.rpc}, ${r.controls.map((c) => c.answerBytes)[0]} bytes)`, ...rows(r.controls));
  for (const s of r.skipped) out.push(`skipped ${s.rpc}: ${s.reason}`);
  out.push("");
  if (r.divergences.length === 0) out.push("No latency plateau found.");
  else {
    out.push(`Latency divergences: ${r.divergences.length} (${r.summary.known} known, ${r.summary.newDivergences} new)`);
    for (const d of r.divergences) out.push(`  ${d.build} ${d.method} ${d.path}: ${d.detail}${d.quirk ? `  (known: ${d.quirk})` : "  NEW"}`);
  }
  return out;
}

/** The latency mode's progress on stderr: a line per probe as it is timed. */
export function latencyProgressReporter(write: (line: string) => void): Reporter<ModeEvent<LatencyReport, LatencyProgress>> {
  return {
    onEvent: (e) => {
      if (e.type !== "mode-progress") return;
      const p = e.progress;
      write(`latency ${p.done}/${p.total}: ${p.build} ${p.rpc}${p.control ? " (control)" : ""} p50 ${p.p50Ms.toFixed(2)} ms, p99 ${p.p99Ms.toFixed(2)} ms${p.errors > 0 ? `, ${p.errors} errors` : ""}`);
    },
    finish: async () => {},
  };
}
