import { describe, expect, test } from "@jest/globals";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import fc from "fast-check";
import {
  addressFromScript,
  BRANCH_IDS,
  bytesEqual,
  bytesToHex,
  decodeTransaction,
  displayHex,
  encodeTransaction,
  regtest,
  zip244Txid,
  type Transaction,
} from "../codec/index.js";
import { walletKey } from "./keys.js";
import { sighashesV5, transparentSighashV5 } from "./sighash.js";
import { buildTransparentSpend, type Utxo } from "./spend.js";

const key = walletKey("spend-test", regtest);
const alice = walletKey("alice", regtest);
const bob = walletKey("bob", regtest);

/** UTXOs of the test key with made-up outpoints (a spend only needs them to be distinct). */
function utxos(values: bigint[]): Utxo[] {
  return values.map((value, i) => ({ txid: (i + 1).toString(16).padStart(64, "a"), index: i % 3, value, scriptPubKey: key.scriptPubKey }));
}

/** ZIP 317 computed from the serialized bytes alone, without the wallet's fee module. */
function zip317Fee(raw: Uint8Array): bigint {
  const tx = decodeTransaction(raw);
  const varLen = (n: number) => (n < 253 ? 1 : 3);
  const inBytes = tx.vin.reduce((n, i) => n + 32 + 4 + varLen(i.scriptSig.length) + i.scriptSig.length + 4, 0);
  const outBytes = tx.vout.reduce((n, o) => n + 8 + varLen(o.scriptPubKey.length) + o.scriptPubKey.length, 0);
  const logical = Math.max(Math.ceil(inBytes / 150), Math.ceil(outBytes / 34));
  return 5000n * BigInt(Math.max(2, logical));
}

/** Splits a P2PKH scriptSig into its DER signature, hash type byte and public key. */
function parseScriptSig(scriptSig: Uint8Array): { der: Uint8Array; hashType: number; publicKey: Uint8Array } {
  const sigLen = scriptSig[0]!;
  const keyLen = scriptSig[1 + sigLen]!;
  expect(scriptSig.length).toBe(1 + sigLen + 1 + keyLen);
  return { der: scriptSig.subarray(1, sigLen), hashType: scriptSig[sigLen]!, publicKey: scriptSig.subarray(2 + sigLen) };
}

function checkSignatures(tx: Transaction, spent: Utxo[]): void {
  const sighash = sighashesV5(
    tx,
    spent.map((u) => ({ value: u.value, scriptPubKey: u.scriptPubKey })),
  );
  tx.vin.forEach((input, i) => {
    const { der, hashType, publicKey } = parseScriptSig(input.scriptSig);
    expect(hashType).toBe(0x01);
    expect(bytesToHex(publicKey)).toBe(bytesToHex(key.publicKey));
    const digest = sighash(i);
    expect(secp256k1.verify(der, digest, publicKey, { prehash: false, format: "der", lowS: true })).toBe(true);
  });
}

const request = (values: bigint[], payments: { address: string; value: bigint }[]) => ({
  utxos: utxos(values),
  key,
  outputs: payments,
  branchId: BRANCH_IDS.nu6_1,
  expiryHeight: 1_000,
});

