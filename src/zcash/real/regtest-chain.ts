// The regtest chain zconform mines with real zebrad: which upgrades activate where, and
// which stretches of blocks pay their coinbase to which address. Overwinter through
// Canopy activate at height 1: zebrad 7.0.0 builds no block template before Canopy
// ("Zebra does not support generating pre-Canopy block templates"; with Heartwood above
// height 1 `generate` even panics in DefaultRoots::from_coinbase, "history root is
// required for block templates"). NU5, NU6 and NU6.1 follow, each at its own height so
// the blocks on either side of every boundary exist; a long transparent stretch follows
// (its coinbase outputs mature after 100 blocks, for wallets that spend them), then
// coinbases paid to an Orchard receiver and to a Sapling address, so compact blocks carry
// shielded outputs. NU6.2 and later stay unscheduled: NU6.3 brings v6 transactions, which
// the decoder does not read.
//
// The chain is not reproducible: zebrad's `generate` writes random bytes into every
// coinbase (so that forks never share a transaction), hence block hashes differ per run.

import { AddressError, decodeTransparentAddress } from "../codec/address.js";
import { regtest, type Upgrade } from "../codec/network.js";
import type { RunningZebrad } from "./zebrad.js";

/**
 * zebrad 7.0.0's default regtest miner addresses (zebra-rpc 19.0.0,
 * src/config/mining.rs, MINER_ADDRESS for NetworkKind::Regtest): valid regtest encodings
 * whose keys nobody here holds.
 */
export const ZEBRA_REGTEST_ADDRESSES = {
  transparent: "tmJymvcUCn1ctbghvTJpXBwHiMEB8P6wxNV",
  sapling: "zregtestsapling1xl84ekz6stprmvrp39s77mf9t953nqjndwlcjtzfrr3cgjjez87639xm4u9pfuvylrhecx0c2j8",
  unified:
    "uregtest1efxggx6lduhm2fx5lnrhxv7h7kpztlpa3ahf3n4w0q0zj5epj4av9xjq6ljsja3xk8z7rzd067kc7mgpy9448rdfzpfjz5gq389zdmpgnk6rp4ykk0xk6cmqw6zqcrnmsuaxv3yzsvcwsd4gagtalh0uzrdvy03nhmltjz2eu0232qlcs0zvxuqyut73yucd9gy5jaudnyt7yqhgpqv",
} as const;

export interface Stretch {
  blocks: number;
  /** Where the coinbase pays; absent: the node's configured miner address. */
  address?: string;
  /** The pool the coinbase pays into. */
  pool: "transparent" | "orchard" | "sapling";
}

export interface RegtestRecipe {
  activationHeights: Partial<Record<Upgrade, number>>;
  /** The configured miner address (transparent). */
  minerAddress: string;
  stretches: Stretch[];
}

export const DEFAULT_ACTIVATION_HEIGHTS: Readonly<Partial<Record<Upgrade, number>>> = Object.freeze({
  overwinter: 1,
  sapling: 1,
  blossom: 1,
  heartwood: 1,
  canopy: 1,
  nu5: 10,
  nu6: 20,
  nu6_1: 30,
});

/** `blocks` in all: the transparent stretch, one Orchard and one Sapling coinbase (each takes seconds of proving), one more transparent block. */
export function defaultRecipe(o: { blocks?: number; minerAddress?: string; shielded?: boolean } = {}): RegtestRecipe {
  const shielded = o.shielded ?? true;
  const blocks = o.blocks ?? 300;
  const tail: Stretch[] = shielded
    ? [
        { blocks: 1, address: ZEBRA_REGTEST_ADDRESSES.unified, pool: "orchard" },
        { blocks: 1, address: ZEBRA_REGTEST_ADDRESSES.sapling, pool: "sapling" },
        { blocks: 1, pool: "transparent" },
      ]
    : [];
  const head = blocks - tail.reduce((n, s) => n + s.blocks, 0);
  if (o.minerAddress !== undefined) checkMinerAddress(o.minerAddress);
  const last = Math.max(...Object.values(DEFAULT_ACTIVATION_HEIGHTS));
  if (head <= last) throw new RangeError(`a regtest chain of ${blocks} blocks ends before every upgrade is active (the last activates at ${last}); mine more`);
  return {
    activationHeights: { ...DEFAULT_ACTIVATION_HEIGHTS },
    minerAddress: o.minerAddress ?? ZEBRA_REGTEST_ADDRESSES.transparent,
    stretches: [{ blocks: head, pool: "transparent" }, ...tail],
  };
}

/**
 * The miner address must be a regtest transparent address: zebrad drops a miner address of
 * another network without a word and then refuses every `generate` ("miner parameters
 * are required for get_block_template").
 */
export function checkMinerAddress(address: string): void {
  try {
    decodeTransparentAddress(address, regtest);
  } catch (e) {
    if (!(e instanceof AddressError)) throw e;
    throw new RangeError(`the miner address must be a regtest transparent address (tm… or t2…): ${e.message}`);
  }
}

export interface MinedStretch extends Stretch {
  /** Heights of its first and last block. */
  first: number;
  last: number;
  ms: number;
}

/** Mines the recipe's stretches in order on a fresh node (tip 0); what each took. */
export async function mineRecipe(z: RunningZebrad, recipe: RegtestRecipe): Promise<MinedStretch[]> {
  const mined: MinedStretch[] = [];
  let tip = await z.rpc<number>("getblockcount");
  for (const s of recipe.stretches) {
    const t0 = performance.now();
    await z.mine(s.blocks, s.address);
    mined.push({ ...s, first: tip + 1, last: tip + s.blocks, ms: performance.now() - t0 });
    tip += s.blocks;
  }
  return mined;
}

/** Every block from genesis to the tip as raw hex (`getblock <h> 0`), in height order. */
export async function exportBlocks(z: RunningZebrad): Promise<string[]> {
  const tip = await z.rpc<number>("getblockcount");
  const out: string[] = [];
  for (let h = 0; h <= tip; h++) out.push(await z.rpc<string>("getblock", [String(h), 0]));
  return out;
}
