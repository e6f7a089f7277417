// How serve-bench's reports show the tip-following phase: rows of the terminal table
// (blocks served, p50, p99 and max per build), the lines that say what the figures are
// or why there are none, and the page's chart — each build's times as a histogram on one
// log axis, as the scenario page draws them.

import { binCounts, formatMs, histogramRows, logEdges } from "../../core/report/svg-charts.js";
import type { TipFollowing } from "./tip-following.js";

/** The phase as the report keeps it, with the timing the emulated builds followed in. */
export type TipFollowingEntry = TipFollowing & {
  /** The emulated profiles' timings × this (1: real time, comparable with real servers); null: no emulated build. */
  timingScale: number | null;
};

const ms = (v: number | null) => (v === null ? "-" : v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString("en-US"));

/** Table rows, a column per name; none when the phase mined nothing. */
export function tipRows(t: TipFollowingEntry | null, names: readonly string[]): string[][] {
  if (!t || t.mined.length === 0) return [];
  const of = (f: (b: TipFollowing["builds"][number]) => string) =>
    names.map((n) => {
      const b = t.builds.find((x) => x.build === n);
      return b ? f(b) : "-";
    });
  return [
    [`tip following: blocks served, of ${t.mined.length} mined one per ${t.everyMs.toLocaleString("en-US")} ms`, ...of((b) => `${b.served}/${b.events}`)],
    ["tip following: p50, ms", ...of((b) => ms(b.p50Ms))],
    ["tip following: p99, ms", ...of((b) => ms(b.p99Ms))],
    ["tip following: max, ms", ...of((b) => ms(b.maxMs))],
  ];
}

/** What the figures are, or why there are none. */
export function tipLines(t: TipFollowingEntry | null): string[] {
  if (!t) return [];
  if (t.skipped !== null) return [`tip following skipped: ${t.skipped}`];
  const out = [
    `tip following: ms from the node answering generate for a block to each build's GetLatestBlock naming it or a later one (asked every ${t.probeMs} ms while it lags); ` +
      `each block at a random point of its ${t.everyMs} ms interval, so that the blocks meet the builds' polls at every phase`,
  ];
  if (t.timingScale !== null)
    out.push(
      t.timingScale === 1
        ? "emulated profiles followed the chain in real time (timing scale 1): their figures compare with real servers'"
        : `emulated profiles followed the chain with their timings × ${t.timingScale}: not comparable with real servers'`,
    );
  if (t.error !== null) out.push(`tip following stopped: ${t.error}`);
  return out;
}

/** Each build's time to serve every mined block, as histograms on one log axis; "" when no build served one. */
export function tipChart(t: TipFollowingEntry | null): string {
  if (!t) return "";
  const per = t.builds.map((b) => ({ b, served: b.ms.flatMap((v) => (v === null ? [] : [Math.max(1, v)])) })).filter((x) => x.served.length > 0);
  if (per.length === 0) return "";
  const all = per.flatMap((x) => x.served);
  const edges = logEdges(Math.min(...all), Math.max(...all) * 1.01);
  const fmt = (v: number | null) => (v === null ? "–" : formatMs(v));
  return histogramRows({
    id: "bench-tip-following",
    title: `Time to serve each new block as the latest (${t.mined.length} blocks, one per ${t.everyMs} ms)`,
    edges,
    axisLabel: "ms from the node accepting a block",
    plotWidth: 360,
    rows: per.map(({ b, served }) => ({
      label: b.build,
      counts: binCounts(served, edges),
      note: `${b.served}/${b.events} · p50 ${fmt(b.p50Ms)} · p99 ${fmt(b.p99Ms)}`,
    })),
    table: {
      head: ["build", "served", "p50", "p99", "max"],
      rows: per.map(({ b }) => [b.build, `${b.served}/${b.events}`, fmt(b.p50Ms), fmt(b.p99Ms), fmt(b.maxMs)]),
    },
  });
}
