import { describe, expect } from "@jest/globals";
import { chainTest } from "../../../test/chain-data.js";
import { vectorRows } from "../codec/chain-files.test-helper.js";
import { bytesToHex, decodeTransaction, hexToBytes } from "../codec/index.js";
import { sighashV4 } from "./sighash-v4.js";

describe.each([
  ["zip_0143.json", 3],
  ["zip_0243.json", 4],
])("signature digests of %s (zcash-test-vectors)", (file, version) => {
  chainTest(`every vector, with and without a transparent input, gives its sighash (v${version})`, () => {
    const rows = vectorRows("zcash-test-vectors", file);
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const tx = decodeTransaction(hexToBytes(row.tx as string));
      expect(tx.version).toBe(version);
      const index = row.transparent_input as number;
      const input = index < 0 ? undefined : { index, scriptCode: hexToBytes(row.script_code as string), amount: BigInt(row.amount as number) };
      expect(bytesToHex(sighashV4(tx, row.consensus_branch_id as number, input, row.hash_type as number))).toBe(row.sighash);
    }
  });
});
