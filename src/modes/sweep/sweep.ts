// The sweep: GetBlockRange over [from, to] from every build at once, compared block by
// block, chunk by chunk. Within a chunk the builds' streams (and the oracle's batches)
// advance in lockstep (lockstep.ts), so memory stays flat however long the range;
// chunks (default 100,000 blocks) bound what one reset or server-side stream limit can
// cost, and each build's chunk is resumed once after a transient failure (stream.ts).
//
// Compared against: the oracle's derived block when there is an oracle (the ground
// truth), else the reference build's block. At the end of each chunk every build's final
// status and block count are compared with the same side.

import type { PoolType } from "../../zcash/gen/walletrpc/service_pb.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { GrpcCode, grpcCodeName } from "../../core/targets/grpc-status.js";
import { compareHeight, type HeightDivergence } from "./compare-block.js";
import { DivergenceLog, type SweepClassifier } from "./log.js";
import { Lockstep } from "./lockstep.js";
import { DEFAULT_ORACLE_BATCH, type OracleBlocks } from "./oracle-blocks.js";
import { describeStatus, streamChunk, type StreamOutcome } from "./stream.js";

export const DEFAULT_CHUNK = 100_000;
export const DEFAULT_WINDOW = 256;
export const DEFAULT_MAX_LISTED = 1000;

export interface SweepBuild {
  name: string;
  target: GrpcTarget;
  /** The build's own deadline; a chunk gets at least 60 s + 5 ms per block. */
  deadlineMs?: number;
  maxMessageBytes?: number;
}

/** What the sweep counts as it goes: its progress reports (SweepProgress) are read from them. */
interface SweepCounters {
  names: string[];
  /** Blocks received per source (builds, then the oracle). */
  blocks: number[];
  /** Frame bytes received per source (the oracle: compact bytes derived). */
  bytes: number[];
  /** Heights compared. */
  compared: number;
  total: number;
}

export interface SweepOptions {
  builds: readonly SweepBuild[];
  /** The build compared against when there is no oracle; default the first. */
  reference?: string;
  from: number;
  to: number;
  poolTypes: readonly PoolType[];
  chunkSize?: number;
  window?: number;
  oracle?: OracleBlocks;
  oracleBatch?: number;
  classify?: SweepClassifier;
  maxListed?: number;
  signal?: AbortSignal;
  /** Told how far the sweep has got: as each chunk ends (with its record) and, with progressEveryMs, that often. */
  onProgress?: (p: SweepProgress) => void;
  progressEveryMs?: number;
}

/** How far a sweep has got: what a progress display shows, and a mode-progress event carries. */
export interface SweepProgress {
  elapsedMs: number;
  /** Heights compared, of total. */
  compared: number;
  total: number;
  /** Blocks and frame bytes received per source (builds, then the oracle). */
  sources: { name: string; blocks: number; bytes: number }[];
  divergences: number;
  newDivergences: number;
  divergentHeights: number;
  /** On the report sent as a chunk ends: that chunk. */
  chunk?: ChunkRecord;
}

export interface SourceTotals {
  name: string;
  blocks: number;
  bytes: number;
  /** Time in calls (builds) or in fetching and deriving (oracle), ms. */
  ms: number;
  resumes: number;
}

export interface ChunkRecord {
  from: number;
  to: number;
  /** Per build: its final status, blocks received and, when resumed, why. */
  builds: { name: string; status: string; blocks: number; resumedAfter?: string }[];
  oracleError?: string;
}

export interface SweepResult {
  log: DivergenceLog;
  totals: SourceTotals[];
  chunks: ChunkRecord[];
  /** Heights compared (all sources delivered or ended). */
  compared: number;
  partial: boolean;
  errors: string[];
  durationMs: number;
  reference: string;
  left: string;
}

function newCounters(names: readonly string[], total: number): SweepCounters {
  return { names: [...names], blocks: names.map(() => 0), bytes: names.map(() => 0), compared: 0, total };
}

