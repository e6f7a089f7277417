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
import { mkdirSync, readFileSync } from "node:fs";
import { loadChainProfile, type ChainProfile } from "../core/corpus/chain-profile.js";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { DEFAULT_LIMITS, type RunConfig } from "../core/targets/config.js";
import { envelope } from "../core/results/envelope.js";
import { buildInfo, EXIT } from "../core/run/session.js";
import { chainAnchors } from "../zcash/fixture/chain/anchors.js";
import { fixtureDeadlineMs } from "../zcash/fixture/deadline.js";
import { RealServerError } from "../zcash/real/process.js";
import { REAL_DEADLINE_MS } from "../zcash/real/servers.js";
import { checkMinerAddress, defaultRecipe, type RegtestRecipe } from "../zcash/real/regtest-chain.js";
import { startRegtestNetwork, type RegtestNetwork } from "../zcash/real/regtest-network.js";
import { readReplay, REPLAY_FILES, type RegtestReplay } from "../zcash/real/regtest-replay.js";
import { ORACLE } from "../core/run/judge.js";
import { transactSplit, walletKeys, type TransactReport } from "../zcash/real/regtest-transact.js";
import { guarded, InputError, loadCorpusAndLedger, type RunInputs } from "./inputs.js";
import type { Output } from "./output.js";
import { runInputs, type RunLikeOptions } from "./run.js";
import type { Command } from "commander";
import { corpusOptions, positiveInt, profileOption } from "./options.js";
import { forceOption, reportOptions, RUN_EXIT_CODES } from "./run-options.js";

/** The node the fixture's builds are measured against in a regtest run (its side: "oracle:fixture"). */
export const FIXTURE_NODE = "fixture";

export interface RegtestOptions extends RunLikeOptions {
  /** The run's output folder: blocks.txt, regtest.json, and report.json unless --json says otherwise. */
  dir: string;
  blocks?: number;
  minerAddress?: string;
  shielded?: boolean;
  /** The wallet's transactions in the chain and the mempool (default on). */
  transact?: boolean;
  keepLogs?: boolean;
  /** A folder an earlier run wrote (blocks.txt, mempool.txt, regtest.json): its chain is replayed instead of mined. */
  replay?: string;
}

/** Where the chain that regtest goldens were recorded on is kept: <golden>/regtest/chain. */
export const goldenChainFolder = (goldenRoot: string) => join(goldenRoot, "regtest", "chain");

/**
 * The chain a run replays: --replay, or with --golden the chain its goldens were recorded
 * on (goldens of another chain could only drift). --record without --replay mines a new one.
 */
export function replayFolder(o: Pick<RegtestOptions, "replay" | "golden">): string | undefined {
  return o.replay ?? (o.golden !== undefined ? goldenChainFolder(o.golden) : undefined);
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
    throw new InputError(
      `chain profile ${profile.name}: ${wrong.map(([k, v]) => `${k} is ${JSON.stringify(v)} but the mined chain has ${JSON.stringify(chain[k])}`).join("; ")}`,
    );
  }
  const usable = Object.entries(chain).filter(([k, v]) => !(k.endsWith("_subtrees") && v === 0));
  // Read from the chain already: the run need not read it again from the oracle.
  return { ...profile, anchors: { ...Object.fromEntries(usable), ...profile.anchors }, discover: false };
}

