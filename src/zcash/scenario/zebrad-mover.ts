// A regtest zebrad as a scenario's chain mover (core/scenario/mover.ts), through its own
// JSON-RPC only (the fixture's moving node answers the same methods, so tests drive it too): `generate` mines on the tip (zebra-rpc 19.0.0 randomizes each coinbase's data,
// so a block replacing another at the same height has another hash), the wallet signs and
// `sendrawtransaction` sends, and `invalidateblock` drops the blocks a reorganization
// replaces. zebrad 7.0.0 puts no transaction of a dropped block back in its mempool (on a
// best-chain switch it re-verifies only what its mempool held: zebrad components/mempool.rs),
// so a transaction the new branch carries is sent again before it is mined.
//
// A real node's chain only moves forward: `reset` does not take the chain back (every
// indexer would then serve blocks the node dropped until it noticed), it mines what the
// last scenario left pending so the next one starts on an empty mempool.

import type { ChainMover, Reorganization, TipId } from "../../core/scenario/mover.js";
import { RealServerError } from "../real/process.js";
import { RegtestWallet } from "../real/regtest-wallet.js";
import { walletKeys } from "../real/regtest-transact.js";
import type { NodeCall } from "../real/node-call.js";
import { waitInMempool } from "../real/zebrad.js";

interface ChainInfo {
  blocks: number;
  bestblockhash: string;
}

/** How long the node may take to show a change it already answered for (a tip after invalidateblock). */
const SETTLE_MS = 30_000;

export function zebradMover(rpc: NodeCall): ChainMover {
  const z = { rpc, mine: (n: number) => rpc<string[]>("generate", [n]) };
  const wallet = new RegtestWallet(z);
  const { miner, other } = walletKeys();
  /** Outpoints ("txid:index") the wallet's sends spent: getaddressutxos lists outputs of mined blocks only. */
  const spent = new Set<string>();

  const tip = async (): Promise<TipId> => {
    const info = await z.rpc<ChainInfo>("getblockchaininfo");
    return { height: info.blocks, hash: info.bestblockhash };
  };
  const untilTip = async (wanted: TipId): Promise<TipId> => {
    const deadline = performance.now() + SETTLE_MS;
    for (;;) {
      const now = await tip();
      if (now.height === wanted.height && now.hash === wanted.hash) return now;
      if (performance.now() > deadline)
        throw new RealServerError(`zebrad's tip is ${now.height} ${now.hash}, still not ${wanted.height} ${wanted.hash} after ${SETTLE_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const mineOne = async (): Promise<TipId> => {
    const [hash] = await z.mine(1);
    const block = await z.rpc<{ height: number }>("getblock", [hash, 1]);
    return untilTip({ height: block.height, hash: hash! });
  };

  return {
    tip,
    mine: mineOne,
    send: async () => {
      const utxo = (await wallet.utxos(miner)).find((u) => !spent.has(`${u.txid}:${u.index}`));
      if (!utxo) throw new RealServerError(`the wallet's miner address ${miner.address} has no mature output left to spend on zebrad's chain`);
      spent.add(`${utxo.txid}:${utxo.index}`);
      const sent = await wallet.send(
        "a scenario's transaction: miner pays other, change to itself",
        miner,
        [utxo],
        [{ address: other.address, value: utxo.value / 4n }],
      );
      await waitInMempool(z, [sent.txid]);
      return sent.txid;
    },
    reorg: async (depth, include): Promise<Reorganization> => {
      const before = await tip();
      const forkPoint = before.height - depth;
      if (depth < 1 || forkPoint < 0) throw new RangeError(`a reorganization of depth ${depth} at tip ${before.height}`);
      const orphaned: string[] = [];
      for (let h = forkPoint + 1; h <= before.height; h++) orphaned.push(await z.rpc<string>("getblockhash", [h]));
      const forkHash = await z.rpc<string>("getblockhash", [forkPoint]);
      const again = await Promise.all(include.map((txid) => z.rpc<string>("getrawtransaction", [txid, 0])));
      await z.rpc("invalidateblock", [orphaned[0]]);
      await untilTip({ height: forkPoint, hash: forkHash });
      for (const hex of again) await z.rpc("sendrawtransaction", [hex]);
      await waitInMempool(z, include);
      let now = before;
      for (let i = 0; i <= depth; i++) now = await mineOne();
      return { forkPoint, orphaned, tip: now };
    },
    reset: async () => {
      for (let i = 0; i < 3 && (await z.rpc<string[]>("getrawmempool")).length > 0; i++) await mineOne();
    },
  };
}
