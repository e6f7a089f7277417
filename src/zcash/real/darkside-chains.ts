// The runs of real blocks darkside lightwalletd is fed: every consecutive run in the
// chain-data folder (the lightwalletd test files, and zebra's block vectors grouped into
// runs of consecutive heights, a lone block being a run of one). Network and heights come
// from the file names and are checked against the blocks by loadRealChain.
//
// Note commitment tree sizes: a run that contains a pool's activation block knows the
// pool's tree from there (it starts empty). A run that starts later knows it only when a
// real tree state of the block before it exists — a wallet-sdk checkpoint at that height,
// whose hash must be the first block's prevHash; its sizes go to Reset and to the fixture.
// Tree roots are never compared here (the fixture's stand-in node hash makes them unreal).

import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { INPUT_LIMITS, readInputText } from "../../core/io/input-limits.js";
import { displayHex, networkByName, type NetworkName } from "../codec/index.js";
import { chainFromBlocks } from "../fixture/chain/from-blocks.js";
import { parseFrontier } from "../fixture/chain/frontier.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { loadRealChain, readBlockFile } from "../fixture/chain/real.js";
import type { TreeModel } from "../fixture/chain/trees.js";

export interface TreeSizesBefore {
  sapling: number;
  orchard: number;
}

export interface DarksideChain {
  model: ChainModel;
  /** Tree sizes before the first block, from a real tree state; absent when none is known. */
  before?: TreeSizesBefore;
  /** Where `before` came from. */
  beforeSource?: string;
}

export interface DarksideChainSource {
  /** What reports call it: the file, or the folder with the height range. */
  label: string;
  load(): DarksideChain;
}

interface Checkpoint {
  file: string;
  hash: string;
  saplingTree: string;
  orchardTree?: string;
}

/** The wallet-sdk checkpoint at `height`, if chain-data has one. */
function checkpointAt(chainData: string, network: NetworkName, height: number): Checkpoint | undefined {
  const file = join(chainData, "wallet-sdk-checkpoints", network, `${height}.json`);
  if (!existsSync(file)) return undefined;
  const j = JSON.parse(readInputText(file, INPUT_LIMITS.checkpointBytes, "the checkpoint")) as Record<string, unknown>;
  if (typeof j.hash !== "string" || typeof j.saplingTree !== "string") throw new Error(`${file}: expected string fields hash and saplingTree`);
  return { file, hash: j.hash, saplingTree: j.saplingTree, ...(typeof j.orchardTree === "string" ? { orchardTree: j.orchardTree } : {}) };
}

/** Loads a run with what chain-data knows about its trees before its first block. */
function withTrees(chainData: string, network: NetworkName, firstHeight: number, load: (trees: TreeModel) => ChainModel): DarksideChain {
  const cp = firstHeight > 0 ? checkpointAt(chainData, network, firstHeight - 1) : undefined;
  if (!cp) return { model: load({}) };
  const start = { sapling: cp.saplingTree, ...(cp.orchardTree !== undefined ? { orchard: cp.orchardTree } : {}) };
  const model = load({ start });
  const prev = displayHex(model.blocks[0]!.block.header.prevHash);
  if (prev !== cp.hash) throw new Error(`${cp.file}: the tree state is of block ${cp.hash}, but block ${firstHeight} follows ${prev}`);
  const before = { sapling: parseFrontier(cp.saplingTree).size, orchard: cp.orchardTree !== undefined ? parseFrontier(cp.orchardTree).size : 0 };
  return { model, before, beforeSource: cp.file };
}

const ZEBRA_NAME = /^block-(main|test)-(\d)-(\d{3})-(\d{3})\.(?:txt|bin)$/;

/** zebra's vectors in one folder as runs of consecutive heights (corrupt `-bad` copies left out). */
export function zebraRuns(chainData: string, network: NetworkName): DarksideChainSource[] {
  const dir = join(chainData, "zebra", "blocks", network);
  const heights = readdirSync(dir)
    .map((name) => ZEBRA_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(`${m[2]}${m[3]}${m[4]}`))
    .sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const h of heights) {
    const last = runs[runs.length - 1];
    if (last && h === last[1] + 1) last[1] = h;
    else runs.push([h, h]);
  }
  return runs.map(([from, to]) => ({
    label: `zebra/${network}/${from === to ? from : `${from}-${to}`}`,
    load: () => withTrees(chainData, network, from, (trees) => loadRealChain(dir, { network, from, to, trees, label: `zebra ${network} ${from}-${to}` })),
  }));
}

/** One block per file, the files in the given order, as one chain starting at `first`. */
function fileRun(chainData: string, names: readonly string[], network: NetworkName, first: number, label: string): DarksideChainSource {
  const dir = join(chainData, "lightwalletd");
  return {
    label,
    load: () =>
      withTrees(chainData, network, first, (trees) =>
        chainFromBlocks(
          names.flatMap((n) => readBlockFile(join(dir, n))),
          { network: networkByName(network), label, trees },
        ),
      ),
  };
}

/** Every run the chain-data folder offers; an error names what is missing. */
export function darksideChainSources(chainData: string): DarksideChainSource[] {
  const lwd = join(chainData, "lightwalletd");
  const zebra = join(chainData, "zebra", "blocks");
  for (const p of [lwd, join(zebra, "mainnet"), join(zebra, "testnet")]) {
    if (!existsSync(p)) throw new Error(`${p}: missing (chain data expected in ${chainData})`);
  }
  const file = (name: string, network: NetworkName, first: number): DarksideChainSource => ({
    label: `lightwalletd/${name}`,
    load: () => withTrees(chainData, network, first, (trees) => loadRealChain(join(lwd, name), { network, trees, label: name })),
  });
  return [
    file("testnet-380640-380643.blocks.txt", "testnet", 380640),
    file("mainnet-0-20.blocks.txt", "mainnet", 0),
    fileRun(
      chainData,
      [380640, 380641, 380642, 380643].map((h) => `mainnet-${h}.block.txt`),
      "mainnet",
      380640,
      "lightwalletd/mainnet-380640..380643.block.txt",
    ),
    ...zebraRuns(chainData, "mainnet"),
    ...zebraRuns(chainData, "testnet"),
  ];
}

/**
 * A chain from a file or folder given on the command line. Trees are known from a pool's
 * activation on when the run contains it; no tree state before the run is looked for.
 */
export function darksideChainFromPath(path: string): DarksideChainSource {
  return { label: basename(path), load: () => ({ model: loadRealChain(path, { trees: {} }) }) };
}
