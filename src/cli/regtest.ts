// `zconform regtest`: a wholly real network on this machine. zebrad mines a regtest chain
// holding the wallet's transparent spends, with two more left in its mempool (unless
// --no-transact; src/zcash/real/regtest-transact.ts), and its blocks go to
// <dir>/blocks.txt; real lightwalletd and real zainod index zebrad's JSON-RPC, the fixture
// serves the same blocks and mempool through the reference and the emulated profiles, and
// the whole corpus runs against them all with zebrad's JSON-RPC as the oracle. The chain
// profile `regtest` holds what the mining recipe fixes; every other anchor is read from
// the blocks and the mempool zebrad served at the start of the run, and the tip again from
// zebrad by the preflight. <dir>/regtest.json (schemas/regtest.schema.json) records the
// chain, the wallet's transactions, the timings and the exit code.

import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { loadChainProfile, type ChainProfile } from "../core/corpus/chain-profile.js";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { DEFAULT_LIMITS, type RunConfig } from "../core/targets/config.js";
import { envelope } from "../core/results/envelope.js";
import { buildInfo, EXIT } from "../core/run/session.js";
import { chainAnchors } from "../zcash/fixture/chain/anchors.js";
import { fixtureDeadlineMs } from "../zcash/fixture/deadline.js";
import { RealServerError } from "../zcash/real/process.js";
import { checkMinerAddress, defaultRecipe, type RegtestRecipe } from "../zcash/real/regtest-chain.js";
import { startRegtestNetwork, type RegtestNetwork } from "../zcash/real/regtest-network.js";
import { transactSplit, walletKeys, type TransactReport } from "../zcash/real/regtest-transact.js";
import { guarded, InputError, loadCorpusAndLedger, type RunInputs } from "./inputs.js";
import type { Output } from "./output.js";
import { runInputs, type RunLikeOptions } from "./run.js";

export interface RegtestOptions extends RunLikeOptions {
  /** The run's output folder: blocks.txt, regtest.json, and report.json unless --json says otherwise. */
  dir: string;
  blocks?: number;
  minerAddress?: string;
  shielded?: boolean;
  /** The wallet's transactions in the chain and the mempool (default on). */
  transact?: boolean;
  keepLogs?: boolean;
}

/**
 * The `regtest` profile's anchors checked against the chain zebrad mined (a profile that
 * disagrees with its recipe is a bug to hear about), then every anchor the chain has. A
 * pool with no completed subtree has no last one to ask for (`${sapling_subtrees-1}`
 * would be −1): its count is left out, and the cases naming it are skipped.
 */
export function regtestChainProfile(profile: ChainProfile, chain: Record<string, number | string>): ChainProfile {
  const wrong = Object.entries(profile.anchors).filter(([k, v]) => k in chain && chain[k] !== v);
  if (wrong.length > 0) {
    throw new InputError(`chain profile ${profile.name}: ${wrong.map(([k, v]) => `${k} is ${JSON.stringify(v)} but the mined chain has ${JSON.stringify(chain[k])}`).join("; ")}`);
  }
  const usable = Object.entries(chain).filter(([k, v]) => !(k.endsWith("_subtrees") && v === 0));
  return { ...profile, anchors: { ...Object.fromEntries(usable), ...profile.anchors } };
}

/** The regtest.json document: the envelope, the chain zebrad mined and what each step took. */
export function regtestDocument(net: RegtestNetwork, recipe: RegtestRecipe, blocksFile: string, startedAt: Date, config: RunConfig, exitCode: number) {
  const t = net.timings;
  return {
    ...envelope("regtest", 1, { startedAt, chain: "regtest", builds: config.builds.map((b) => buildInfo(b, b.protocolVersion)) }, exitCode),
    oracle: net.zebrad.jsonrpc.url,
    blocksFile,
    tip: net.tip,
    activationHeights: recipe.activationHeights,
    timings: {
      zebradStartMs: Math.round(t.zebradStartMs), exportMs: Math.round(t.exportMs),
      stretches: t.stretches.map((s) => ({ pool: s.pool, first: s.first, last: s.last, ms: Math.round(s.ms), ...(s.address ? { address: s.address } : {}) })),
      ingestMs: Object.fromEntries(Object.entries(t.ingestMs).map(([k, v]) => [k, Math.round(v)])),
    },
    ...(net.transact ? { transactions: transactionsDocument(net.transact) } : {}),
    notes: net.notes,
  };
}

