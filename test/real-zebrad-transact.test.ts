// Real zebrad (the zebrad pin of real-servers.yaml) mines a regtest chain whose coinbases
// pay the wallet's miner key, takes the wallet's spends into blocks and into its mempool,
// and says through its own JSON-RPC that they landed where zconform says. Without the
// binary the suite is skipped, under CI=true too: a cargo build of zebrad takes over an
// hour on two cores, longer than CI can wait, so CI runs it only where the machine already
// has it (npm run real:install -- --only zebrad).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { decodeTransaction, hexToBytes, isCoinbase } from "../src/zcash/codec/index.js";
import { binaryPath, isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { defaultRecipe } from "../src/zcash/real/regtest-chain.js";
import { MIN_FIRST_STRETCH, mineWithTransactions, p2shAddress, walletKeys, type TransactReport } from "../src/zcash/real/regtest-transact.js";
import { startZebrad, type RunningZebrad } from "../src/zcash/real/zebrad.js";
import type { MinedStretch } from "../src/zcash/real/regtest-chain.js";

const pin = pinsOf(loadPins(), "zebrad")[0]!;
const installed = isInstalled(pin);
if (!installed) {
  console.warn(`skipped: real zebrad ${pin.version} is not installed at ${binaryPath(pin)} (npm run real:install -- --only zebrad; `
    + "its cargo build takes over an hour, longer than CI waits, so CI skips this suite too)");
}
const realTest = installed ? test : test.skip;

interface ZebraUtxo {
  txid: string;
  outputIndex: number;
  satoshis: number;
  height: number;
}

describe(`the wallet's transactions on real zebrad ${pin.version}`, () => {
  const { miner, other } = walletKeys();
  // The shortest chain with every transaction round, without the seconds of shielded proving.
  const recipe = defaultRecipe({ blocks: MIN_FIRST_STRETCH + 20, minerAddress: miner.address, shielded: false });
  let z: RunningZebrad;
  let report: TransactReport;
  let stretches: MinedStretch[];

  beforeAll(async () => {
    if (!installed) return;
    z = await startZebrad(pin, { minerAddress: recipe.minerAddress, activationHeights: recipe.activationHeights });
    ({ stretches, transact: report } = await mineWithTransactions(z, recipe));
  }, 600_000);
  afterAll(async () => {
    await z?.close();
  });

  const utxos = (address: string) => z.rpc<ZebraUtxo[]>("getaddressutxos", [{ addresses: [address] }]);
  const txids = (address: string) => z.rpc<string[]>("getaddresstxids", [{ addresses: [address], start: 1, end: recipe.stretches[0]!.blocks }]);

  realTest("the recipe's blocks are all mined, the rounds as blocks of their own inside the transparent stretch", async () => {
    expect(await z.rpc<number>("getblockcount")).toBe(MIN_FIRST_STRETCH + 20);
    expect(stretches.reduce((n, s) => n + s.blocks, 0)).toBe(MIN_FIRST_STRETCH + 20);
    expect(stretches.every((s) => s.pool === "transparent")).toBe(true);
    expect([...new Set(report.mined.map((t) => t.height))]).toEqual([MIN_FIRST_STRETCH - 1, MIN_FIRST_STRETCH]);
  });

  realTest("every mined transaction is in the block the report names, and its inputs are what the report says", async () => {
    for (const t of report.mined) {
      const block = await z.rpc<{ tx: string[] }>("getblock", [String(t.height), 1]);
      expect(block.tx).toContain(t.txid);
      const tx = decodeTransaction(hexToBytes(await z.rpc<string>("getrawtransaction", [t.txid, 0])));
      expect(isCoinbase(tx)).toBe(false);
      expect([tx.vin.length, tx.vout.length]).toEqual([t.inputs, t.outputs]);
    }
    expect(report.mined.some((t) => t.inputs > 1)).toBe(true);
  });

  realTest("zebrad's mempool holds exactly the transactions left unmined", async () => {
    expect((await z.rpc<string[]>("getrawmempool")).sort()).toEqual(report.mempool.map((t) => t.txid).sort());
    expect(report.mempool.every((t) => t.height === undefined)).toBe(true);
    expect(report.mempoolRaw).toHaveLength(report.mempool.length);
  });

  realTest("both addresses have several transactions in zebrad's address index, and the other address's history includes spends", async () => {
    const minerTxids = await txids(miner.address);
    const otherTxids = await txids(other.address);
    for (const t of report.mined) {
      expect(minerTxids).toContain(t.txid);
      expect(otherTxids).toContain(t.txid);
    }
    expect(otherTxids.length).toBe(report.mined.length);
    // The other address received three outputs and spent two of them back: one remains, plus its change.
    const otherUtxos = await utxos(other.address);
    const spentByBack = report.mined.find((t) => t.from === other.address)!;
    expect(otherUtxos.map((u) => u.txid).sort()).toEqual([report.mined[1]!.txid, spentByBack.txid].sort());
  });

  realTest("the P2SH address holds the one output paid to it", async () => {
    const [utxo, ...more] = await utxos(p2shAddress());
    expect(more).toEqual([]);
    expect(utxo!.txid).toBe(report.mined[1]!.txid);
  });

  realTest("the miner's spent coinbases are gone from its UTXOs, and its change and the payment back are there", async () => {
    const minerUtxos = await utxos(miner.address);
    const spent = [1, 2, 3, 4].map(async (h) => (await z.rpc<{ tx: string[] }>("getblock", [String(h), 1])).tx[0]!);
    const spentTxids = await Promise.all(spent);
    expect(minerUtxos.filter((u) => spentTxids.includes(u.txid))).toEqual([]);
    for (const t of report.mined) expect(minerUtxos.some((u) => u.txid === t.txid)).toBe(true);
    expect(minerUtxos.filter((u) => u.height === 5)).toHaveLength(1);
  });
});
