// The sweep's progress display on stderr (only when stderr is a terminal): overall
// progress and ETA, and blocks/s and MB/s per source, redrawn in place a few times a
// second from the sweep's counters. A dozen lines of ANSI instead of a dependency: the
// display reads counters, it never touches the sweep.

import type { SweepCounters } from "./sweep.js";

export interface ProgressDisplay {
  stop(): void;
}

const BAR = 24;

function fmtRate(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0);
}

export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** The lines for one frame; rates are per second, smoothed by the caller. */
export function progressLines(c: SweepCounters, rates: readonly number[], mbRates: readonly number[], comparedRate: number): string[] {
  const share = c.total > 0 ? c.compared / c.total : 1;
  const filled = Math.round(share * BAR);
  const eta = comparedRate > 0 ? (c.total - c.compared) / comparedRate : Infinity;
  const width = Math.max(...c.names.map((n) => n.length));
  return [
    `sweep [${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${(100 * share).toFixed(1)}%  ` +
      `${c.compared.toLocaleString("en-US")}/${c.total.toLocaleString("en-US")} heights  ETA ${fmtDuration(eta)}`,
    ...c.names.map((n, j) => `  ${n.padEnd(width)}  ${fmtRate(rates[j] ?? 0).padStart(6)} blocks/s  ${(mbRates[j] ?? 0).toFixed(2).padStart(6)} MB/s  ${c.blocks[j]!.toLocaleString("en-US")} blocks`),
  ];
}

export function startProgress(c: SweepCounters, write: (text: string) => void, intervalMs = 250): ProgressDisplay {
  let drawn = 0;
  let last = { t: performance.now(), blocks: [...c.blocks], bytes: [...c.bytes], compared: c.compared };
  const rates = c.names.map(() => 0);
  const mb = c.names.map(() => 0);
  let comparedRate = 0;
  // Exponential smoothing over ~2 s keeps the ETA from jumping at chunk boundaries.
  const alpha = Math.min(1, intervalMs / 2000);
  const smooth = (old: number, now: number) => (old === 0 ? now : old + alpha * (now - old));
  const draw = () => {
    const t = performance.now();
    const dt = (t - last.t) / 1000;
    if (dt > 0) {
      c.names.forEach((_, j) => {
        rates[j] = smooth(rates[j]!, (c.blocks[j]! - last.blocks[j]!) / dt);
        mb[j] = smooth(mb[j]!, (c.bytes[j]! - last.bytes[j]!) / 1e6 / dt);
      });
      comparedRate = smooth(comparedRate, (c.compared - last.compared) / dt);
    }
    last = { t, blocks: [...c.blocks], bytes: [...c.bytes], compared: c.compared };
    const lines = progressLines(c, rates, mb, comparedRate);
    write((drawn > 0 ? `\x1b[${drawn}A` : "") + lines.map((l) => `\r\x1b[2K${l}`).join("\n") + "\n");
    drawn = lines.length;
  };
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (drawn > 0) write(`\x1b[${drawn}A` + "\r\x1b[2K\n".repeat(drawn) + `\x1b[${drawn}A`);
      drawn = 0;
    },
  };
}
