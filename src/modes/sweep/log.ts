// Where a sweep's divergences go. A build that differs on every block of a million-block
// range must not hold a million divergences in memory, so the log keeps the first
// `maxListed` in full (height order within each chunk) and, for all of them, a tally per
// build, kind and path pattern (every index written [*]) with counts and the first and
// last height. Each divergence is classified against the ledger as it arrives.

import type { HeightDivergence } from "./compare-block.js";

export interface SweepDivergence extends HeightDivergence {
  /** The ledger entry that explains it, or null when it is new. */
  quirk: string | null;
}

export interface TallyEntry {
  build: string;
  kind: string;
  /** The path with every index (the height included) written [*]. */
  path: string;
  count: number;
  /** How many of them the ledger explains. */
  known: number;
  firstHeight: number;
  lastHeight: number;
  /** The ledger entries that explained them. */
  quirks: string[];
}

export type SweepClassifier = (d: HeightDivergence) => string | null;

export function pathPattern(path: string): string {
  return path.replace(/\[\d+\]/g, "[*]");
}

export class DivergenceLog {
  readonly listed: SweepDivergence[] = [];
  total = 0;
  fresh = 0;
  divergentHeights = 0;
  private lastBlockHeight = -1;
  private readonly tally = new Map<string, TallyEntry>();

  constructor(
    private readonly maxListed: number,
    private readonly classify?: SweepClassifier,
  ) {}

  get omitted(): number {
    return this.total - this.listed.length;
  }

  /** Divergences found in one block (all of one height). */
  addBlock(height: number, ds: readonly HeightDivergence[]): void {
    if (ds.length > 0 && height !== this.lastBlockHeight) {
      this.divergentHeights++;
      this.lastBlockHeight = height;
    }
    for (const d of ds) this.add(d);
  }

  /** A divergence about a whole chunk's stream (status, count). */
  add(d: HeightDivergence): void {
    const quirk = this.classify ? this.classify(d) : null;
    this.total++;
    if (quirk === null) this.fresh++;
    if (this.listed.length < this.maxListed) this.listed.push({ ...d, quirk });
    const pattern = pathPattern(d.path);
    const key = `${d.build}\u0000${d.kind}\u0000${pattern}`;
    let t = this.tally.get(key);
    if (!t)
      this.tally.set(key, (t = { build: d.build, kind: d.kind, path: pattern, count: 0, known: 0, firstHeight: d.height, lastHeight: d.height, quirks: [] }));
    t.count++;
    t.firstHeight = Math.min(t.firstHeight, d.height);
    t.lastHeight = Math.max(t.lastHeight, d.height);
    if (quirk !== null) {
      t.known++;
      if (!t.quirks.includes(quirk)) t.quirks.push(quirk);
    }
  }

  tallies(): TallyEntry[] {
    return [...this.tally.values()].sort((a, b) => a.build.localeCompare(b.build) || b.count - a.count || a.path.localeCompare(b.path));
  }
}
