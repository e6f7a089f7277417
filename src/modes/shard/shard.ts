// Sharding: one run split over n machines, each taking a deterministic part.
//
// `--shard k/n` is 1-based, as in jest and playwright: shards 1/3, 2/3 and 3/3 together
// cover everything once. Reports record it as { index: k, count: n } (index 1-based).
//
// Corpus: the cases are sorted by id (UTF-16 code units, locale independent) and dealt
// round robin, so shard k takes the ids at sorted positions k-1, k-1+n, k-1+2n, … Cases
// of one rpc have neighbouring ids and so spread evenly over the shards, which keeps
// heavy rpcs (long ranges) from landing on one machine. The selection depends only on
// the set of ids, never on file order, so every shard computes the same split as long
// as each gets the same corpus and the same --case/--method filters.
//
// Ranges (sweep): n contiguous parts of [from, to] whose sizes differ by at most one
// block, the larger parts first.

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export class ShardError extends Error {}

export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new ShardError(`--shard must look like k/n (e.g. 2/4), got ${JSON.stringify(text)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) throw new ShardError(`--shard ${text}: the number of shards must be at least 1`);
  if (index < 1 || index > count) throw new ShardError(`--shard ${text}: k must be between 1 and ${count}`);
  return { index, count };
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The ids shard `s` takes out of `ids`, as a set. */
export function shardIds(ids: readonly string[], s: Shard): Set<string> {
  const sorted = [...new Set(ids)].sort(byCodeUnits);
  return new Set(sorted.filter((_, i) => i % s.count === s.index - 1));
}

/** The items of shard `s`, in their original order. */
export function shardCases<T extends { id: string }>(cases: readonly T[], s: Shard): T[] {
  const mine = shardIds(
    cases.map((c) => c.id),
    s,
  );
  return cases.filter((c) => mine.has(c.id));
}

/** Shard `s` of the inclusive range [from, to] (from <= to); undefined when it is empty. */
export function shardRange(from: number, to: number, s: Shard): { from: number; to: number } | undefined {
  const total = to - from + 1;
  const base = Math.floor(total / s.count);
  const extra = total % s.count;
  const i = s.index - 1;
  const start = from + i * base + Math.min(i, extra);
  const size = base + (i < extra ? 1 : 0);
  return size === 0 ? undefined : { from: start, to: start + size - 1 };
}
