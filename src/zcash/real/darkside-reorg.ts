// A darkside reorganization run: a fresh lightwalletd in darkside mode is fed a run of
// real blocks; then, one after the other, the top blocks are replaced by a branch
// (darkside-reorg-branch.ts) of depth 1 and of depth 3 where the run is long enough, each
// staged and applied the way darkside offers it (StageBlocksStream, then ApplyStaged at
// the same tip: common/darkside.go addBlockActive drops the active block at a staged
// block's height and every block above it). After each, lightwalletd has until the
// deadline to follow (darkside-reorg-watch.ts); then the reorganization's own checks
// (darkside-reorg-checks.ts) and the whole chain after it against the oracle over the
// same blocks, as a darkside run compares it (darkside-compare.ts).

import { create } from "@bufbuild/protobuf";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { bytesToHex, decodeBlock, displayHex, type DecodedBlock } from "../codec/index.js";
import { chainFromBlocks } from "../fixture/chain/from-blocks.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { startFixtureNetwork } from "../fixture/network.js";
import { DarksideBlockSchema, DarksideHeightSchema, DarksideStreamer } from "../gen/walletrpc/darkside_pb.js";
import { deriveFromOracle } from "../oracle/derive.js";
import type { DarksideChain } from "./darkside-chains.js";
import { compareDarkside, type DarksideCheck } from "./darkside-compare.js";
import { startDarkside } from "./darkside-process.js";
import { reorgBranch } from "./darkside-reorg-branch.js";
import { reorgChecks, type ReorgCheck } from "./darkside-reorg-checks.js";
import { ingestorLog, servedHash, watchConvergence, type BlockRef, type Convergence, type IngestorLog } from "./darkside-reorg-watch.js";
import { darksideIdentity, summarize, tally, type DarksideRunOptions, type Tally } from "./darkside-run.js";
import { stageChain } from "./darkside.js";

/** The depths a run is reorganized at, in this order, where it has a block below the fork. */
export const REORG_DEPTHS: readonly number[] = [1, 3];

/** How long lightwalletd has to follow a reorganization (its ingestor polls every 2 s). */
export const REORG_DEADLINE_MS = 30_000;

export interface DarksideReorg {
  depth: number;
  forkHeight: number;
  /** What lightwalletd served at the replaced heights before, and the branch that replaced it (display order). */
  orphaned: BlockRef[];
  branch: BlockRef[];
  /** Transactions the orphaned blocks held that the chain after the reorganization lacks. */
  droppedTransactions: number;
  convergence: Convergence;
  /** What lightwalletd's ingestor logged from ApplyStaged on. */
  ingestor: IngestorLog;
  checks: ReorgCheck[];
  /** The reorganization's checks, counted. */
  tally: Tally;
  /** The chain after the reorganization against the oracle, as a darkside run compares it. */
  compared: { rpcs: Record<string, Tally>; explanations: Record<string, number>; checks: DarksideCheck[] };
}

export interface DarksideReorgReport {
  chain: string;
  network: string;
  firstHeight: number;
  tipHeight: number;
  blocksStaged: number;
  reorgs: DarksideReorg[];
}

export interface DarksideReorgOptions extends DarksideRunOptions {
  depths?: readonly number[];
  deadlineMs?: number;
}

/** The depths a run can be reorganized at: a block must stay below the fork. */
export function reorgDepths(run: DarksideChain, depths: readonly number[] = REORG_DEPTHS): number[] {
  return run.before ? [] : depths.filter((d) => d < run.model.blocks.length);
}

const ref = (height: number, b: DecodedBlock): BlockRef => ({ height, hash: displayHex(b.hash) });

async function darkside(call: Promise<{ code: number; message: string }>, what: string): Promise<void> {
  const obs = await call;
  if (obs.code !== 0) throw new Error(`darkside ${what} failed: status ${obs.code} ${obs.message}`);
}

