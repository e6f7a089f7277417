import { describe, expect, test } from "@jest/globals";
import { chainTest } from "../../../test/chain-data.js";
import { zebraBlockFiles } from "../codec/chain-files.test-helper.js";
import { ByteWriter, decodeBlock } from "../codec/index.js";
import { conventionalFee, dustThreshold, logicalActions } from "./fee.js";
import { walletKey } from "./keys.js";

describe("ZIP 317 conventional fee", () => {
  chainTest("every real transaction's logical actions, from its serialized inputs and outputs and its shielded counts", () => {
    let shielded = 0;
    for (const f of zebraBlockFiles()) {
      for (const raw of f.blocks) {
        for (const tx of decodeBlock(raw).transactions) {
          const ins = new ByteWriter();
          for (const i of tx.vin) ins.bytes(i.prevoutTxid).u32(i.prevoutIndex).varBytes(i.scriptSig).u32(i.sequence);
          const outs = new ByteWriter();
          for (const o of tx.vout) outs.i64(o.value).varBytes(o.scriptPubKey);
          const joinSplits = tx.sprout?.joinSplits.length ?? 0;
          const sapling = Math.max(tx.sapling?.spends.length ?? 0, tx.sapling?.outputs.length ?? 0);
          const orchard = tx.orchard?.actions.length ?? 0;
          if (joinSplits + sapling + orchard > 0) shielded++;
          const expected = Math.max(Math.ceil(ins.length / 150), Math.ceil(outs.length / 34)) + 2 * joinSplits + sapling + orchard;
          expect(logicalActions(tx)).toBe(expected);
          expect(conventionalFee(tx)).toBe(5000n * BigInt(Math.max(2, expected)));
        }
      }
    }
    expect(shielded).toBeGreaterThan(0);
  });

  test("the dust threshold of a P2PKH output is 3 × floor(100 × (34 + 148) / 1000) = 54 zatoshi", () => {
    const script = walletKey("dust", "regtest").scriptPubKey;
    expect(dustThreshold({ value: 0n, scriptPubKey: script })).toBe(54n);
  });
});
