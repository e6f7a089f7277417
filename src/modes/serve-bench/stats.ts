// The figures of repeated runs: each scenario runs N times per build, and the table shows
// the median run with its spread (lowest and highest), never the best run alone. Rates
// are computed per run (work / that run's wall time) and then their median taken; on an
// odd number of runs (3 by default) the median rate is the median run's.

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max − min) / median: 0.1 means the runs lay within 10% of the median. */
  relative: number;
}

/** Median (the mean of the two middle runs on an even count) and range. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { median: NaN, min: NaN, max: NaN, relative: NaN };
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  const [min, max] = [s[0]!, s[s.length - 1]!];
  return { median, min, max, relative: median > 0 ? (max - min) / median : 0 };
}

/** Units of work per second of wall time. */
export function perSecond(units: number, wallMs: number): number {
  return wallMs > 0 ? (units * 1000) / wallMs : 0;
}

/**
 * Share of one core the process used while the run lasted: CPU ms over wall ms. Well
 * under 1 means the process was mostly waiting, so it was not what limited the rate.
 */
export function coreShare(cpuMs: number, wallMs: number): number {
  return wallMs > 0 ? cpuMs / wallMs : 0;
}
