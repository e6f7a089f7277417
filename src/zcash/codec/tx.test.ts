import { describe, expect, test } from "@jest/globals";
import { chainTest, readChainText } from "../../../test/chain-data.js";
import { decodeBlock } from "./block.js";
import { bytesEqual, bytesToHex, displayHex, hexToBytes } from "./bytes.js";
import { lightwalletdBlockFiles, vectorRows, zebraBlockFiles } from "./chain-files.test-helper.js";
import { DecodeError } from "./reader.js";
import { decodeTransaction } from "./tx-decode.js";
import { encodeTransaction } from "./tx-encode.js";
import { isCoinbase, type Transaction } from "./tx-model.js";
import { authDigest, computeTxid, PRE_V5_AUTH_DIGEST } from "./txid.js";

function decodeError(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof DecodeError) return e;
    throw e;
  }
  throw new Error("expected a DecodeError");
}

describe("ZIP-244 test vectors (zcash-test-vectors zip_0244.json)", () => {
  chainTest("each tx round-trips and gives its txid and auth_digest (both in wire order in these vectors)", () => {
    const rows = vectorRows("zcash-test-vectors", "zip_0244.json");
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const bytes = hexToBytes(row.tx as string);
      const tx = decodeTransaction(bytes);
      expect(tx.version).toBe(5);
      expect(bytesEqual(encodeTransaction(tx), bytes)).toBe(true);
      expect(bytesToHex(computeTxid(tx))).toBe(row.txid);
      expect(bytesToHex(authDigest(tx))).toBe(row.auth_digest);
    }
  });
});

describe("lightwalletd tx_v5.json", () => {
  chainTest("parsed fields, value balances, anchors, flags and txid (display order) match", () => {
    const rows = vectorRows("lightwalletd", "tx_v5.json");
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const bytes = hexToBytes(row.tx as string);
      const tx = decodeTransaction(bytes);
      expect(bytesEqual(encodeTransaction(tx), bytes)).toBe(true);
      expect(displayHex(computeTxid(tx))).toBe(row.txid);
      const s = tx.sapling;
      const o = tx.orchard;
      expect({
        version: tx.version,
        nVersionGroupId: tx.versionGroupId,
        nConsensusBranchId: tx.consensusBranchId,
        lock_time: tx.lockTime,
        nExpiryHeight: tx.expiryHeight,
        tx_in_count: tx.vin.length,
        tx_out_count: tx.vout.length,
        nSpendsSapling: s?.spends.length ?? 0,
        nOutputsSapling: s?.outputs.length ?? 0,
        valueBalanceSapling: Number(s?.valueBalance ?? 0n),
        nActionsOrchard: o?.actions.length ?? 0,
      }).toEqual({
        version: row.version,
        nVersionGroupId: row.nVersionGroupId,
        nConsensusBranchId: row.nConsensusBranchId,
        lock_time: row.lock_time,
        nExpiryHeight: row.nExpiryHeight,
        tx_in_count: row.tx_in_count,
        tx_out_count: row.tx_out_count,
        nSpendsSapling: row.nSpendsSapling,
        nOutputsSapling: row.nOutputsSapling,
        valueBalanceSapling: row.valueBalanceSapling,
        nActionsOrchard: row.nActionsOrchard,
      });
      // The vectors carry a (meaningless) anchorSapling even without spends; the encoding has none then.
      if (s && s.spends.length > 0) expect(displayHex(s.spends[0]!.anchor)).toBe(row.anchorSapling);
      if (s) expect(bytesToHex(s.bindingSig!)).toBe(row.bindingSigSapling);
      if (o) {
        expect(o.flags).toBe(row.flagsOrchard);
        expect(o.valueBalance).toBe(BigInt(row.valueBalanceOrchard as number));
        expect(displayHex(o.anchor)).toBe(row.anchorOrchard);
        expect(bytesToHex(o.proof)).toBe(row.proofsOrchard);
        expect(bytesToHex(o.bindingSig)).toBe(row.bindingSigOrchard);
      }
    }
  });
});

