// How long darkside lightwalletd takes to follow a reorganization, and what it serves
// meanwhile. Read from lightwalletd v0.5.4: ApplyStaged swaps the blocks its stand-in
// node presents at once (common/darkside.go DarksideApplyStaged), and GetLatestBlock asks
// that node on every call (frontend/service.go GetLatestBlock), so it names the new tip
// immediately; GetBlock answers from the block cache first (common/common.go GetBlock),
// which changes only when the ingestor, polling getbestblockhash every 2 s once synced,
// sees another tip hash. It then asks for the block above its cache (none: the branch is
// no longer), drops its top block ("REORG: dropping block"), and repeats until a block's
// prevHash matches the hash its cache ends with (common/common.go BlockIngestor,
// common/cache.go HashMatch and Reorg); then it adds the branch block by block.
//
// The watch polls GetLatestBlock and GetBlock at every replaced height until both serve
// the branch and the ingestor has logged the branch's tip into its cache, or the deadline
// passes. Times count from the moment ApplyStaged returned.

import { create, fromBinary } from "@bufbuild/protobuf";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { displayHex, type DecodedBlock } from "../codec/index.js";
import { CompactBlockSchema } from "../gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "../gen/walletrpc/service_pb.js";

/** A block as a report names it: height and display-order hash. */
export interface BlockRef {
  height: number;
  hash: string;
}

/** What one GetBlock answered while lightwalletd had not yet followed the branch. */
export interface OrphanServed extends BlockRef {
  /** The branch's block at that height. */
  expected: string;
}

export interface Convergence {
  deadlineMs: number;
  /** Until GetLatestBlock named the branch's tip (height and hash); null: not by the deadline. */
  tipMs: number | null;
  /** Until GetBlock served the branch's block at every replaced height. */
  blocksMs: number | null;
  /** Until the ingestor logged the branch's tip added to its cache; absent without a log. */
  cachedMs?: number | null;
  polls: number;
  /**
   * Polls in which GetLatestBlock already named the branch's tip while GetBlock served an
   * orphaned block at a replaced height, and what the first of them served.
   */
  orphanedPolls: number;
  orphanedServed: OrphanServed[];
}

/** What the ingestor logged after ApplyStaged: the blocks it dropped and those it added, in order. */
export interface IngestorLog {
  dropped: BlockRef[];
  added: BlockRef[];
}

export interface WatchTarget {
  /** The branch, lowest first, as zconform decoded the staged bytes. */
  branch: readonly DecodedBlock[];
  forkHeight: number;
}

export interface WatchOptions {
  deadlineMs: number;
  pollMs?: number;
  /** The process log from the moment ApplyStaged was called. */
  log?: () => string;
}

const DROPPED = /REORG: dropping block (\d+) ([0-9a-f]{64})/g;
const ADDED = /Adding block to cache (\d+) ([0-9a-f]{64})/g;

export function ingestorLog(text: string): IngestorLog {
  const refs = (re: RegExp) => [...text.matchAll(re)].map((m) => ({ height: Number(m[1]), hash: m[2]! }));
  return { dropped: refs(DROPPED), added: refs(ADDED) };
}

/** The display hash of the block GetBlock serves at a height, or the status it answered instead. */
export async function servedHash(target: GrpcTarget, height: number): Promise<string> {
  const obs = await target.call(CompactTxStreamer.method.getBlock, create(BlockIDSchema, { height: BigInt(height) }));
  return obs.code === 0 && obs.messages[0] ? displayHex(fromBinary(CompactBlockSchema, obs.messages[0]).hash) : `(status ${obs.code} ${obs.message})`;
}

async function tipIs(target: GrpcTarget, tip: DecodedBlock, tipHeight: number): Promise<boolean> {
  const obs = await target.call(CompactTxStreamer.method.getLatestBlock, create(ChainSpecSchema, {}));
  if (obs.code !== 0 || !obs.messages[0]) return false;
  const id = fromBinary(BlockIDSchema, obs.messages[0]);
  return Number(id.height) === tipHeight && displayHex(id.hash) === displayHex(tip.hash);
}

/** Polls until lightwalletd serves the branch, measuring how long each part took. */
export async function watchConvergence(target: GrpcTarget, w: WatchTarget, o: WatchOptions): Promise<Convergence> {
  const started = Date.now();
  const since = () => Date.now() - started;
  const tip = w.branch[w.branch.length - 1]!;
  const tipHeight = w.forkHeight + w.branch.length - 1;
  const tipCached = (text: string) => ingestorLog(text).added.some((a) => a.height === tipHeight && a.hash === displayHex(tip.hash));
  const c: Convergence = {
    deadlineMs: o.deadlineMs,
    tipMs: null,
    blocksMs: null,
    ...(o.log ? { cachedMs: null } : {}),
    polls: 0,
    orphanedPolls: 0,
    orphanedServed: [],
  };
  for (;;) {
    c.polls++;
    const tipNow = await tipIs(target, tip, tipHeight);
    const served: OrphanServed[] = [];
    for (const [i, b] of w.branch.entries()) {
      const hash = await servedHash(target, w.forkHeight + i);
      const expected = displayHex(b.hash);
      if (hash !== expected) served.push({ height: w.forkHeight + i, hash, expected });
    }
    const at = since();
    if (tipNow) c.tipMs ??= at;
    if (served.length === 0) c.blocksMs ??= at;
    if (tipNow && served.length > 0) {
      if (c.orphanedPolls === 0) c.orphanedServed = served;
      c.orphanedPolls++;
    }
    if (o.log && c.cachedMs === null && tipCached(o.log())) c.cachedMs = at;
    const done = tipNow && served.length === 0 && (!o.log || c.cachedMs !== null);
    if (done || at > o.deadlineMs) return c;
    await new Promise((r) => setTimeout(r, o.pollMs ?? 100));
  }
}
