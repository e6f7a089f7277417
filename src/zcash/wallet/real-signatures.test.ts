// The signature digests and P2PKH scripts against consensus itself: real mainnet
// transactions whose spent outputs are also in the chain data must carry signatures that
// verify over the digest computed here.
import { describe, expect } from "@jest/globals";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { chainTest } from "../../../test/chain-data.js";
import { zebraBlockFiles } from "../codec/chain-files.test-helper.js";
import { branchIdAt, bytesToHex, computeTxid, decodeBlock, displayHex, isCoinbase, mainnet, testnet, type Transaction, type TxOut } from "../codec/index.js";
import { hash160, p2pkhScript } from "./keys.js";
import { sighashV4 } from "./sighash-v4.js";
import { transparentSighashV5 } from "./sighash.js";

interface Spend {
  file: string;
  height: number;
  network: "mainnet" | "testnet";
  tx: Transaction;
  spent: (TxOut | undefined)[];
}

/** Every non-coinbase transaction of the chain data with the outputs its inputs spend (where known). */
function spendsWithKnownPrevouts(): Spend[] {
  const outputs = new Map<string, TxOut>();
  const txs: Omit<Spend, "spent">[] = [];
  for (const f of zebraBlockFiles()) {
    for (const raw of f.blocks) {
      for (const tx of decodeBlock(raw).transactions) {
        const id = displayHex(computeTxid(tx));
        tx.vout.forEach((o, i) => outputs.set(`${id}:${i}`, o));
        if (!isCoinbase(tx)) txs.push({ file: f.rel, height: f.heights![0]!, network: f.network, tx });
      }
    }
  }
  return txs.map((t) => ({ ...t, spent: t.tx.vin.map((i) => outputs.get(`${displayHex(i.prevoutTxid)}:${i.prevoutIndex}`)) }));
}

/** <signature ‖ hash type> <public key>, the two pushes of a P2PKH scriptSig. */
function p2pkhPushes(scriptSig: Uint8Array): { der: Uint8Array; hashType: number; publicKey: Uint8Array } {
  const sigLen = scriptSig[0]!;
  const keyLen = scriptSig[1 + sigLen]!;
  expect(scriptSig.length).toBe(2 + sigLen + keyLen);
  return { der: scriptSig.subarray(1, sigLen), hashType: scriptSig[sigLen]!, publicKey: scriptSig.subarray(2 + sigLen) };
}

describe("real P2PKH signatures verify over the digests computed here", () => {
  chainTest("v4 (ZIP 243) and v5 (ZIP 244) spends in the chain data", () => {
    const checked = { 4: 0, 5: 0 } as Record<number, number>;
    for (const s of spendsWithKnownPrevouts()) {
      // ZIP 244 commits every input's amount, so a v5 input can be checked only when all are known.
      const allKnown = s.spent.every((o) => o !== undefined);
      s.tx.vin.forEach((input, index) => {
        const spent = s.spent[index];
        if (!spent || (s.tx.version === 5 && !allKnown)) return;
        const { der, hashType, publicKey } = p2pkhPushes(input.scriptSig);
        expect(`${s.file} input ${index}: ${bytesToHex(p2pkhScript(hash160(publicKey)))}`).toBe(`${s.file} input ${index}: ${bytesToHex(spent.scriptPubKey)}`);
        const digest =
          s.tx.version === 5
            ? transparentSighashV5(s.tx, s.spent as TxOut[], index, hashType)
            : sighashV4(
                s.tx,
                branchIdAt(s.network === "mainnet" ? mainnet : testnet, s.height),
                { index, scriptCode: spent.scriptPubKey, amount: spent.value },
                hashType,
              );
        expect(`${s.file} input ${index}: ${secp256k1.verify(der, digest, publicKey, { prehash: false, format: "der", lowS: false })}`).toBe(
          `${s.file} input ${index}: true`,
        );
        checked[s.tx.version] = (checked[s.tx.version] ?? 0) + 1;
      });
    }
    expect(checked[4]).toBeGreaterThan(0);
    expect(checked[5]).toBeGreaterThan(0);
  });
});
