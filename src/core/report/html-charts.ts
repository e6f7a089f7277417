// The HTML report's pictures, drawn from the report at write time: per build, how its
// cases came out (the matrix's statuses, summed), and how long its answers took — over
// all calls, and method by method as small multiples. They read without JavaScript.

import type { BuildInfo } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { caseStatus } from "./html-render.js";
import { binCounts, formatMs, histogramRows, logEdges, stackedBars, type StackSeries } from "./svg-charts.js";

/** The outcomes in the order the bars stack them, each with its colour and pattern. */
const OUTCOMES: readonly { status: string; series: StackSeries }[] = [
  { status: "ok", series: { label: "pass", color: "#0072b2", pattern: "solid" } },
  { status: "known", series: { label: "known", color: "#e69f00", pattern: "hatch" } },
  { status: "new", series: { label: "new", color: "#d55e00", pattern: "cross" } },
  { status: "unchecked", series: { label: "could not check", color: "#cc79a7", pattern: "dots" } },
  { status: "unjudged", series: { label: "unjudged", color: "#7f7f7f", pattern: "outline" } },
];

const rowLabel = (b: BuildInfo) => `${b.name}${b.emulated ? " (EMU)" : ""}`;

/** Per build, its cases by status: the same statuses the matrix and the case list show. */
function outcomeChart(builds: readonly BuildInfo[], cases: readonly CaseResult[]): string {
  const rows = builds.map((b) => {
    const statuses = cases.map((c) => caseStatus(c, b.name));
    return { label: rowLabel(b), values: OUTCOMES.map((o) => statuses.filter((s) => s === o.status).length) };
  });
  return stackedBars({ id: "chart-outcomes", title: "Outcomes per build", series: OUTCOMES.map((o) => o.series), rows, unit: "cases" });
}

function quantiles(samples: readonly number[]): { n: number; min: number; p50: number; p90: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  return { n: s.length, min: s[0] ?? NaN, p50: at(0.5), p90: at(0.9), max: s[s.length - 1] ?? NaN };
}

/** The bins every time chart of a report shares, so that they compare. */
function timeEdges(all: readonly number[]): number[] {
  const positive = all.filter((v) => v > 0);
  const lo = Math.max(0.01, Math.min(...positive, 1));
  return logEdges(lo, Math.max(lo * 10, ...positive), 4);
}

const AXIS = "answer time (whole call, ms)";

interface Times {
  /** Per build, every call's answer time. */
  perBuild: Map<string, number[]>;
  edges: number[];
}

function timesOf(builds: readonly BuildInfo[], cases: readonly CaseResult[]): Times {
  const perBuild = new Map(builds.map((b) => [b.name, [] as number[]]));
  for (const c of cases) {
    if (c.skipped) continue;
    for (const a of c.answers) perBuild.get(a.side)?.push(a.ms);
  }
  return { perBuild, edges: timeEdges([...perBuild.values()].flat()) };
}

/** Answer times per build over all calls. */
function answerTimeChart(builds: readonly BuildInfo[], t: Times): string {
  const served = builds.filter((b) => (t.perBuild.get(b.name) ?? []).length > 0).map((b) => ({ b, q: quantiles(t.perBuild.get(b.name)!) }));
  return histogramRows({
    id: "chart-times",
    title: "Answer times per build, all calls",
    edges: t.edges,
    axisLabel: AXIS,
    plotWidth: 340,
    rows: served.map(({ b, q }) => ({
      label: rowLabel(b),
      counts: binCounts(t.perBuild.get(b.name)!, t.edges),
      note: `n ${q.n} · p50 ${formatMs(q.p50)} · p90 ${formatMs(q.p90)}`,
    })),
    table: {
      head: ["build", "calls", "min", "p50", "p90", "max"],
      rows: served.map(({ b, q }) => [b.name, q.n, formatMs(q.min), formatMs(q.p50), formatMs(q.p90), formatMs(q.max)]),
    },
  });
}

/** Answer times method by method, one small chart each on the same axis. */
function answerTimesByMethod(builds: readonly BuildInfo[], cases: readonly CaseResult[], t: Times): string {
  const ran = cases.filter((c) => !c.skipped);
  const methods = [...new Set(ran.map((c) => `${c.transport} ${c.method}`))];
  const multiples = methods.map((m, i) => {
    const mine = ran.filter((c) => `${c.transport} ${c.method}` === m);
    const per = builds.map((b) => ({ b, ms: mine.flatMap((c) => c.answers.filter((a) => a.side === b.name).map((a) => a.ms)) })).filter((x) => x.ms.length > 0);
    return histogramRows({
      id: `chart-times-${i}`,
      title: m,
      edges: t.edges,
      axisLabel: "ms",
      plotWidth: 160,
      rowHeight: 14,
      rows: per.map(({ b, ms }) => ({ label: b.name, counts: binCounts(ms, t.edges), note: `p50 ${formatMs(quantiles(ms).p50)}` })),
      table: {
        head: ["build", "calls", "p50", "max"],
        rows: per.map(({ b, ms }) => {
          const q = quantiles(ms);
          return [b.name, q.n, formatMs(q.p50), formatMs(q.max)];
        }),
      },
    });
  });
  return `<details class="by-method"><summary>Answer times by method (${methods.length} methods, one chart each)</summary><div class="multiples">${multiples.join("")}</div></details>`;
}

/** The charts section of the page. */
export function renderCharts(builds: readonly BuildInfo[], cases: readonly CaseResult[]): string {
  if (builds.length === 0 || cases.length === 0) return "";
  const t = timesOf(builds, cases);
  return `<section class="charts" aria-label="charts">
<div class="chart-pair">${outcomeChart(builds, cases)}${answerTimeChart(builds, t)}</div>
${answerTimesByMethod(builds, cases, t)}
</section>`;
}