/** What the wallet sent: the mined transactions with their heights, then those left in the mempool. */
function transactionsDocument(t: TransactReport) {
  return { miner: t.miner, other: t.other, mined: t.mined, mempool: t.mempool };
}

export interface PreparedRegtestRun {
  inputs: RunInputs;
  net: RegtestNetwork;
  recipe: RegtestRecipe;
  blocksFile: string;
}

/** zebrad started and mined, the indexers and the fixture started, the run's inputs assembled (the caller closes inputs.network). */
export async function prepareRegtestRun(o: RegtestOptions, out: Output): Promise<PreparedRegtestRun> {
  const loaded = loadCorpusAndLedger(o);
  const profile = loadChainProfile(o.cases, "regtest");
  const refused = (option: string, check: () => void) => {
    try {
      check();
    } catch (e) {
      throw new InputError(`${option}: ${(e as Error).message}`);
    }
  };
  if (o.minerAddress !== undefined) refused("--miner-address", () => checkMinerAddress(o.minerAddress!));
  refused("--blocks", () => defaultRecipe({ blocks: o.blocks, shielded: o.shielded }));
  const recipe = defaultRecipe({ blocks: o.blocks, minerAddress: o.minerAddress ?? walletKeys().miner.address, shielded: o.shielded });
  mkdirSync(o.dir, { recursive: true });
  const blocksFile = join(o.dir, "blocks.txt");
  const transact = o.transact ?? true;
  if (transact) refused(o.minerAddress === undefined ? "--blocks" : "--miner-address", () => transactSplit(recipe));
  out.stderr(`Starting zebrad on regtest and mining ${recipe.stretches.reduce((n, s) => n + s.blocks, 0)} blocks…`);
  const net = await startRegtestNetwork({ recipe, blocksFile, keep: o.keepLogs, transact, ...(o.profiles ? { profiles: o.profiles } : {}) });
  try {
    const t = net.timings;
    out.stderr(`zebrad ${net.zebrad.pin.version} answered in ${(t.zebradStartMs / 1000).toFixed(1)} s; ` +
      t.stretches.map((s) => `${s.last - s.first + 1} ${s.pool} blocks in ${(s.ms / 1000).toFixed(1)} s`).join(", ") +
      `; ${net.tip + 1} blocks exported to ${blocksFile} in ${(t.exportMs / 1000).toFixed(1)} s`);
    if (net.transact) {
      out.stderr(`the wallet's transactions: ${net.transact.mined.map((t) => `${t.txid} at ${t.height}`).join(", ")}; in the mempool: ${net.transact.mempool.map((t) => t.txid).join(", ")}`);
    }
    for (const note of net.notes) out.stderr(note);
    for (const [name, ms] of Object.entries(t.ingestMs)) out.stderr(`${name} ingested the chain to its tip in ${(ms / 1000).toFixed(1)} s`);
    const chain = regtestChainProfile(profile, chainAnchors(net.fixture.model));
    const source = { file: "(regtest network)", line: 0 };
    const config: RunConfig = {
      file: "(regtest network)",
      chain: chain.name,
      oracle: { jsonrpc: net.zebrad.jsonrpc, source },
      defaults: DEFAULT_LIMITS,
      builds: [...net.fixture.builds({ deadlineMs: await fixtureDeadlineMs(net.fixture) }), ...net.realBuilds({ deadlineMs: 15_000 })],
    };
    return { net, recipe, blocksFile, inputs: { config, chain, ...loaded, network: { ...net.fixture, close: net.close } } };
  } catch (e) {
    await net.close();
    throw e;
  }
}

export async function regtestCommand(o: RegtestOptions, out: Output): Promise<number> {
  const startedAt = new Date();
  let got: PreparedRegtestRun | number;
  try {
    got = await guarded(out, () => prepareRegtestRun(o, out));
  } catch (e) {
    // zebrad that does not start or mine leaves the oracle unchecked; its log says why.
    if (!(e instanceof RealServerError)) throw e;
    out.stderr(e.message);
    return EXIT.unchecked;
  }
  if (typeof got === "number") return got;
  const exitCode = await runInputs({ ...o, json: o.json ?? join(o.dir, "report.json") }, got.inputs, out);
  const doc = regtestDocument(got.net, got.recipe, got.blocksFile, startedAt, got.inputs.config, exitCode);
  writeFileAtomic(join(o.dir, "regtest.json"), `${JSON.stringify(doc, null, 2)}\n`);
  return exitCode;
}
