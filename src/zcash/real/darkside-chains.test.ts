// Which runs of real blocks exist in the chain data, and what is known about their trees.

import { describe, expect, test } from "@jest/globals";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHAIN_DATA, chainTest } from "../../../test/chain-data.js";
import { INPUT_LIMITS } from "../../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../../core/io/oversized.test-helper.js";
import { darksideChainSources, zebraRuns } from "./darkside-chains.js";

describe("darkside chain sources", () => {
  chainTest("zebra's vectors group into runs of consecutive heights; the corrupt copy is left out", () => {
    const labels = zebraRuns(CHAIN_DATA, "mainnet").map((r) => r.label);
    expect(labels).toContain("zebra/mainnet/0-10");
    expect(labels).toContain("zebra/mainnet/419199-419202");
    expect(labels).toContain("zebra/mainnet/202");
    const run = zebraRuns(CHAIN_DATA, "mainnet")
      .find((r) => r.label === "zebra/mainnet/419199-419202")!
      .load();
    expect(run.model.blocks.map((b) => b.height)).toEqual([419199, 419200, 419201, 419202]);
  });

  chainTest("a run containing Sapling's activation knows the Sapling tree from it; a later run does not", () => {
    const all = darksideChainSources(CHAIN_DATA);
    const load = (label: string) => all.find((s) => s.label === label)!.load();
    expect(load("zebra/mainnet/419199-419202").model.blocks.map((b) => b.trees?.sapling?.size)).toEqual([undefined, 0, 5, 7]);
    expect(load("zebra/mainnet/653599-653601").model.blocks.every((b) => b.trees === undefined)).toBe(true);
  });

  chainTest("a wallet-sdk checkpoint at the block before a run gives the start sizes, once its hash is that block's", () => {
    const run = darksideChainSources(CHAIN_DATA)
      .find((s) => s.label === "zebra/testnet/1842421")!
      .load();
    expect(run.before).toEqual({
      sapling: run.model.blocks[0]!.trees!.sapling!.size - run.model.blocks[0]!.block.transactions.reduce((n, tx) => n + (tx.sapling?.outputs.length ?? 0), 0),
      orchard: 0,
    });
    expect(run.beforeSource).toMatch(/wallet-sdk-checkpoints\/testnet\/1842420\.json$/);

    const copy = mkdtempSync(join(tmpdir(), "zconform-chain-data-"));
    try {
      cpSync(CHAIN_DATA, copy, { recursive: true });
      const file = join(copy, "wallet-sdk-checkpoints", "testnet", "1842420.json");
      writeFileSync(file, JSON.stringify({ hash: "00".repeat(32), saplingTree: "000000", orchardTree: "000000" }));
      const bad = darksideChainSources(copy).find((s) => s.label === "zebra/testnet/1842421")!;
      expect(() => bad.load()).toThrow(`${file}: the tree state is of block ${"00".repeat(32)}, but block 1842421 follows`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  chainTest("a wallet-sdk checkpoint over the size limit is named with the limit when its run loads, before it is read", () => {
    const copy = mkdtempSync(join(tmpdir(), "zconform-chain-data-"));
    try {
      cpSync(CHAIN_DATA, copy, { recursive: true });
      const file = sparseFile(join(copy, "wallet-sdk-checkpoints", "testnet", "1842420.json"));
      const run = darksideChainSources(copy).find((s) => s.label === "zebra/testnet/1842421")!;
      expect(() => run.load()).toThrow(`${file}: ${tooLarge("the checkpoint", INPUT_LIMITS.checkpointBytes)}`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test("missing chain data is named", () => {
    expect(() => darksideChainSources("/nonexistent/chain-data")).toThrow("/nonexistent/chain-data/lightwalletd: missing");
  });
});
