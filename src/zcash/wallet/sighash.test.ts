import { describe, expect } from "@jest/globals";
import { chainTest } from "../../../test/chain-data.js";
import { vectorRows } from "../codec/chain-files.test-helper.js";
import { bytesToHex, decodeTransaction, hexToBytes } from "../codec/index.js";
import { shieldedSighashV5, transparentSighashV5, type SpentOutput } from "./sighash.js";

const HASH_TYPES = {
  sighash_all: 0x01,
  sighash_none: 0x02,
  sighash_single: 0x03,
  sighash_all_anyone: 0x81,
  sighash_none_anyone: 0x82,
  sighash_single_anyone: 0x83,
} as const;

describe("ZIP-244 signature digests (zcash-test-vectors zip_0244.json)", () => {
  chainTest("every vector with a transparent input gives each listed hash type's digest", () => {
    const rows = vectorRows("zcash-test-vectors", "zip_0244.json");
    let checked = 0;
    let withInput = 0;
    for (const row of rows) {
      const tx = decodeTransaction(hexToBytes(row.tx as string));
      const amounts = row.amounts as number[];
      const scripts = row.script_pubkeys as string[];
      // The JSON numbers are below 2^53, so they are exact.
      const spent: SpentOutput[] = amounts.map((a, i) => ({ value: BigInt(a), scriptPubKey: hexToBytes(scripts[i]!) }));
      expect(bytesToHex(shieldedSighashV5(tx, spent))).toBe(row.sighash_shielded);
      if (row.transparent_input === null) continue;
      withInput++;
      for (const [column, hashType] of Object.entries(HASH_TYPES)) {
        const expected = row[column] as string | null;
        if (expected === null) {
          expect(() => transparentSighashV5(tx, spent, row.transparent_input as number, hashType)).toThrow(/SIGHASH_SINGLE/);
          continue;
        }
        expect(bytesToHex(transparentSighashV5(tx, spent, row.transparent_input as number, hashType))).toBe(expected);
        checked++;
      }
    }
    expect(withInput).toBe(6);
    expect(checked).toBeGreaterThanOrEqual(6 * 4);
  });

  chainTest("bad hash types, missing inputs and missing spent outputs are refused with the reason", () => {
    const row = vectorRows("zcash-test-vectors", "zip_0244.json").find((r) => r.transparent_input !== null)!;
    const tx = decodeTransaction(hexToBytes(row.tx as string));
    const spent = (row.amounts as number[]).map((a, i) => ({ value: BigInt(a), scriptPubKey: hexToBytes((row.script_pubkeys as string[])[i]!) }));
    expect(() => transparentSighashV5(tx, spent, 0, 0x04)).toThrow(/hash type 0x4 is not valid/);
    expect(() => transparentSighashV5(tx, spent, tx.vin.length)).toThrow(/does not exist/);
    expect(() => transparentSighashV5(tx, [], 0)).toThrow(/spent output of every input/);
  });
});
