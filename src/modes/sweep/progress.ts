// The sweep's progress, as a reporter of its mode-progress events. On a terminal: overall
// progress and ETA, and blocks/s and MB/s per source, redrawn in place as the events
// come (a few times a second). Elsewhere (a log file, CI): one line per finished chunk.
// A dozen lines of ANSI instead of a dependency: the display reads events, it never
// touches the sweep.

import type { ModeEvent, Reporter } from "../../core/results/events.js";
import type { SweepReport } from "./sweep-report.js";
import type { SweepProgress } from "./sweep.js";

const BAR = 24;

function fmtRate(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0);
}

const n = (v: number) => v.toLocaleString("en-US");

export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** The lines for one frame; rates are per second, smoothed by the caller. */
export function progressLines(p: SweepProgress, rates: readonly number[], mbRates: readonly number[], comparedRate: number): string[] {
  const share = p.total > 0 ? p.compared / p.total : 1;
  const filled = Math.round(share * BAR);
  const eta = comparedRate > 0 ? (p.total - p.compared) / comparedRate : Infinity;
  const width = Math.max(...p.sources.map((s) => s.name.length));
  return [
    `sweep [${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${(100 * share).toFixed(1)}%  ` +
      `${n(p.compared)}/${n(p.total)} heights  ETA ${fmtDuration(eta)}  ${n(p.divergences)} divergences (${n(p.newDivergences)} new)`,
    ...p.sources.map(
      (s, j) =>
        `  ${s.name.padEnd(width)}  ${fmtRate(rates[j] ?? 0).padStart(6)} blocks/s  ${(mbRates[j] ?? 0).toFixed(2).padStart(6)} MB/s  ${n(s.blocks)} blocks`,
    ),
  ];
}

/** The line for a chunk that ended, where the display is not redrawn in place. */
export function chunkLine(p: SweepProgress): string {
  const c = p.chunk!;
  const statuses = c.builds.map((b) => `${b.name} ${b.status}${b.resumedAfter ? " (resumed)" : ""}`).join(", ");
  return (
    `sweep: heights ${n(c.from)}..${n(c.to)} done, ${n(p.compared)}/${n(p.total)} compared, ` +
    `${n(p.divergentHeights)} divergent heights (${n(p.newDivergences)} new divergences) — ${statuses}${c.oracleError ? `; oracle: ${c.oracleError}` : ""}`
  );
}

export function sweepProgressReporter(tty: boolean, write: (text: string) => void): Reporter<ModeEvent<SweepReport, SweepProgress>> {
  let drawn = 0;
  let last: SweepProgress | undefined;
  let rates: number[] = [];
  let mb: number[] = [];
  let comparedRate = 0;
  // Exponential smoothing over ~2 s keeps the ETA from jumping at chunk boundaries.
  const smooth = (old: number, now: number, dt: number) => (old === 0 ? now : old + Math.min(1, dt / 2) * (now - old));
  const clear = () => {
    if (drawn > 0) write(`\x1b[${drawn}A` + "\r\x1b[2K\n".repeat(drawn) + `\x1b[${drawn}A`);
    drawn = 0;
  };
  const draw = (p: SweepProgress) => {
    const dt = last ? (p.elapsedMs - last.elapsedMs) / 1000 : 0;
    if (last && dt > 0) {
      const before = last;
      rates = p.sources.map((s, j) => smooth(rates[j] ?? 0, (s.blocks - before.sources[j]!.blocks) / dt, dt));
      mb = p.sources.map((s, j) => smooth(mb[j] ?? 0, (s.bytes - before.sources[j]!.bytes) / 1e6 / dt, dt));
      comparedRate = smooth(comparedRate, (p.compared - before.compared) / dt, dt);
    }
    last = p;
    const lines = progressLines(p, rates, mb, comparedRate);
    write((drawn > 0 ? `\x1b[${drawn}A` : "") + lines.map((l) => `\r\x1b[2K${l}`).join("\n") + "\n");
    drawn = lines.length;
  };
  return {
    onEvent: (e) => {
      if (e.type === "mode-progress") {
        if (tty) draw(e.progress);
        else if (e.progress.chunk) write(`${chunkLine(e.progress)}\n`);
      } else if (e.type === "mode-end" && tty) clear();
    },
    finish: async () => {
      if (tty) clear();
    },
  };
}