/** The regtest.json document: the envelope, the chain zebrad mined and what each step took. */
export function regtestDocument(
  net: RegtestNetwork,
  recipe: RegtestRecipe,
  blocksFile: string,
  startedAt: Date,
  config: RunConfig,
  exitCode: number,
  replayedFrom?: string,
) {
  const t = net.timings;
  return {
    ...envelope("regtest", 1, { startedAt, chain: "regtest", builds: config.builds.map((b) => buildInfo(b, b.protocolVersion)) }, exitCode),
    oracle: net.zebrad.jsonrpc.url,
    blocksFile,
    tip: net.tip,
    activationHeights: recipe.activationHeights,
    ...(replayedFrom !== undefined ? { replayedFrom } : {}),
    timings: {
      zebradStartMs: Math.round(t.zebradStartMs),
      exportMs: Math.round(t.exportMs),
      ...(t.replayMs !== undefined ? { replayMs: Math.round(t.replayMs) } : {}),
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
  /** The folder whose chain was replayed, when it was not mined. */
  replayedFrom?: string;
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
  const from = replayFolder(o);
  if (from !== undefined && (o.blocks !== undefined || o.minerAddress !== undefined || o.shielded === false || o.transact === false)) {
    throw new InputError(
      `${o.replay !== undefined ? "--replay" : "--golden"} takes the chain as it was recorded: drop --blocks, --miner-address, --no-shielded and --no-transact`,
    );
  }
  if (o.golden !== undefined && o.record !== undefined) throw new InputError("--golden compares with goldens and --record writes them: give one");
  let replay: RegtestReplay | undefined;
  if (from !== undefined)
    refused(o.replay !== undefined ? "--replay" : "--golden", () => {
      replay = readReplay(from);
    });
  if (o.minerAddress !== undefined) refused("--miner-address", () => checkMinerAddress(o.minerAddress!));
  refused("--blocks", () => defaultRecipe({ blocks: o.blocks, shielded: o.shielded }));
  const recipe: RegtestRecipe = replay
    ? { activationHeights: replay.activationHeights, minerAddress: replay.transact?.miner ?? walletKeys().miner.address, stretches: [] }
    : defaultRecipe({ blocks: o.blocks, minerAddress: o.minerAddress ?? walletKeys().miner.address, shielded: o.shielded });
  mkdirSync(o.dir, { recursive: true });
  const blocksFile = join(o.dir, "blocks.txt");
  const transact = o.transact ?? true;
  if (transact && !replay) refused(o.minerAddress === undefined ? "--blocks" : "--miner-address", () => transactSplit(recipe));
  out.stderr(
    replay
      ? `Starting zebrad on regtest and replaying the ${replay.blocks.length - 1} blocks and ${replay.mempool.length} mempool transactions of ${from}…`
      : `Starting zebrad on regtest and mining ${recipe.stretches.reduce((n, s) => n + s.blocks, 0)} blocks…`,
  );
  const net = await startRegtestNetwork({
    recipe,
    blocksFile,
    keep: o.keepLogs,
    transact,
    ...(replay ? { replay } : {}),
    ...(o.profiles ? { profiles: o.profiles } : {}),
  });
  try {
    const t = net.timings;
    out.stderr(
      `zebrad ${net.zebrad.pin.version} answered in ${(t.zebradStartMs / 1000).toFixed(1)} s; ` +
        (t.replayMs !== undefined
          ? `${net.tip} blocks submitted in ${(t.replayMs / 1000).toFixed(1)} s`
          : t.stretches.map((s) => `${s.last - s.first + 1} ${s.pool} blocks in ${(s.ms / 1000).toFixed(1)} s`).join(", ")) +
        `; ${net.tip + 1} blocks exported to ${blocksFile} in ${(t.exportMs / 1000).toFixed(1)} s`,
    );
    if (net.transact) {
      out.stderr(
        `the wallet's transactions: ${net.transact.mined.map((t) => `${t.txid} at ${t.height}`).join(", ")}; in the mempool: ${net.transact.mempool.map((t) => t.txid).join(", ")}`,
      );
    }
    for (const note of net.notes) out.stderr(note);
    for (const [name, ms] of Object.entries(t.ingestMs)) out.stderr(`${name} ingested the chain to its tip in ${(ms / 1000).toFixed(1)} s`);
    const chain = regtestChainProfile(profile, chainAnchors(net.fixture.model));
    const source = { file: "(regtest network)", line: 0 };
    // The fixture's builds stand for servers backed by the fixture's own Zebra-style node,
    // the real ones for servers backed by zebrad: each is measured against its own node
    // (docs/fixture-vs-zebrad.md compares the two nodes, case by case, from this run).
    const fixtureBuilds = net.fixture.builds({ deadlineMs: await fixtureDeadlineMs(net.fixture) }).map((b) => ({ ...b, oracle: FIXTURE_NODE }));
    const config: RunConfig = {
      file: "(regtest network)",
      chain: chain.name,
      oracle: { jsonrpc: net.zebrad.jsonrpc, source },
      nodeOracles: { [FIXTURE_NODE]: { jsonrpc: { url: net.fixture.jsonrpc, auth: { kind: "cookie", cookieFile: net.fixture.cookie } }, source } },
      defaults: DEFAULT_LIMITS,
      builds: [...fixtureBuilds, ...net.realBuilds({ deadlineMs: REAL_DEADLINE_MS })],
    };
    // Goldens keep what real servers said: the real builds' answers, and zebrad's own JSON-RPC answers (the oracle's).
    const goldenSides = new Set([...config.builds.filter((b) => b.pin !== undefined).map((b) => b.name), ORACLE]);
    return {
      net,
      recipe,
      blocksFile,
      ...(from !== undefined ? { replayedFrom: from } : {}),
      inputs: { config, chain, ...loaded, goldenSides, network: { ...net.fixture, close: net.close } },
    };
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
  const doc = regtestDocument(got.net, got.recipe, got.blocksFile, startedAt, got.inputs.config, exitCode, got.replayedFrom);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  writeFileAtomic(join(o.dir, "regtest.json"), text);
  // A new chain recorded: kept beside its goldens, so that --golden replays the chain they were recorded on.
  if (o.record !== undefined && got.replayedFrom === undefined) {
    const keep = goldenChainFolder(o.record);
    mkdirSync(keep, { recursive: true });
    for (const name of [REPLAY_FILES.blocks, REPLAY_FILES.mempool]) writeFileAtomic(join(keep, name), readFileSync(join(o.dir, name)));
    writeFileAtomic(join(keep, REPLAY_FILES.document), text);
    out.stderr(`the chain these goldens were recorded on: ${keep} (zconform regtest --golden ${o.record} replays it)`);
  }
  return exitCode;
}

/** Declares `zconform regtest` on the program. */
export function registerRegtest(program: Command, io: Output): void {
  reportOptions(
    forceOption(
      corpusOptions(
        program
          .command("regtest")
          .description(
            "a wholly real network on this machine: zebrad mines a regtest chain (blocks written to <dir>/blocks.txt), real lightwalletd and zainod index its " +
              "JSON-RPC, the fixture serves the same blocks through the reference and the emulated profiles, and the whole corpus runs against zebrad's own " +
              "gRPC, the real indexers and the fixture, with zebrad's JSON-RPC as the oracle (report in <dir>/report.json unless --json, timings in <dir>/regtest.json)",
          )
          .addHelpText("after", RUN_EXIT_CODES)
          .option("--dir <dir>", "output folder for blocks.txt, mempool.txt, report.json and regtest.json", "regtest-out")
          .option("--blocks <n>", "blocks to mine (default 300; at least 40: NU6.1 activates at 30)", positiveInt)
          .option(
            "--replay <dir>",
            "replay the chain and mempool an earlier run wrote to its --dir (blocks.txt, mempool.txt, regtest.json) instead of mining: the same blocks byte for byte, for goldens",
          )
          .option(
            "--miner-address <address>",
            "regtest address the transparent coinbases pay (default the wallet's miner key, whose coinbases the chain's transactions spend; another address needs --no-transact)",
          )
          .option(
            "--no-transact",
            "mine no wallet transactions and leave the mempool empty (by default the wallet spends mature coinbases in blocks 105 and 106 and leaves two spends in zebrad's mempool)",
          )
          .option("--no-shielded", "pay every coinbase to the transparent miner address (no Orchard or Sapling coinbase; saves about 20 s of proving)")
          .addOption(profileOption("serve only these fixture profiles"))
          .option("--keep-logs", "keep the real servers' temporary folders (their logs) after the run")
          .option(
            "--golden [dir]",
            "replay the chain recorded in <dir>/regtest/chain (default folder: golden) and compare the real servers' answers with their goldens there",
          )
          .option(
            "--record <dir>",
            "write the real servers' answers (and zebrad's own JSON-RPC answers) as goldens under <dir>/regtest/; without --replay a new chain is mined and kept in <dir>/regtest/chain",
          ),
      ),
    ),
  ).action(async (opts) => {
    process.exitCode = await regtestCommand(
      { ...opts, ...(opts.golden === true ? { golden: "golden" } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) },
      io,
    );
  });
}
