import { describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import { ChainMetadataSchema, CompactBlockSchema } from "../gen/walletrpc/compact_formats_pb.js";
import { PoolType } from "../gen/walletrpc/service_pb.js";
import { chainTest, readChainText, readHexLines } from "../../../test/chain-data.js";
import { decodeBlock, decodeBlockHex, type DecodedBlock } from "./block.js";
import { bytesEqual, bytesToHex, displayHex, hexToBytes } from "./bytes.js";
import { compactFixture, zebraBlockFiles } from "./chain-files.test-helper.js";
import { ALL_POOL_TYPES, compactBlock, compactTx, nullifiersOnly, resolvePoolTypes } from "./compact.js";
import { decodeTransaction } from "./tx-decode.js";
import { computeTxid } from "./txid.js";

function zebraBlock(net: "mainnet" | "testnet", name: string): DecodedBlock {
  const f = zebraBlockFiles().find((x) => x.rel === `zebra/blocks/${net}/${name}`);
  if (!f) throw new Error(`no ${name}`);
  return decodeBlock(f.blocks[0]!);
}

describe("compact blocks against lightwalletd's expected protobufs (testnet 289460-289465)", () => {
  chainTest("byte-identical after the fixture's caveats: txids zeroed and chainMetadata present but empty", () => {
    // lightwalletd's unit test has no node, so every txid in its expected bytes is 32 zero
    // bytes and chainMetadata is an empty message. We derive with every pool (GetBlock),
    // replace exactly those two things, and compare the whole serialized message.
    for (const entry of compactFixture()) {
      const block = decodeBlockHex(entry.full);
      const cb = compactBlock(block, { poolTypes: ALL_POOL_TYPES });
      cb.vtx.forEach((tx, i) => {
        expect(bytesEqual(tx.txid, block.txids[Number(tx.index)]!)).toBe(true);
        expect(tx.txid.some((b) => b !== 0)).toBe(true);
        cb.vtx[i]!.txid = new Uint8Array(32);
      });
      cb.chainMetadata = create(ChainMetadataSchema);
      expect(`${entry.block}: ${bytesToHex(toBinary(CompactBlockSchema, cb))}`).toBe(`${entry.block}: ${entry.compact}`);
    }
  });

  chainTest("with the default pools only the Sapling transactions remain, keeping their block index", () => {
    const got = compactFixture().map((entry) => {
      const cb = compactBlock(decodeBlockHex(entry.full));
      return [entry.block, cb.vtx.map((t) => [Number(t.index), t.spends.length, t.outputs.length, t.vin.length, t.vout.length])];
    });
    // README: 289461 and 289465 each hold a v4 tx with 1 Sapling spend and 2 outputs.
    expect(got).toEqual([
      [289460, []],
      [289461, [[1, 1, 2, 0, 0]]],
      [289462, []],
      [289463, []],
      [289464, []],
      [289465, [[1, 1, 2, 0, 0]]],
    ]);
  });
});

describe("compact transactions against Zebra's decoded transaction (mainnet 2222000)", () => {
  chainTest("Sapling nf/cmu/ephemeralKey (Zebra shows them reversed), the 52-byte ciphertext prefix, vout", () => {
    const doc = JSON.parse(readChainText("zebra", "rpc-vectors", "getblock_response_2.json"));
    const t = doc.tx[1];
    const tx = decodeTransaction(hexToBytes(t.hex));
    const ctx = compactTx(tx, computeTxid(tx), 1, ALL_POOL_TYPES);
    expect(displayHex(ctx.txid)).toBe(t.txid);
    expect(ctx.spends.map((s) => displayHex(s.nf))).toEqual(t.vShieldedSpend.map((s: { nullifier: string }) => s.nullifier));
    expect(ctx.outputs.map((o) => [displayHex(o.cmu), displayHex(o.ephemeralKey), bytesToHex(o.ciphertext)])).toEqual(
      t.vShieldedOutput.map((o: { cmu: string; ephemeralKey: string; encCiphertext: string }) => [o.cmu, o.ephemeralKey, o.encCiphertext.slice(0, 104)]),
    );
    expect(ctx.vout.map((o) => [Number(o.value), bytesToHex(o.scriptPubKey)])).toEqual(
      t.vout.map((o: { valueZat: number; scriptPubKey: { hex: string } }) => [o.valueZat, o.scriptPubKey.hex]),
    );
    expect(ctx.vin).toEqual([]); // Zebra: "vin": []
    expect(ctx.fee).toBe(0);
  });
});

describe("derivation rules", () => {
  chainTest("Orchard actions: nullifier, cmx, ephemeralKey and the first 52 ciphertext bytes, in wire order", () => {
    const block = zebraBlock("testnet", "block-test-1-842-421.txt");
    const cb = compactBlock(block);
    const withActions = cb.vtx.filter((t) => t.actions.length > 0);
    expect(withActions.reduce((n, t) => n + t.actions.length, 0)).toBe(2); // README: 2 actions
    for (const ctx of withActions) {
      const tx = block.transactions[Number(ctx.index)]!;
      ctx.actions.forEach((a, i) => {
        const src = tx.orchard!.actions[i]!;
        expect([a.nullifier, a.cmx, a.ephemeralKey, a.ciphertext]).toEqual([src.nullifier, src.cmx, src.ephemeralKey, src.encCiphertext.subarray(0, 52)]);
        expect(a.ciphertext.length).toBe(52);
      });
    }
    expect(cb.vtx.every((t) => t.vin.length === 0 && t.vout.length === 0 && t.ironwoodActions.length === 0)).toBe(true);
  });

  chainTest("the coinbase never gets vin; other transactions get their prevouts in wire order", () => {
    const block = zebraBlock("mainnet", "block-main-0-419-202.txt");
    const cb = compactBlock(block, { poolTypes: [PoolType.TRANSPARENT] });
    expect(Number(cb.vtx[0]!.index)).toBe(0);
    expect(cb.vtx[0]!.vin).toEqual([]);
    expect(cb.vtx[0]!.vout.length).toBe(block.transactions[0]!.vout.length);
    const vin = cb.vtx.flatMap((t) => t.vin);
    expect(vin.length).toBe(45); // README: 45 non-coinbase transparent inputs
    const src = block.transactions.slice(1).flatMap((t) => t.vin);
    expect(vin.map((i) => [bytesToHex(i.prevoutTxid), i.prevoutIndex])).toEqual(src.map((i) => [bytesToHex(i.prevoutTxid), i.prevoutIndex]));
    expect(cb.vtx.every((t) => t.spends.length === 0 && t.outputs.length === 0)).toBe(true);
  });

  chainTest("Sprout-only data never appears: testnet 141042 (JoinSplits + transparent) is empty with the default pools", () => {
    const block = zebraBlock("testnet", "block-test-0-141-042.bin");
    expect(compactBlock(block).vtx).toEqual([]);
    const kept = compactBlock(block, { keepEmpty: true });
    expect(kept.vtx.map((t) => Number(t.index))).toEqual(block.transactions.map((_, i) => i));
    expect(kept.vtx.every((t) => t.spends.length + t.outputs.length + t.actions.length === 0)).toBe(true);
  });

  chainTest("chainMetadata is set only when tree sizes are given; height from the coinbase or the option", () => {
    const block = zebraBlock("mainnet", "block-main-1-687-107.txt");
    expect(compactBlock(block).chainMetadata).toBeUndefined();
    const cb = compactBlock(block, { chainMetadata: { sapling: 10, orchard: 2 } });
    expect([cb.chainMetadata!.saplingCommitmentTreeSize, cb.chainMetadata!.orchardCommitmentTreeSize, cb.chainMetadata!.ironwoodCommitmentTreeSize]).toEqual([
      10, 2, 0,
    ]);
    expect(cb.height).toBe(1_687_107n);
    expect(compactBlock(block, { height: 5 }).height).toBe(5n);
    expect(bytesEqual(cb.hash, block.hash)).toBe(true);
    expect(bytesEqual(cb.prevHash, block.header.prevHash)).toBe(true);
    expect(cb.time).toBe(block.header.time);
    expect(cb.header.length).toBe(0);
    const noHeight = { ...block, height: undefined };
    expect(() => compactBlock(noHeight)).toThrow("pass opts.height");
  });

  chainTest("nullifier form (v0.5.0): only nullifiers, chainMetadata all zero, every transaction with shielded data kept", () => {
    const block = zebraBlock("mainnet", "block-main-1-687-107.txt"); // README: 2 Sapling spends, 3 outputs, 2 actions
    const nf = nullifiersOnly(compactBlock(block, { poolTypes: [PoolType.SAPLING, PoolType.ORCHARD] }));
    expect(nf.chainMetadata).toEqual(create(ChainMetadataSchema));
    expect(nf.vtx.reduce((n, t) => n + t.spends.length, 0)).toBe(2);
    expect(nf.vtx.reduce((n, t) => n + t.actions.length, 0)).toBe(2);
    for (const t of nf.vtx) {
      expect([t.outputs.length, t.vin.length, t.vout.length]).toEqual([0, 0, 0]);
      for (const a of t.actions) expect([a.nullifier.length, a.cmx.length, a.ephemeralKey.length, a.ciphertext.length]).toEqual([32, 0, 0, 0]);
    }
    // A transaction whose only shielded data are outputs stays, as an index + txid shell.
    const shielded = block.transactions.flatMap((tx, i) =>
      (tx.sapling?.spends.length ?? 0) + (tx.sapling?.outputs.length ?? 0) + (tx.orchard?.actions.length ?? 0) > 0 ? [BigInt(i)] : [],
    );
    expect(nf.vtx.map((t) => t.index)).toEqual(shielded);
  });

  test("pool types: empty means the shielded default; POOL_TYPE_INVALID is refused", () => {
    expect([...resolvePoolTypes([])].sort()).toEqual([PoolType.SAPLING, PoolType.ORCHARD, PoolType.IRONWOOD]);
    expect([...resolvePoolTypes(undefined)].sort()).toEqual([PoolType.SAPLING, PoolType.ORCHARD, PoolType.IRONWOOD]);
    expect([...resolvePoolTypes([PoolType.ORCHARD])]).toEqual([PoolType.ORCHARD]);
    expect(() => resolvePoolTypes([PoolType.POOL_TYPE_INVALID])).toThrow("invalid pool type 0");
  });

  chainTest("lightwalletd mainnet 0-20: with TRANSPARENT every block keeps its coinbase (vout only)", () => {
    for (const line of readHexLines("lightwalletd", "mainnet-0-20.blocks.txt")) {
      const cb = compactBlock(decodeBlockHex(line), { poolTypes: [PoolType.TRANSPARENT] });
      expect(cb.vtx.map((t) => [Number(t.index), t.vin.length, t.vout.length > 0])).toEqual([[0, 0, true]]);
    }
  });
});
