// A counting semaphore (bounded parallelism per build and per run) and a byte budget
// (bounded answer bytes in flight across a whole run).

export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function limiter(max: number): Limiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`);
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next) next();
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      active++;
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/** Runs `fn` over `items` with at most `max` in flight, keeping result order. */
export async function mapLimited<T, R>(items: readonly T[], max: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(max, items.length) }, worker));
  return out;
}

/**
 * Bytes shared by the calls of a run. A call holds its share (the most its answer may
 * keep) from start to end; a call whose share is not free waits, in turn, so the shares
 * held never add up to more than `max`. A call never waits while holding a share, so no
 * two calls can wait for each other.
 */
export interface ByteBudget {
  readonly max: number;
  /** Runs `task` holding min(bytes, max) of the budget. */
  run<T>(bytes: number, task: () => Promise<T>): Promise<T>;
  /** The most bytes held at once so far. */
  peak(): number;
}

export function byteBudget(max: number): ByteBudget {
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`a byte budget must be a positive integer, got ${max}`);
  let held = 0;
  let peak = 0;
  const waiting: { share: number; go: () => void }[] = [];
  const take = (share: number) => {
    held += share;
    peak = Math.max(peak, held);
  };
  const admit = () => {
    while (waiting.length > 0 && held + waiting[0]!.share <= max) {
      const next = waiting.shift()!;
      take(next.share);
      next.go();
    }
  };
  return {
    max,
    peak: () => peak,
    async run<T>(bytes: number, task: () => Promise<T>): Promise<T> {
      const share = Math.min(bytes, max);
      if (waiting.length === 0 && held + share <= max) take(share);
      else await new Promise<void>((go) => waiting.push({ share, go }));
      try {
        return await task();
      } finally {
        held -= share;
        admit();
      }
    },
  };
}