export async function runSweep(o: SweepOptions): Promise<SweepResult> {
  if (o.builds.length === 0) throw new Error("a sweep needs at least one build");
  if (!(Number.isInteger(o.from) && Number.isInteger(o.to) && o.from >= 0 && o.from <= o.to)) {
    throw new RangeError(`sweep range must be 0 <= from <= to, got ${o.from}..${o.to}`);
  }
  const t0 = performance.now();
  const chunkSize = o.chunkSize ?? DEFAULT_CHUNK;
  const window = o.window ?? DEFAULT_WINDOW;
  const names = [...o.builds.map((b) => b.name), ...(o.oracle ? ["oracle"] : [])];
  const reference = o.reference ?? o.builds[0]!.name;
  const refIndex = o.builds.findIndex((b) => b.name === reference);
  if (refIndex < 0) throw new Error(`reference build ${JSON.stringify(reference)} is not among the builds swept`);
  const oracleIndex = o.oracle ? o.builds.length : -1;
  const left = o.oracle ? oracleIndex : refIndex;
  const buildIndexes = o.builds.map((_, i) => i);
  const counters = newCounters(names, o.to - o.from + 1);
  const log = new DivergenceLog(o.maxListed ?? DEFAULT_MAX_LISTED, o.classify);
  const totals: SourceTotals[] = names.map((name) => ({ name, blocks: 0, bytes: 0, ms: 0, resumes: 0 }));
  const chunks: ChunkRecord[] = [];
  const errors: string[] = [];
  let partial = false;
  const progress = (chunk?: ChunkRecord): SweepProgress => ({
    elapsedMs: performance.now() - t0,
    compared: counters.compared,
    total: counters.total,
    sources: names.map((name, j) => ({ name, blocks: counters.blocks[j]!, bytes: counters.bytes[j]! })),
    divergences: log.total,
    newDivergences: log.fresh,
    divergentHeights: log.divergentHeights,
    ...(chunk ? { chunk } : {}),
  });
  const ticker = o.onProgress && o.progressEveryMs ? setInterval(() => o.onProgress!(progress()), o.progressEveryMs) : undefined;
  ticker?.unref();
  try {
    for (let from = o.from; from <= o.to; from += chunkSize) {
      if (o.signal?.aborted) {
        partial = true;
        break;
      }
      const to = Math.min(o.to, from + chunkSize - 1);
      const expected = to - from + 1;
      const lock = new Lockstep(names.length, window, expected, (p, values) => {
        counters.compared++;
        const ds = compareHeight(from + p, values, names, left, buildIndexes);
        if (ds) log.addBlock(from + p, ds);
      });
      const deliverTo = (j: number) => (bytes: Uint8Array) => {
        counters.blocks[j]!++;
        counters.bytes[j]! += bytes.length + 5;
        return lock.deliver(j, bytes);
      };
      const streams = o.builds.map((b, j) =>
        streamChunk(
          b.target,
          {
            from,
            to,
            poolTypes: o.poolTypes,
            signal: o.signal,
            deadlineMs: Math.max(b.deadlineMs ?? 0, 60_000 + 5 * expected),
            maxMessageBytes: b.maxMessageBytes ?? 16 * 1024 * 1024,
          },
          deliverTo(j),
        ).finally(() => lock.end(j)),
      );
      const oracleRun = o.oracle
        ? feedOracle(o.oracle, from, to, o.oracleBatch ?? DEFAULT_ORACLE_BATCH, deliverTo(oracleIndex), o.signal, totals[oracleIndex]!).finally(() =>
            lock.end(oracleIndex),
          )
        : Promise.resolve(undefined);
      const [outcomes, oracleError] = await Promise.all([Promise.all(streams), oracleRun]);
      await lock.done();

      outcomes.forEach((s, j) => {
        const t = totals[j]!;
        t.blocks += s.blocks;
        t.bytes += s.bytes;
        t.ms += s.ms;
        if (s.resumedAfter) t.resumes++;
      });
      const chunk: ChunkRecord = {
        from,
        to,
        builds: outcomes.map((s, j) => ({
          name: names[j]!,
          status: describeStatus(s),
          blocks: s.blocks,
          ...(s.resumedAfter ? { resumedAfter: s.resumedAfter } : {}),
        })),
        ...(oracleError ? { oracleError } : {}),
      };
      chunks.push(chunk);
      if (oracleError) errors.push(`heights ${from}..${to}: ${oracleError}`);
      if (o.signal?.aborted) {
        // Statuses and counts of an interrupted chunk describe the interruption, not the builds.
        partial = true;
        break;
      }
      if (left !== oracleIndex || !oracleError) {
        for (const d of chunkDivergences(from, to, names, left, outcomes, lock)) log.add(d);
      }
      o.onProgress?.(progress(chunk));
    }
  } finally {
    clearInterval(ticker);
  }
  return { log, totals, chunks, compared: counters.compared, partial, errors, durationMs: performance.now() - t0, reference, left: names[left]! };
}

