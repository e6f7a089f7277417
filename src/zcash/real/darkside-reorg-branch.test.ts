// The replacement branch, checked byte by byte against the real blocks with the header
// layout of the Zcash protocol (version 0..4, prevHash 4..36, merkle root 36..68, the
// commitments, time and bits 68..108, nonce 108..140, then the 1344-byte Equihash solution
// behind its 3-byte length: 1487 header bytes), and hashes taken with node's own SHA-256,
// not zconform's codec.

import { describe, expect } from "@jest/globals";
import { createHash } from "node:crypto";
import { CHAIN_DATA, chainTest, readHexLines } from "../../../test/chain-data.js";
import { chainFromBlocks } from "../fixture/chain/from-blocks.js";
import { darksideChainSources } from "./darkside-chains.js";
import { reorgBranch } from "./darkside-reorg-branch.js";

const HEADER = 1487;
const sha256d = (b: Uint8Array) => createHash("sha256").update(createHash("sha256").update(b).digest()).digest();
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const load = (label: string) =>
  darksideChainSources(CHAIN_DATA)
    .find((s) => s.label === label)!
    .load().model;

describe("a reorganization's replacement branch", () => {
  chainTest("depth 3 on testnet 380640–380643: each block is the real header with a new nonce, its coinbase alone, linked to the block before", () => {
    const real = readHexLines("lightwalletd", "testnet-380640-380643.blocks.txt").map((l) => Buffer.from(l, "hex"));
    const model = load("lightwalletd/testnet-380640-380643.blocks.txt");
    const branch = reorgBranch(
      model,
      model.blocks.map((b) => b.raw),
      3,
      2,
    );
    expect(branch.forkHeight).toBe(380641);
    expect(branch.chain.map(hex)).toEqual([hex(real[0]!), ...branch.staged.map(hex)]);
    let prev = sha256d(real[0]!.subarray(0, HEADER));
    branch.staged.forEach((raw, i) => {
      const orig = real[i + 1]!;
      const coinbase = raw.subarray(HEADER + 1);
      expect(hex(raw.subarray(0, 4))).toBe(hex(orig.subarray(0, 4)));
      expect(hex(raw.subarray(4, 36))).toBe(hex(prev));
      // A v4 coinbase's txid is the double SHA-256 of its bytes; alone, it is the merkle root.
      expect(hex(raw.subarray(36, 68))).toBe(hex(sha256d(coinbase)));
      expect(hex(raw.subarray(68, 108))).toBe(hex(orig.subarray(68, 108)));
      expect(raw[108]).toBe((orig[108]! + 2) & 0xff);
      expect(hex(raw.subarray(109, HEADER))).toBe(hex(orig.subarray(109, HEADER)));
      expect(raw[HEADER]).toBe(1);
      expect(hex(orig.subarray(HEADER + 1, HEADER + 1 + coinbase.length))).toBe(hex(coinbase));
      const hash = sha256d(raw.subarray(0, HEADER));
      expect(hex(branch.blocks[i]!.hash)).toBe(hex(hash));
      expect(hex(hash)).not.toBe(hex(sha256d(orig.subarray(0, HEADER))));
      prev = hash;
    });
  });

  chainTest("a branch on top of an earlier one keeps what is below its fork and replaces the earlier branch's tip; another salt, other hashes", () => {
    const model = load("lightwalletd/testnet-380640-380643.blocks.txt");
    const first = reorgBranch(
      model,
      model.blocks.map((b) => b.raw),
      1,
      1,
    );
    const second = reorgBranch(model, first.chain, 3, 2);
    expect(second.chain.slice(0, 1)).toEqual(first.chain.slice(0, 1));
    const again = reorgBranch(model, first.chain, 3, 3);
    expect(new Set([first, second, again].map((b) => hex(b.blocks[b.blocks.length - 1]!.hash))).size).toBe(3);
  });

  chainTest(
    "v5 blocks (mainnet 1687106–1687108): the branch decodes with a valid merkle root and the chain after it loads, without the orphaned transactions",
    () => {
      const model = load("zebra/mainnet/1687106-1687108");
      const branch = reorgBranch(
        model,
        model.blocks.map((b) => b.raw),
        1,
        1,
      );
      expect(branch.blocks[0]!.merkleRootValid).toBe(true);
      expect(branch.blocks[0]!.transactions).toHaveLength(1);
      expect(hex(branch.blocks[0]!.txids[0]!)).toBe(hex(model.blocks[2]!.block.txids[0]!));
      const after = chainFromBlocks(branch.chain, { network: model.network, label: "after", trees: {} });
      expect(after.blocks.map((b) => b.block.transactions.length)).toEqual([
        model.blocks[0]!.block.transactions.length,
        model.blocks[1]!.block.transactions.length,
        1,
      ]);
    },
  );

  chainTest("a depth that leaves no block below the fork, and a salt that changes nothing, are refused", () => {
    const model = load("zebra/mainnet/1687106-1687108");
    const raw = model.blocks.map((b) => b.raw);
    expect(() => reorgBranch(model, raw, 3, 1)).toThrow("a reorganization of depth 3 needs at least 4 blocks");
    expect(() => reorgBranch(model, raw, 1, 0)).toThrow("salt 0");
  });
});
