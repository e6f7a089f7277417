// Latency statistics: nearest-rank percentiles and a fixed-bucket histogram whose edges
// put the 35–45 ms band (the delayed-ACK plateau) in a bucket of its own.

export interface LatencyStats {
  count: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Upper bucket edges in ms; the last bucket is "≥ 250". */
export const BUCKET_EDGES = [0.5, 1, 2, 5, 10, 20, 35, 45, 100, 250] as const;

export function bucketLabels(): string[] {
  const labels: string[] = [];
  let low = 0;
  for (const e of BUCKET_EDGES) {
    labels.push(low === 0 ? `<${e}` : `${low}-${e}`);
    low = e;
  }
  labels.push(`>=${low}`);
  return labels;
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function statsOf(samples: readonly number[]): LatencyStats {
  const s = [...samples].sort((a, b) => a - b);
  return {
    count: s.length,
    min: s[0] ?? NaN,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? NaN,
    mean: s.length > 0 ? s.reduce((a, b) => a + b, 0) / s.length : NaN,
  };
}

export function histogram(samples: readonly number[]): number[] {
  const counts = new Array<number>(BUCKET_EDGES.length + 1).fill(0);
  for (const v of samples) {
    let i = BUCKET_EDGES.findIndex((e) => v < e);
    if (i < 0) i = BUCKET_EDGES.length;
    counts[i]!++;
  }
  return counts;
}

const BARS = " ▁▂▃▄▅▆▇█";

/** One character per bucket, the height proportional to its share of the samples. */
export function sparkline(counts: readonly number[]): string {
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => (c === 0 ? "·" : BARS[Math.max(1, Math.round((c / total) * (BARS.length - 1)))])).join("");
}
