// A wholly real network on one machine: zebrad mines a regtest chain of its own (its
// JSON-RPC is the oracle, its built-in CompactTxStreamer a build), real lightwalletd and
// real zainod index zebrad's JSON-RPC, and the embedded fixture network serves the very
// blocks zebrad mined (exported with `getblock <h> 0`), and the transactions the wallet
// left in zebrad's mempool, through the reference and every emulated profile. A real server that is not installed, or cannot ingest the chain, is a
// note quoting why; zebrad itself is required.

import { dirname } from "node:path";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { DEFAULT_LIMITS, type Build, type Limits } from "../../core/targets/config.js";
import { regtestWith } from "../codec/network.js";
import { loadRealChain } from "../fixture/chain/real.js";
import { startFixtureNetwork, type FixtureNetwork, type ProfileName } from "../fixture/network.js";
import type { RunningRealServer } from "./lightwalletd.js";
import { describePin, loadPins, pinsOf } from "./pins.js";
import { RealServerError } from "./process.js";
import { exportBlocks, mineRecipe, type MinedStretch, type RegtestRecipe } from "./regtest-chain.js";
import { replayChain, writeMempoolFile, type RegtestReplay } from "./regtest-replay.js";
import { mineWithTransactions, type TransactReport } from "./regtest-transact.js";
import { realBuildName, startIndexers } from "./servers.js";
import { startZebrad, type RunningZebrad } from "./zebrad.js";

export interface RegtestNetworkOptions {
  recipe: RegtestRecipe;
  /** Where the mined blocks are written, one raw block hex per line. */
  blocksFile: string;
  /** Which indexers to start beside zebrad; default both. */
  indexers?: ("lightwalletd" | "zainod")[];
  profiles?: ProfileName[];
  pinsFile?: string;
  /** Keep the servers' temporary folders (logs) after close. */
  keep?: boolean;
  /** Put the wallet's transactions in the chain and in the mempool (regtest-transact.ts); the recipe's miner address must be the wallet's. */
  transact?: boolean;
  /** Replay a recorded chain and mempool instead of mining (regtest-replay.ts); the recipe gives only the activation heights and miner address. */
  replay?: RegtestReplay;
}

export interface RegtestTimings {
  zebradStartMs: number;
  stretches: MinedStretch[];
  /** submitblock of every recorded block, when replayed. */
  replayMs?: number;
  exportMs: number;
  /** Per real indexer build name: milliseconds from its start until it served the tip. */
  ingestMs: Record<string, number>;
}

export interface RegtestNetwork {
  zebrad: RunningZebrad;
  fixture: FixtureNetwork;
  indexers: RunningRealServer[];
  tip: number;
  timings: RegtestTimings;
  /** What was not started and why. */
  notes: string[];
  /** The wallet's transactions, mined and in the mempool, when asked for. */
  transact?: TransactReport;
  /** zebrad's built-in server, lightwalletd and zainod (real), labelled with their pins. */
  realBuilds(limits?: Partial<Limits>): Build[];
  close(): Promise<void>;
}

/** A recorded chain given to zebrad: no stretches were mined; the wallet's transactions are the recorded run's. */
async function replayed(z: RunningZebrad, replay: RegtestReplay): Promise<{ stretches: MinedStretch[]; transact?: TransactReport; replayMs: number }> {
  const { ms } = await replayChain(z, replay);
  const transact = replay.transact ? { ...replay.transact, mempoolRaw: replay.mempool } : undefined;
  return { stretches: [], ...(transact ? { transact } : {}), replayMs: ms };
}

export async function startRegtestNetwork(o: RegtestNetworkOptions): Promise<RegtestNetwork> {
  const pins = o.pinsFile ? loadPins(o.pinsFile) : loadPins();
  const zebradPin = pinsOf(pins, "zebrad")[0];
  if (!zebradPin) throw new RealServerError("real-servers.yaml pins no zebrad");
  const zebrad = await startZebrad(zebradPin, { minerAddress: o.recipe.minerAddress, activationHeights: o.recipe.activationHeights, keep: o.keep });
  const indexers: RunningRealServer[] = [];
  let fixture: FixtureNetwork | undefined;
  const close = async () => {
    await Promise.all(indexers.map((s) => s.close()));
    await fixture?.close();
    await zebrad.close();
  };
  try {
    const made = o.replay
      ? await replayed(zebrad, o.replay)
      : o.transact
        ? await mineWithTransactions(zebrad, o.recipe)
        : { stretches: await mineRecipe(zebrad, o.recipe), transact: undefined };
    const { stretches, transact } = made;
    const t0 = performance.now();
    const blocks = await exportBlocks(zebrad);
    const exportMs = performance.now() - t0;
    const differs = o.replay ? blocks.findIndex((b, h) => b !== o.replay!.blocks[h]) : -1;
    if (differs >= 0) throw new RealServerError(`zebrad serves other blocks than it was given from ${o.replay!.folder} (first at height ${differs})`);
    writeFileAtomic(o.blocksFile, `${blocks.join("\n")}\n`);
    writeMempoolFile(dirname(o.blocksFile), transact?.mempoolRaw ?? []);
    const tip = blocks.length - 1;
    // The fixture names the chain as zebrad does ("test", see cases/chains/regtest.yaml):
    // its servers stand for servers backed by this zebrad.
    const network = { ...regtestWith(o.recipe.activationHeights), rpcName: "test" as const };
    // The chain starts at genesis, so its trees start empty at activation (`trees: {}`).
    // The fixture's mempool is zebrad's: the transactions the wallet left unmined.
    const model = loadRealChain(o.blocksFile, { network, label: "regtest", trees: {}, ...(transact ? { mempool: transact.mempoolRaw } : {}) });
    fixture = await startFixtureNetwork({ chain: model, ...(o.profiles ? { profiles: o.profiles } : {}) });
    const notes = await startIndexers(pins, o.indexers ?? ["lightwalletd", "zainod"], zebrad.nodeRpc(), { tip, ...(o.keep ? { keep: true } : {}) }, indexers);
    const timings: RegtestTimings = {
      zebradStartMs: zebrad.startMs,
      stretches,
      exportMs,
      ...("replayMs" in made ? { replayMs: made.replayMs } : {}),
      ingestMs: Object.fromEntries(indexers.map((s) => [realBuildName(s.pin), s.ingestMs])),
    };
    const realBuilds = (limits: Partial<Limits> = {}): Build[] =>
      [
        // zebrad's JSON-RPC is the run's oracle, not one of its builds.
        { pin: zebradPin, grpcUrl: zebrad.grpcUrl, jsonrpc: undefined, implementation: "zebrad" as const },
        ...indexers.map((s) => ({
          pin: s.pin,
          grpcUrl: s.grpcUrl,
          jsonrpc: s.jsonrpc,
          implementation: s.pin.name === "zainod" ? ("zaino" as const) : ("lightwalletd" as const),
        })),
      ].map((s) => ({
        ...DEFAULT_LIMITS,
        ...limits,
        name: realBuildName(s.pin),
        implementation: s.implementation,
        version: s.pin.version,
        grpc: { url: s.grpcUrl },
        ...(s.jsonrpc ? { jsonrpc: s.jsonrpc } : {}),
        emulated: false,
        pin: `${describePin(s.pin)}, real-servers.yaml`,
        source: { file: "real-servers.yaml", line: 0 },
      }));
    return { zebrad, fixture, indexers, tip, timings, notes, ...(transact ? { transact } : {}), realBuilds, close };
  } catch (e) {
    await close();
    throw e;
  }
}