/** Reorganizes at each depth in turn; each branch replaces the top of the chain served before it. */
async function reorganize(
  target: GrpcTarget,
  model: ChainModel,
  depths: readonly number[],
  o: DarksideReorgOptions,
  log: () => string,
): Promise<DarksideReorg[]> {
  const out: DarksideReorg[] = [];
  let current = model.blocks.map((b) => b.raw);
  for (const [i, depth] of depths.entries()) {
    const branch = reorgBranch(model, current, depth, i + 1);
    const orphaned = current.slice(current.length - depth).map((raw) => decodeBlock(raw));
    for (const [k, b] of orphaned.entries()) {
      const served = await servedHash(target, branch.forkHeight + k);
      if (served !== displayHex(b.hash))
        throw new Error(`before the reorganization of depth ${depth}, lightwalletd served ${served} at ${branch.forkHeight + k}, not ${displayHex(b.hash)}`);
    }
    await darkside(
      target.call(
        DarksideStreamer.method.stageBlocksStream,
        branch.staged.map((raw) => create(DarksideBlockSchema, { block: bytesToHex(raw) })),
      ),
      "StageBlocksStream",
    );
    const logFrom = log().length;
    await darkside(target.call(DarksideStreamer.method.applyStaged, create(DarksideHeightSchema, { height: model.tipHeight })), "ApplyStaged");
    const since = () => log().slice(logFrom);
    const convergence = await watchConvergence(
      target,
      { branch: branch.blocks, forkHeight: branch.forkHeight },
      { deadlineMs: o.deadlineMs ?? REORG_DEADLINE_MS, log: since },
    );
    const ingestor = ingestorLog(since());
    const after = chainFromBlocks(branch.chain, { network: model.network, label: `${model.label}, reorganized at depth ${depth}`, trees: {} });
    const net = await startFixtureNetwork({ chain: after, profiles: [] });
    try {
      const derive = deriveFromOracle(jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }));
      const ctx = { ledger: o.ledger, build: darksideIdentity() };
      const checks = await reorgChecks(target, derive, ctx, { after, forkHeight: branch.forkHeight, orphaned, convergence, ingestor });
      const compared = summarize(after.label, { model: after }, await compareDarkside(target, derive, after, ctx));
      const kept = new Set(after.blocks.flatMap((b) => b.block.txids.map(bytesToHex)));
      out.push({
        depth,
        forkHeight: branch.forkHeight,
        orphaned: orphaned.map((b, k) => ref(branch.forkHeight + k, b)),
        branch: branch.blocks.map((b, k) => ref(branch.forkHeight + k, b)),
        droppedTransactions: orphaned.reduce((n, b) => n + b.txids.filter((t) => !kept.has(bytesToHex(t))).length, 0),
        convergence,
        ingestor,
        checks,
        tally: tally(checks),
        compared: { rpcs: compared.rpcs, explanations: compared.explanations, checks: compared.checks },
      });
    } finally {
      await net.close();
    }
    current = branch.chain;
  }
  return out;
}

export async function runDarksideReorg(chain: string, run: DarksideChain, o: DarksideReorgOptions): Promise<DarksideReorgReport> {
  const model = run.model;
  const depths = reorgDepths(run, o.depths);
  if (depths.length === 0) {
    throw new Error(
      run.before
        ? `${chain}: its tree state before the first block comes from a checkpoint, which a reorganized copy of the chain does not carry`
        : `${chain}: ${model.blocks.length} block(s), too few to keep one below a reorganization of depth ${(o.depths ?? REORG_DEPTHS).join(" or ")}`,
    );
  }
  const lwd = await startDarkside(o.binary ? { binary: o.binary } : {});
  const target = grpcTarget({ url: lwd.grpcUrl });
  try {
    await stageChain(target, model, { log: lwd.log });
    return {
      chain,
      network: model.network.name,
      firstHeight: model.baseHeight,
      tipHeight: model.tipHeight,
      blocksStaged: model.blocks.length,
      reorgs: await reorganize(target, model, depths, o, lwd.log),
    };
  } finally {
    await target.close();
    await lwd.stop();
  }
}
