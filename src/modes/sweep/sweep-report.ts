// The sweep's JSON report (`zconform sweep --json FILE`, schemas/sweep.schema.json), in
// the modes' envelope (src/core/results/envelope.ts) with "kind": "sweep": the range and how it was cut, the
// builds, per-build throughput, every chunk's outcome, the divergences (the first
// `maxListed` in full, each with its height and a path that starts with [height]) and a
// complete tally of all of them by build, kind and path pattern.

import type { BuildInfo } from "../../core/results/events.js";
import { envelope, type Envelope } from "../../core/results/envelope.js";
import type { Shard } from "../shard/shard.js";
import type { SweepDivergence, TallyEntry } from "./log.js";
import type { ChunkRecord, SweepResult } from "./sweep.js";

export const SWEEP_REPORT_VERSION = 1;

export interface SourceThroughput {
  name: string;
  blocks: number;
  /** Frame bytes (gRPC length prefix included); for the oracle, the derived compact bytes. */
  bytes: number;
  seconds: number;
  blocksPerSecond: number;
  mbPerSecond: number;
  /** Chunks resumed after a transient failure. */
  resumes: number;
}

/** `chain` is a profile name, or the fixture chain's label. */
export interface SweepReport extends Envelope<"sweep"> {
  partial: boolean;
  range: { from: number; to: number };
  /** The whole range asked for, when this report is one shard of it. */
  requestedRange: { from: number; to: number } | null;
  shard: Shard | null;
  poolTypes: string[];
  chunkSize: number;
  window: number;
  /** The build compared against when there is no oracle. */
  reference: string;
  /** What every build was compared against: "oracle" or the reference build. */
  comparedAgainst: string;
  oracle: string | null;
  summary: {
    /** Heights compared. */
    blocks: number;
    divergentHeights: number;
    divergences: number;
    newDivergences: number;
    known: number;
    /** Divergences in `divergences` / left out of it (all are in `tally`). */
    listed: number;
    omitted: number;
    errors: string[];
    durationMs: number;
    blocksPerSecond: number;
  };
  throughput: SourceThroughput[];
  chunks: ChunkRecord[];
  divergences: SweepDivergence[];
  tally: TallyEntry[];
}

export interface SweepReportContext {
  startedAt: Date;
  chain: string;
  range: { from: number; to: number };
  requestedRange?: { from: number; to: number };
  shard?: Shard;
  poolTypes: string[];
  chunkSize: number;
  window: number;
  builds: BuildInfo[];
  oracle?: string;
}

export function throughputOf(t: SweepResult["totals"][number]): SourceThroughput {
  const seconds = t.ms / 1000;
  return {
    name: t.name,
    blocks: t.blocks,
    bytes: t.bytes,
    seconds,
    blocksPerSecond: seconds > 0 ? t.blocks / seconds : 0,
    mbPerSecond: seconds > 0 ? t.bytes / 1e6 / seconds : 0,
    resumes: t.resumes,
  };
}

/** 1 when anything is new or the sweep could not finish; 0 when every divergence is known. */
export function sweepExitCode(r: SweepResult): number {
  return r.log.fresh > 0 || r.errors.length > 0 || r.partial ? 1 : 0;
}

export function sweepReport(r: SweepResult, c: SweepReportContext): SweepReport {
  return {
    ...envelope("sweep", SWEEP_REPORT_VERSION, c, sweepExitCode(r)),
    partial: r.partial,
    range: c.range,
    requestedRange: c.requestedRange ?? null,
    shard: c.shard ?? null,
    poolTypes: c.poolTypes,
    chunkSize: c.chunkSize,
    window: c.window,
    reference: r.reference,
    comparedAgainst: r.left,
    oracle: c.oracle ?? null,
    summary: {
      blocks: r.compared,
      divergentHeights: r.log.divergentHeights,
      divergences: r.log.total,
      newDivergences: r.log.fresh,
      known: r.log.total - r.log.fresh,
      listed: r.log.listed.length,
      omitted: r.log.omitted,
      errors: r.errors,
      durationMs: r.durationMs,
      blocksPerSecond: r.durationMs > 0 ? r.compared / (r.durationMs / 1000) : 0,
    },
    throughput: r.totals.map(throughputOf),
    chunks: r.chunks,
    divergences: [...r.log.listed].sort((a, b) => a.height - b.height || a.build.localeCompare(b.build)),
    tally: r.log.tallies(),
  };
}
