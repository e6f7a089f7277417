import { describe, expect, test } from "@jest/globals";
import { chainTest, readChainText } from "../../../test/chain-data.js";
import { zebraBlockFiles } from "../codec/chain-files.test-helper.js";
import { bytesToHex, computeTxid, decodeBlock, displayHex, isCoinbase, mainnet, scriptFromAddress } from "../codec/index.js";
import { coinbaseSpendableAt, isCoinbaseMature, matureUtxos, parseAddressUtxos } from "./utxos.js";

/** Zebra's real getaddressutxos answer over mainnet blocks 0-10. */
function realAnswer(): unknown {
  return JSON.parse(readChainText("zebra", "rpc-snapshots", "get_address_utxos@mainnet_10.snap").split(/^---$/m).slice(2).join("---"));
}

describe("coinbase maturity", () => {
  test("an output of height h is spendable from block h + 100, i.e. by a transaction sent at tip h + 99", () => {
    expect(coinbaseSpendableAt(1)).toBe(101);
    expect(isCoinbaseMature(1, 99)).toBe(false);
    expect(isCoinbaseMature(1, 100)).toBe(true);
  });
});

describe("matureUtxos", () => {
  chainTest("reads Zebra's real answer: outpoints, values, scripts paying the listed address, heights", () => {
    const utxos = parseAddressUtxos(realAnswer());
    expect(utxos).toHaveLength(10);
    for (const u of utxos) {
      expect(bytesToHex(u.scriptPubKey)).toBe(bytesToHex(scriptFromAddress(u.address, mainnet)));
      expect(typeof u.value).toBe("bigint");
    }
    expect(utxos.map((u) => u.height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  chainTest("the real answer's outputs are coinbase outputs, so none is spendable until 100 blocks pass", () => {
    const utxos = parseAddressUtxos(realAnswer());
    const coinbases = new Map<number, string>();
    for (const f of zebraBlockFiles()) {
      if (f.network !== "mainnet" || f.heights![0]! > 10) continue;
      const block = decodeBlock(f.blocks[0]!);
      const first = block.transactions[0]!;
      expect(isCoinbase(first)).toBe(true);
      coinbases.set(f.heights![0]!, displayHex(computeTxid(first)));
    }
    for (const u of utxos) expect(u.txid).toBe(coinbases.get(u.height));

    expect(matureUtxos(realAnswer(), 10)).toEqual([]);
    expect(matureUtxos(realAnswer(), 100).map((u) => u.height)).toEqual([1]);
    expect(matureUtxos(realAnswer(), 109).map((u) => u.height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(matureUtxos({ utxos: realAnswer(), hash: "00", height: 10 }, 101).map((u) => u.height)).toEqual([1, 2]);
  });

  chainTest("outputs of transactions named as ordinary are spendable at once", () => {
    const [first] = parseAddressUtxos(realAnswer());
    expect(matureUtxos(realAnswer(), 10, { nonCoinbaseTxids: [first!.txid.toUpperCase()] }).map((u) => u.txid)).toEqual([first!.txid]);
  });

  test("a malformed answer is refused naming the entry and field", () => {
    expect(() => matureUtxos({ result: [] }, 1)).toThrow(/array of UTXOs/);
    const entry = { address: "tm", txid: "ab".repeat(32), outputIndex: 0, script: "76a9", satoshis: 5, height: 1 };
    expect(() => matureUtxos([entry, { ...entry, satoshis: "5" }], 200)).toThrow(/entry 1: satoshis/);
    expect(() => matureUtxos([{ ...entry, script: "zz" }], 200)).toThrow(/entry 0: script is not hex/);
    expect(() => matureUtxos([{ ...entry, txid: "abc" }], 200)).toThrow(/entry 0: txid/);
    expect(() => matureUtxos([entry], -1)).toThrow(/tipHeight/);
  });
});
