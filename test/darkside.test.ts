// Real lightwalletd in darkside mode, fed every run of real blocks in the chain data,
// against the oracle over the same blocks: a second, independent producer of compact
// blocks (lightwalletd's own parser) checked against zconform's decoder and oracle.
// Without the lightwalletd binary the suite is skipped locally and fails under CI=true.

import { beforeAll, describe, expect } from "@jest/globals";
import { create, fromBinary } from "@bufbuild/protobuf";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CHAIN_DATA, chainPath, haveChainData, readChainText, readHexLines } from "./chain-data.js";
import { loadLedger } from "../src/core/ledger/quirk.js";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { parseFrontier } from "../src/zcash/fixture/chain/frontier.js";
import { CompactBlockSchema } from "../src/zcash/gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, CompactTxStreamer } from "../src/zcash/gen/walletrpc/service_pb.js";
import { darksideChainSources, type DarksideChain } from "../src/zcash/real/darkside-chains.js";
import { lightwalletdBinary, startDarkside } from "../src/zcash/real/darkside-process.js";
import { runDarkside, type DarksideChainReport } from "../src/zcash/real/darkside-run.js";
import { stageChain } from "../src/zcash/real/darkside.js";
import { darksideGate } from "./tools/real-gate.js";

const binary = lightwalletdBinary();
const ready = existsSync(binary) && haveChainData;
const darksideTest = darksideGate(binary);

const ledger = loadLedger(join(import.meta.dirname, "..", "cases", "quirks.yaml"));

describe("darkside lightwalletd over every run of real blocks", () => {
  const runs: { chain: DarksideChain; report: DarksideChainReport }[] = [];
  beforeAll(async () => {
    if (!ready) return;
    for (const s of darksideChainSources(CHAIN_DATA)) {
      const chain = s.load();
      runs.push({ chain, report: await runDarkside(s.label, chain, { binary, ledger }) });
    }
  }, 600_000);

  darksideTest("every block of the files is staged: each zebra vector (not the corrupt copy) and every line of lightwalletd's block files", () => {
    const zebra = ["mainnet", "testnet"].flatMap((net) =>
      readdirSync(chainPath("zebra", "blocks", net)).filter((n) => /^block-.*\.(txt|bin)$/.test(n) && !n.includes("-bad")),
    );
    const lwdLines = readHexLines("lightwalletd", "testnet-380640-380643.blocks.txt").length + readHexLines("lightwalletd", "mainnet-0-20.blocks.txt").length;
    const lwdSingles = readdirSync(chainPath("lightwalletd")).filter((n) => /^mainnet-\d+\.block\.txt$/.test(n)).length;
    expect(runs.reduce((n, r) => n + r.report.blocksStaged, 0)).toBe(zebra.length + lwdLines + lwdSingles);
    for (const { report } of runs) expect(report.blocks.equal + report.blocks.explained + report.blocks.unexplained).toBe(report.blocksStaged);
  });

  darksideTest("for every staged block, lightwalletd's GetBlock equals the oracle's byte for byte or each difference is explained", () => {
    const unexplained = runs.flatMap(({ report }) =>
      report.checks
        .filter((c) => c.result === "unexplained")
        .map((c) => ({ chain: report.chain, rpc: c.rpc, request: c.request, differences: c.differences.filter((d) => !d.explanation) })),
    );
    expect(unexplained).toEqual([]);
  });

  darksideTest(
    "block answers differ only where a known behaviour says so: darkside txids on v5+ transactions, darkside tree sizes where the oracle cannot know the tree, lightwalletd's empty transactions",
    () => {
      for (const { chain, report } of runs) {
        const hasV5 = chain.model.blocks.some((b) => b.block.transactions.some((tx) => tx.version >= 5));
        const treesKnown = chain.model.blocks.every((b) => b.trees !== undefined);
        const ids = new Set(Object.keys(report.explanations));
        expect({ chain: report.chain, txid: ids.has("darkside-txid") }).toEqual({ chain: report.chain, txid: hasV5 });
        if (treesKnown) expect({ chain: report.chain, treeSize: ids.has("darkside-tree-size") }).toEqual({ chain: report.chain, treeSize: false });
        for (const id of ids) expect(["darkside-txid", "darkside-tree-size", "lwd-nullifiers-keep-empty-txs"]).toContain(id);
      }
    },
  );

  darksideTest("GetTransaction: every transaction before v5 is found by its txid and equal; every v5 one is found by double-SHA256 and equal", () => {
    for (const { chain, report } of runs) {
      const txs = report.checks.filter((c) => c.rpc === "GetTransaction");
      expect(txs).toHaveLength(chain.model.blocks.reduce((n, b) => n + b.block.transactions.length, 0));
      const versions = chain.model.blocks.flatMap((b) => b.block.transactions.map((tx) => tx.version));
      txs.forEach((c, i) =>
        expect({ chain: report.chain, i, result: c.result }).toEqual({ chain: report.chain, i, result: versions[i]! >= 5 ? "explained" : "equal" }),
      );
    }
  });

  darksideTest("a real tree state before a run becomes Reset's start size, and the tree sizes then agree with the oracle", () => {
    const seeded = runs.filter((r) => r.chain.before !== undefined);
    expect(seeded.map((r) => r.report.chain)).toEqual(["zebra/testnet/1842421"]);
    expect(
      seeded[0]!.report.checks.filter((c) => c.rpc === "GetBlock").flatMap((c) => c.differences.filter((d) => d.path.startsWith("chainMetadata"))),
    ).toEqual([]);
  });
});

darksideTest("lightwalletd's Sapling tree size after mainnet 419201 is the size of the real tree state there", async () => {
  const source = darksideChainSources(CHAIN_DATA).find((s) => s.label === "zebra/mainnet/419199-419202")!;
  const { model } = source.load();
  const real = parseFrontier(readChainText("zebra", "treestate", "sapling-treestate-main-0-419-201.txt")).size;
  const lwd = await startDarkside({ binary });
  const target = grpcTarget({ url: lwd.grpcUrl });
  try {
    await stageChain(target, model, { log: lwd.log });
    const obs = await target.call(CompactTxStreamer.method.getBlock, create(BlockIDSchema, { height: 419201n }));
    expect(obs.code).toBe(0);
    expect(fromBinary(CompactBlockSchema, obs.messages[0]!).chainMetadata?.saplingCommitmentTreeSize).toBe(real);
  } finally {
    await target.close();
    await lwd.stop();
  }
});