describe("buildTransparentSpend", () => {
  test("one UTXO to one address with change: decodes, round-trips, and its txid is the ZIP-244 txid", () => {
    const spend = buildTransparentSpend(request([1_000_000n], [{ address: alice.address, value: 250_000n }]));
    const tx = decodeTransaction(spend.raw);
    expect(bytesEqual(encodeTransaction(tx), spend.raw)).toBe(true);
    expect(spend.txid).toBe(displayHex(zip244Txid(tx)));
    expect(tx.version).toBe(5);
    expect(tx.consensusBranchId).toBe(BRANCH_IDS.nu6_1);
    expect(tx.expiryHeight).toBe(1_000);
    expect(tx.lockTime).toBe(0);
    expect(tx.vin.map((i) => [displayHex(i.prevoutTxid), i.prevoutIndex, i.sequence])).toEqual([[utxos([1n])[0]!.txid, 0, 0xffffffff]]);
    expect(tx.vout.map((o) => [addressFromScript(o.scriptPubKey, regtest), o.value])).toEqual([
      [alice.address, 250_000n],
      [key.address, 1_000_000n - 250_000n - spend.fee],
    ]);
    expect(spend.change).toBe(1_000_000n - 250_000n - spend.fee);
    checkSignatures(tx, utxos([1_000_000n]));
  });

  test("the fee is ZIP 317's conventional fee and exactly what the inputs leave over", () => {
    const cases: [bigint[], { address: string; value: bigint }[]][] = [
      [[1_000_000n], [{ address: alice.address, value: 250_000n }]],
      [
        [400_000n, 300_000n, 200_000n],
        [
          { address: alice.address, value: 100_000n },
          { address: bob.address, value: 200_000n },
        ],
      ],
      [[50_000n], []],
      [Array.from({ length: 7 }, () => 20_000n), Array.from({ length: 5 }, () => ({ address: bob.address, value: 1_000n }))],
    ];
    for (const [values, payments] of cases) {
      const spend = buildTransparentSpend(request(values, payments));
      const tx = decodeTransaction(spend.raw);
      const paid = values.reduce((a, b) => a + b, 0n) - tx.vout.reduce((a, o) => a + o.value, 0n);
      expect(spend.fee).toBe(paid);
      expect(spend.fee).toBe(zip317Fee(spend.raw));
      checkSignatures(tx, utxos(values));
    }
  });

  test("with many inputs the fee follows their real signed size, not a count of inputs", () => {
    // A signed P2PKH input is at most 148 bytes, so 120 of them fit in 119 standard 150-byte inputs.
    const values = Array.from({ length: 120 }, () => 10_000n);
    const spend = buildTransparentSpend(request(values, [{ address: alice.address, value: 100_000n }]));
    expect(spend.fee).toBe(zip317Fee(spend.raw));
    expect(spend.fee).toBeLessThan(120n * 5000n);
    checkSignatures(decodeTransaction(spend.raw), utxos(values));
  });

  test("a signature stops verifying once an output it covers changes", () => {
    const spend = buildTransparentSpend(request([1_000_000n], [{ address: alice.address, value: 250_000n }]));
    const tx = decodeTransaction(spend.raw);
    const tampered: Transaction = { ...tx, vout: [{ ...tx.vout[0]!, value: 250_001n }, tx.vout[1]!] };
    const { der, publicKey } = parseScriptSig(tx.vin[0]!.scriptSig);
    const digest = transparentSighashV5(tampered, [{ value: 1_000_000n, scriptPubKey: key.scriptPubKey }], 0);
    expect(secp256k1.verify(der, digest, publicKey, { prehash: false, format: "der" })).toBe(false);
  });

  test("change too small to relay is left to the fee, and no change output is made", () => {
    const values = [300_000n];
    const fee2 = 10_000n;
    const spend = buildTransparentSpend(request(values, [{ address: alice.address, value: 300_000n - fee2 - 40n }]));
    const tx = decodeTransaction(spend.raw);
    expect(tx.vout).toHaveLength(1);
    expect(spend.change).toBe(0n);
    expect(spend.fee).toBe(fee2 + 40n);
    expect(spend.fee).toBeGreaterThanOrEqual(zip317Fee(spend.raw));
  });

  test("change goes to the given address", () => {
    const spend = buildTransparentSpend({ ...request([1_000_000n], [{ address: alice.address, value: 1_000n }]), changeAddress: bob.address });
    const tx = decodeTransaction(spend.raw);
    expect(addressFromScript(tx.vout[1]!.scriptPubKey, regtest)).toBe(bob.address);
  });

  test("bad requests are refused with what to change", () => {
    expect(() => buildTransparentSpend(request([5_000n], [{ address: alice.address, value: 4_000n }]))).toThrow(
      /hold 5000 zat; the outputs need 4000 zat plus a fee of 10000 zat/,
    );
    expect(() => buildTransparentSpend(request([], [{ address: alice.address, value: 1_000n }]))).toThrow(/at least one UTXO/);
    expect(() => buildTransparentSpend(request([100_000n], [{ address: alice.address, value: 10n }]))).toThrow(/below the 54 zat a node relays/);
    expect(() => buildTransparentSpend(request([100_000n], [{ address: "t1notanaddress", value: 1_000n }]))).toThrow(/invalid transparent address/);
    const foreign = { ...request([100_000n], []), utxos: [{ ...utxos([100_000n])[0]!, scriptPubKey: alice.scriptPubKey }] };
    expect(() => buildTransparentSpend(foreign)).toThrow(/is not paid to tm/);
    const twice = { ...request([100_000n], []), utxos: [utxos([100_000n])[0]!, utxos([100_000n])[0]!] };
    expect(() => buildTransparentSpend(twice)).toThrow(/listed twice/);
    expect(() => buildTransparentSpend({ ...request([100_000n], []), expiryHeight: 500_000_000 })).toThrow(/expiryHeight/);
    expect(() => buildTransparentSpend({ ...request([100_000n], []), branchId: BRANCH_IDS.canopy })).toThrow(
      /e9ff75a6 is Canopy, where v5 transactions are invalid/,
    );
  });

  test("any funds and payments: a valid transaction paying at least the conventional fee, exactly it when there is change, or a refusal naming the shortfall", () => {
    const arb = fc.record({
      values: fc.array(fc.bigInt({ min: 1n, max: 50_000_000n }), { minLength: 1, maxLength: 6 }),
      payments: fc.array(fc.record({ to: fc.constantFrom(alice.address, bob.address), value: fc.bigInt({ min: 54n, max: 20_000_000n }) }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(arb, ({ values, payments }) => {
        const outputs = payments.map((p) => ({ address: p.to, value: p.value }));
        const have = values.reduce((a, b) => a + b, 0n);
        const pay = outputs.reduce((a, o) => a + o.value, 0n);
        let spend;
        try {
          spend = buildTransparentSpend(request(values, outputs));
        } catch (e) {
          expect((e as Error).message).toMatch(new RegExp(`hold ${have} zat; the outputs need ${pay} zat plus a fee of \\d+ zat`));
          return;
        }
        const tx = decodeTransaction(spend.raw);
        expect(bytesEqual(encodeTransaction(tx), spend.raw)).toBe(true);
        expect(spend.fee).toBe(have - tx.vout.reduce((a, o) => a + o.value, 0n));
        expect(spend.fee).toBeGreaterThanOrEqual(zip317Fee(spend.raw));
        if (tx.vout.length > outputs.length) {
          expect(spend.fee).toBe(zip317Fee(spend.raw));
          expect(spend.change).toBeGreaterThanOrEqual(54n);
        }
        checkSignatures(tx, utxos(values));
      }),
      { seed: 244, numRuns: 60 },
    );
  });
});
