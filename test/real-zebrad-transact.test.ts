// Real zebrad (the zebrad pin of real-servers.yaml) mines a regtest chain whose coinbases
// pay the wallet's miner key, takes the wallet's spends into blocks and into its mempool,
// and says through its own JSON-RPC that they landed where zconform says; then a fresh
// spend goes through SendTransaction of zebrad's own server, real lightwalletd and real
// zainod (those installed), and each must be accepted into zebrad's mempool. Without the
// binary the suite is skipped, under CI=true too: a cargo build of zebrad takes over an
// hour on two cores, longer than CI can wait, so CI runs it only where the machine already
// has it (npm run real:install -- --only zebrad).

import { create, fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { regtestDocument } from "../src/cli/regtest.js";
import type { RunConfig } from "../src/core/targets/config.js";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { decodeTransaction, hexToBytes, isCoinbase } from "../src/zcash/codec/index.js";
import { regtestWith } from "../src/zcash/codec/network.js";
import { chainAnchors, chainFromBlocks } from "../src/zcash/fixture/chain/index.js";
import { CompactTxStreamer, RawTransactionSchema, SendResponseSchema } from "../src/zcash/gen/walletrpc/service_pb.js";
import type { RunningRealServer } from "../src/zcash/real/lightwalletd.js";
import { loadPins } from "../src/zcash/real/pins.js";
import { realGate } from "./tools/real-gate.js";
import { realBuildName, startIndexers } from "../src/zcash/real/servers.js";
import type { RegtestNetwork } from "../src/zcash/real/regtest-network.js";
import { buildTransparentSpend, matureUtxos } from "../src/zcash/wallet/index.js";
import { schemaErrors } from "./schemas.test-helper.js";
import { defaultRecipe, exportBlocks } from "../src/zcash/real/regtest-chain.js";
import { MIN_FIRST_STRETCH, mineWithTransactions, p2shAddress, walletKeys, type TransactReport } from "../src/zcash/real/regtest-transact.js";
import { startZebrad, type RunningZebrad } from "../src/zcash/real/zebrad.js";
import type { MinedStretch } from "../src/zcash/real/regtest-chain.js";

const { pin, installed, realTest } = realGate("zebrad");

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
  const indexers: RunningRealServer[] = [];

  beforeAll(async () => {
    if (!installed) return;
    z = await startZebrad(pin, { minerAddress: recipe.minerAddress, activationHeights: recipe.activationHeights });
    ({ stretches, transact: report } = await mineWithTransactions(z, recipe));
    const tip = await z.rpc<number>("getblockcount");
    for (const note of await startIndexers(loadPins(), ["lightwalletd", "zainod"], z.nodeRpc(), { tip }, indexers)) {
      console.warn(`SendTransaction not checked there: ${note}`);
    }
  }, 600_000);
  afterAll(async () => {
    await Promise.all(indexers.map((s) => s.close()));
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

  realTest("the anchors the run reads from the exported blocks and the mempool name the wallet's addresses and transactions", async () => {
    const blocks = (await exportBlocks(z)).map((h) => hexToBytes(h));
    const model = chainFromBlocks(blocks, { network: regtestWith(recipe.activationHeights), label: "regtest", trees: {}, mempool: report.mempoolRaw });
    const a = chainAnchors(model);
    // The first transaction after the coinbase of the first block the wallet's spends landed in, in zebrad's own order.
    const firstSpend = (await z.rpc<{ tx: string[] }>("getblock", [String(report.mined[0]!.height), 1])).tx[1];
    expect({
      taddr_with_utxos: a.taddr_with_utxos,
      taddr_spent: a.taddr_spent,
      taddr_p2sh: a.taddr_p2sh,
      txid_transparent: a.txid_transparent,
      block_with_transparent_spends: a.block_with_transparent_spends,
      txid_mempool: a.txid_mempool,
      mempool_size: a.mempool_size,
    }).toEqual({
      taddr_with_utxos: miner.address,
      taddr_spent: other.address,
      taddr_p2sh: p2shAddress(),
      txid_transparent: firstSpend,
      block_with_transparent_spends: report.mined[0]!.height,
      txid_mempool: report.mempool[0]!.txid,
      mempool_size: report.mempool.length,
    });
  });

  realTest("regtest.json's transactions follow schemas/regtest.schema.json", () => {
    const net = {
      zebrad: z,
      tip: MIN_FIRST_STRETCH + 20,
      timings: { zebradStartMs: z.startMs, stretches, exportMs: 0, ingestMs: {} },
      notes: [],
      transact: report,
    };
    const doc = regtestDocument(net as unknown as RegtestNetwork, recipe, "blocks.txt", new Date(), { builds: [] } as unknown as RunConfig, 0);
    expect(schemaErrors("regtest", doc)).toEqual([]);
    expect(doc.transactions?.mempool.map((t) => t.txid)).toEqual(report.mempool.map((t) => t.txid));
  });

  // Last: it adds to zebrad's mempool. Each server gets a spend of its own (one mempool
  // behind them all would reject the same bytes a second time).
  realTest(
    "a fresh valid spend sent with SendTransaction through zebrad's own server, lightwalletd and zainod is accepted and reaches zebrad's mempool",
    async () => {
      const servers = [{ name: realBuildName(pin), grpcUrl: z.grpcUrl }, ...indexers.map((s) => ({ name: realBuildName(s.pin), grpcUrl: s.grpcUrl }))];
      const info = await z.rpc<{ blocks: number; consensus: { nextblock: string } }>("getblockchaininfo");
      // Coinbases 1 to 4 are spent in blocks, 6 by the mempool (the first above 5, which stays unspent).
      const coins = matureUtxos(await utxos(miner.address), info.blocks)
        .filter((u) => u.height > 6)
        .sort((x, y) => x.height - y.height);
      for (const [i, server] of servers.entries()) {
        const coin = coins[i]!;
        const spend = buildTransparentSpend({
          utxos: [coin],
          key: miner,
          outputs: [{ address: other.address, value: coin.value / 2n }],
          branchId: Number.parseInt(info.consensus.nextblock, 16),
          expiryHeight: info.blocks + 40,
        });
        const target = grpcTarget({ url: server.grpcUrl });
        try {
          const obs = await target.call(CompactTxStreamer.method.sendTransaction, create(RawTransactionSchema, { data: spend.raw }), { deadlineMs: 30_000 });
          expect([server.name, obs.code, obs.message]).toEqual([server.name, 0, ""]);
          const answer = fromBinary(SendResponseSchema, obs.messages[0]!);
          // Every server names the txid (lightwalletd v0.5.4 as the node's JSON string, quotes included).
          expect([server.name, answer.errorCode, answer.errorMessage.includes(spend.txid)]).toEqual([server.name, 0, true]);
          // The same bytes again: every server refuses them, in a SendResponse or as a gRPC error.
          const again = await target.call(CompactTxStreamer.method.sendTransaction, create(RawTransactionSchema, { data: spend.raw }), { deadlineMs: 30_000 });
          const refusal = again.code === 0 ? fromBinary(SendResponseSchema, again.messages[0]!).errorMessage : again.message;
          // Zaino 0.9.0 loses the node's words on a send error (its error shaping, ledger zaino-send-rejection-internal).
          const passedOn =
            server.name === "zaino 0.9.0 (real)"
              ? "InternalServerError: error receiving data from backing node"
              : expect.stringContaining("transaction already exists in mempool");
          expect([server.name, refusal]).toEqual([server.name, passedOn]);
        } finally {
          await target.close();
        }
        const deadline = performance.now() + 30_000;
        while (!(await z.rpc<string[]>("getrawmempool")).includes(spend.txid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        expect([server.name, (await z.rpc<string[]>("getrawmempool")).includes(spend.txid)]).toEqual([server.name, true]);
      }
    },
  );
});