describe("every real transaction", () => {
  chainTest("decodes alone, re-encodes byte for byte, and its txid equals the one computed in its block", () => {
    const versions = new Map<number, number>();
    for (const f of [...zebraBlockFiles(), ...lightwalletdBlockFiles()]) {
      for (const bytes of f.blocks) {
        const block = decodeBlock(bytes);
        block.rawTransactions.forEach((raw, i) => {
          const tx = decodeTransaction(raw);
          expect(bytesEqual(encodeTransaction(tx), raw)).toBe(true);
          expect(bytesEqual(computeTxid(tx), block.txids[i]!)).toBe(true);
          expect(isCoinbase(tx)).toBe(i === 0);
          versions.set(tx.version, (versions.get(tx.version) ?? 0) + 1);
        });
      }
    }
    expect([...versions.keys()].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  chainTest("Zebra's getblock verbosity 2 of mainnet 2222000: txids, auth digests (0xff.. for v4), sizes", () => {
    const doc = JSON.parse(readChainText("zebra", "rpc-vectors", "getblock_response_2.json"));
    for (const t of doc.tx as { hex: string; txid: string; authdigest: string; size: number; version: number }[]) {
      const tx = decodeTransaction(hexToBytes(t.hex));
      expect(tx.version).toBe(t.version);
      expect(displayHex(computeTxid(tx))).toBe(t.txid);
      expect(displayHex(authDigest(tx))).toBe(t.authdigest);
      expect(encodeTransaction(tx).length).toBe(t.size);
    }
  });
});

describe("rejections", () => {
  // A minimal v1 transaction: one input, one output.
  const v1 = "01000000" + "01" + "11".repeat(32) + "00000000" + "00" + "ffffffff" + "01" + "0100000000000000" + "00" + "00000000";

  test("the minimal v1 transaction round-trips", () => {
    expect(bytesToHex(encodeTransaction(decodeTransaction(hexToBytes(v1))))).toBe(v1);
  });

  test("v6 is rejected with a clear error", () => {
    const e = decodeError(() => decodeTransaction(hexToBytes("06000080" + "00".repeat(40))));
    expect(e.offset).toBe(0);
    expect(e.message).toContain("version 6 is not supported (v6 transactions are out of scope)");
  });

  test("a wrong version group id is named", () => {
    const e = decodeError(() => decodeTransaction(hexToBytes("04000080" + "0a27a726" + "00".repeat(40))));
    expect(e.message).toBe("offset 4: header.versionGroupId is 0x26a7270a, expected 0x892f2085 for v4");
  });

  test("truncation names the offset and the field", () => {
    const e = decodeError(() => decodeTransaction(hexToBytes(v1.slice(0, v1.length - 4))));
    expect(e.message).toBe("offset 56: truncated reading lockTime (need 4 bytes, 2 left)");
    // Two outputs, the first with a 10-byte script; cut 3 bytes into the second value.
    const two = v1.slice(0, 46 * 2) + "02" + "0100000000000000" + "0a" + "aa".repeat(10) + "020000";
    const e2 = decodeError(() => decodeTransaction(hexToBytes(two)));
    expect(e2.message).toBe("offset 66: truncated reading vout[1].value (need 8 bytes, 3 left)");
  });

  test("an item count that cannot fit is rejected before reading the items", () => {
    const e = decodeError(() => decodeTransaction(hexToBytes(v1.slice(0, 52 * 2))));
    expect(e.message).toBe("offset 46: vout count is 1 but only 5 bytes are left (each item takes at least 9)");
  });

  test("trailing bytes after a transaction are rejected", () => {
    expect(() => decodeTransaction(hexToBytes(v1 + "00"))).toThrow("offset 60: 1 trailing bytes after the transaction");
  });

  test("encoding refuses inconsistent models", () => {
    const tx = decodeTransaction(hexToBytes(v1));
    expect(() => encodeTransaction({ ...tx, version: 6 } as Transaction)).toThrow("cannot encode transaction version 6");
    expect(() => encodeTransaction({ ...tx, version: 4 })).toThrow("v4 must have the overwintered flag");
    expect(() => encodeTransaction({ ...tx, vin: [{ ...tx.vin[0]!, prevoutTxid: new Uint8Array(31) }] })).toThrow("prevout txid must be 32 bytes, got 31");
  });

  test("pre-v5 auth digest is the all-0xff placeholder", () => {
    expect(bytesToHex(authDigest(decodeTransaction(hexToBytes(v1))))).toBe(bytesToHex(PRE_V5_AUTH_DIGEST));
    expect(bytesToHex(PRE_V5_AUTH_DIGEST)).toBe("ff".repeat(32));
  });
});
