// Memoized JSON-RPC answers for the lifetime of one deriver (one run). Many cases ask for
// the same blocks and transactions — every range overlapping another, every address
// transaction already seen — and a block at verbosity 0 is the largest answer a node
// gives, so each is fetched once.
//
// Only answers that cannot change during a run are kept: a successful result of a
// method in `CACHED_METHODS`, and not a getrawtransaction object without a `height`
// (a mempool transaction gets one when it is mined). Errors and faults are never kept:
// "above the tip" stops being true when the chain grows, and an unreachable node may
// come back. A reorg during a run can still leave a stale block at a height; runs are
// short and the corpus anchors deep blocks, so that is accepted.
//
// Concurrent requests for the same key share one call.

export const CACHED_METHODS: ReadonlySet<string> = new Set(["getblock", "getrawtransaction", "getblockhash"]);

export interface OracleCache {
  /** The cached result, or `load()`'s (kept when `keep(result)` allows). */
  get(method: string, params: readonly unknown[], load: () => Promise<unknown>): Promise<unknown>;
  /** Entries held (settled or in flight). */
  readonly size: number;
  clear(): void;
}

function keyOf(method: string, params: readonly unknown[]): string {
  return `${method} ${JSON.stringify(params)}`;
}

/** A getrawtransaction object of a transaction not (yet) mined changes when it is. */
function immutable(method: string, result: unknown): boolean {
  if (method !== "getrawtransaction" || result === null || typeof result !== "object") return true;
  return typeof (result as { height?: unknown }).height === "number";
}

export function createOracleCache(): OracleCache {
  const entries = new Map<string, Promise<unknown>>();
  return {
    get(method, params, load) {
      if (!CACHED_METHODS.has(method)) return load();
      const key = keyOf(method, params);
      const held = entries.get(key);
      if (held) return held;
      const p = load().then(
        (result) => {
          if (!immutable(method, result)) entries.delete(key);
          return result;
        },
        (e: unknown) => {
          entries.delete(key);
          throw e;
        },
      );
      entries.set(key, p);
      return p;
    },
    get size() {
      return entries.size;
    },
    clear: () => entries.clear(),
  };
}