/** The oracle's blocks for [from, to], a batch fetched ahead while the previous one is delivered. */
async function feedOracle(
  oracle: OracleBlocks,
  from: number,
  to: number,
  batch: number,
  deliver: (b: Uint8Array) => void | Promise<void>,
  signal: AbortSignal | undefined,
  totals: SourceTotals,
): Promise<string | undefined> {
  const heightsFrom = (h: number) => Array.from({ length: Math.min(batch, to - h + 1) }, (_, i) => h + i);
  const timed = async (hs: number[]) => {
    const t = performance.now();
    const blocks = await oracle.fetch(hs);
    totals.ms += performance.now() - t;
    return blocks;
  };
  let pending: Promise<Uint8Array[]> | undefined = timed(heightsFrom(from));
  try {
    for (let h = from; h <= to; h += batch) {
      const blocks: Uint8Array[] = await pending!;
      pending = h + batch <= to && !signal?.aborted ? timed(heightsFrom(h + batch)) : undefined;
      for (const b of blocks) {
        totals.blocks++;
        totals.bytes += b.length + 5;
        const wait = deliver(b);
        if (wait) await wait;
      }
      if (signal?.aborted) return "interrupted";
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  } finally {
    // A prefetched batch nobody will read must not become an unhandled rejection.
    pending?.catch(() => undefined);
  }
}

/** Status and block-count differences of one chunk's streams against the left side. */
function chunkDivergences(
  from: number,
  to: number,
  names: readonly string[],
  left: number,
  outcomes: readonly StreamOutcome[],
  lock: Lockstep,
): HeightDivergence[] {
  const out: HeightDivergence[] = [];
  const l: Pick<StreamOutcome, "code" | "message" | "fault"> = outcomes[left] ?? { code: GrpcCode.OK, message: "" };
  const leftName = names[left]!;
  outcomes.forEach((r, j) => {
    if (j === left) return;
    const base = { left: leftName, right: names[j]!, build: names[j]! };
    const stop = Math.min(to, from + r.blocks);
    if (r.code !== l.code || r.fault?.kind !== l.fault?.kind) {
      out.push({
        ...base,
        height: stop,
        path: "status.code",
        kind: r.code !== GrpcCode.OK && l.code !== GrpcCode.OK ? "error-code" : r.code !== l.code ? "error-vs-ok" : "value",
        leftValue: grpcCodeName(l.code),
        rightValue: grpcCodeName(r.code),
        detail: `GetBlockRange ${from}..${to}: ${describeStatus(l)} vs ${describeStatus(r)}`,
      });
    }
    const nl = lock.count(left);
    const nr = lock.count(j);
    if (nl !== nr) {
      out.push({
        ...base,
        height: from + Math.min(nl, nr),
        path: "",
        kind: "count",
        leftValue: nl,
        rightValue: nr,
        detail:
          `GetBlockRange ${from}..${to}: ${names[j]} sent ${nr} blocks, ${leftName} ${nl} (expected ${to - from + 1}); ` +
          (nr < nl ? `heights ${from + nr}..${from + Math.min(nl, to - from + 1) - 1} missing` : `${nr - nl} more`),
      });
    }
  });
  return out;
}
