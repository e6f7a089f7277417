// Real transparent transactions on the regtest chain zebrad mines, built and signed by
// zconform's wallet, so that the address index, UTXOs, the mempool and a successful
// broadcast have real data to answer about. The recipe's transparent coinbases pay the
// wallet's "miner" key; once the first ones mature the wallet spends them to a second key
// ("other") and to a P2SH address, and back, with change and with several inputs; each
// round is mined into a block of its own inside the first transparent stretch (before
// any shielded coinbase). After the last block of the recipe two more spends are sent and
// left unmined, so the mempool holds real transactions while the run asks about it.

import { encodeTransparentAddress } from "../codec/index.js";
import { COINBASE_MATURITY, hash160, walletKey } from "../wallet/index.js";
import { RealServerError } from "./process.js";
import { mineRecipe, type MinedStretch, type RegtestRecipe } from "./regtest-chain.js";
import { RegtestWallet } from "./regtest-wallet.js";
import { waitInMempool, type RunningZebrad } from "./zebrad.js";

/** The two keys that trade on the chain; the recipe's miner address must be the first's. */
export const walletKeys = () => ({ miner: walletKey("miner", "regtest"), other: walletKey("other", "regtest") });

/** A P2SH address the chain pays once, so that script-hash addresses have history too: its redeem script is the other key's P2PKH script. */
export const p2shAddress = (): string => {
  const { other } = walletKeys();
  return encodeTransparentAddress({ kind: "p2sh", hash: hash160(other.scriptPubKey) }, other.network);
};

/**
 * The first round is sent at this tip: the coinbases of heights 1 to 5 are mature then
 * (a spend sent at tip t is mined at t + 1 at the earliest).
 */
export const FIRST_ROUND_TIP = COINBASE_MATURITY + 4;
/** Blocks the first transparent stretch needs: up to the first round, then one block per mined round. */
export const MIN_FIRST_STRETCH = FIRST_ROUND_TIP + 2;

export interface SentTransaction {
  /** What it does, e.g. "miner pays other from three coinbases". */
  label: string;
  txid: string;
  from: string;
  inputs: number;
  outputs: number;
  /** The block that holds it; absent while it waits in the mempool. */
  height?: number;
}

export interface TransactReport {
  miner: string;
  other: string;
  mined: SentTransaction[];
  /** Sent after the recipe's last block, in the order zebrad accepted them. */
  mempool: SentTransaction[];
  /** The mempool transactions as sent, in the same order (for the fixture's mempool). */
  mempoolRaw: Uint8Array[];
}

/** Where the recipe's first stretch is split: blocks before the first round, and after the last mined round. */
export function transactSplit(recipe: RegtestRecipe): { before: number; after: number } {
  const first = recipe.stretches[0];
  const { miner } = walletKeys();
  if (recipe.minerAddress !== miner.address) {
    throw new RangeError(
      `the chain's transactions spend coinbases paid to the wallet's miner address ${miner.address}, not ${recipe.minerAddress} (leave the miner address alone, or do without transactions)`,
    );
  }
  if (first?.pool !== "transparent" || first.address !== undefined) {
    throw new RangeError("the chain's transactions spend the coinbases of the recipe's first stretch, which must be transparent and pay the miner address");
  }
  if (first.blocks < MIN_FIRST_STRETCH) {
    throw new RangeError(
      `the chain's transactions need a first transparent stretch of at least ${MIN_FIRST_STRETCH} blocks (coinbases mature after ${COINBASE_MATURITY}); it has ${first.blocks}: mine more, or do without transactions`,
    );
  }
  return { before: FIRST_ROUND_TIP, after: first.blocks - MIN_FIRST_STRETCH };
}

/** Mines the recipe with the wallet's transactions in it and leaves the last ones in the mempool; the stretches as mined. */
export async function mineWithTransactions(z: RunningZebrad, recipe: RegtestRecipe): Promise<{ stretches: MinedStretch[]; transact: TransactReport }> {
  const split = transactSplit(recipe);
  const { miner, other } = walletKeys();
  const wallet = new RegtestWallet(z);
  const stretch = (blocks: number) => ({ ...recipe, stretches: [{ blocks, pool: "transparent" as const }] });
  const stretches = await mineRecipe(z, stretch(split.before));
  const mined: SentTransaction[] = [];

  const coinbases = await wallet.utxos(miner);
  const [cb1, cb2, cb3, cb4, cb5] = coinbases;
  if (!cb1 || !cb2 || !cb3 || !cb4 || !cb5)
    throw new RealServerError(
      `zebrad's getaddressutxos names ${coinbases.length} mature outputs of ${miner.address} at height ${FIRST_ROUND_TIP}, not the 5 its coinbases paid`,
    );
  const toOther = await wallet.send("miner pays other from one coinbase, change to itself", miner, [cb1], [{ address: other.address, value: cb1.value / 4n }]);
  const threeIn = cb2.value + cb3.value + cb4.value;
  const split3 = await wallet.send(
    "miner pays other twice and a P2SH address once from three coinbases, change to itself",
    miner,
    [cb2, cb3, cb4],
    [
      { address: other.address, value: threeIn / 5n },
      { address: other.address, value: threeIn / 10n },
      { address: p2shAddress(), value: threeIn / 20n },
    ],
  );
  mined.push(...(await wallet.mineBlock(stretches, [toOther, split3])));

  const received = await wallet.utxos(other);
  const [a, b] = [received.find((u) => u.txid === toOther.txid && u.index === 0), received.find((u) => u.txid === split3.txid && u.index === 0)];
  if (!a || !b)
    throw new RealServerError(
      `zebrad's getaddressutxos for ${other.address} lacks the outputs ${toOther.txid}:0 and ${split3.txid}:0 mined at ${mined[0]!.height}`,
    );
  const back = await wallet.send(
    "other pays miner back from two outputs, change to itself",
    other,
    [a, b],
    [{ address: miner.address, value: (a.value + b.value) / 2n }],
  );
  mined.push(...(await wallet.mineBlock(stretches, [back])));

  if (split.after > 0) stretches.push(...(await mineRecipe(z, stretch(split.after))));
  stretches.push(...(await mineRecipe(z, { ...recipe, stretches: recipe.stretches.slice(1) })));

  const left = (await wallet.utxos(other)).find((u) => u.txid === split3.txid && u.index === 1);
  const [cb6] = (await wallet.utxos(miner)).filter((u) => !wallet.sent.has(u.txid) && u.height > cb5.height);
  if (!left || !cb6)
    throw new RealServerError(
      `zebrad's getaddressutxos lacks ${split3.txid}:1 of ${other.address} or a mature coinbase of ${miner.address} above height ${cb5.height}`,
    );
  const first = await wallet.send(
    "other pays miner from one output, change to itself (left in the mempool)",
    other,
    [left],
    [{ address: miner.address, value: left.value / 2n }],
  );
  // The second spend's amount is chosen so that its txid ends in the same wire byte as the
  // first's: a one-byte exclude suffix then matches both, an ambiguous entry (GetMempoolTx).
  const second = await wallet.send(
    "miner pays other from one coinbase, change to itself (left in the mempool; its txid shares its last byte with the other's)",
    miner,
    [cb6],
    [{ address: other.address, value: cb6.value / 3n }],
    (spend) => spend.txid.slice(0, 2) === first.txid.slice(0, 2),
  );
  const pending = [first, second];
  await waitInMempool(
    z,
    pending.map((p) => p.txid),
  );
  return {
    stretches,
    transact: { miner: miner.address, other: other.address, mined, mempool: pending.map(({ raw: _raw, ...t }) => t), mempoolRaw: pending.map((p) => p.raw) },
  };
}
