// The oracle's txids are checked against the node's own list: a real Zebra answer for a
// real block passes; a list that names another transaction, or a different count, makes
// the oracle unable to vouch for the block.
import { describe, expect } from "@jest/globals";
import { chainTest, readChainText, readHexLines } from "../../../test/chain-data.js";
import { decodeBlock } from "../codec/index.js";
import { checkTxids } from "./blocks.js";
import { OracleFault } from "./status.js";

function zebraSnapshot(name: string): { hash: string; tx: string[] } {
  return JSON.parse(readChainText("zebra", "rpc-snapshots", name).split(/^---$/m).slice(2).join("---"));
}

function faultOf(f: () => void): OracleFault {
  try {
    f();
  } catch (e) {
    if (e instanceof OracleFault) return e;
    throw e;
  }
  throw new Error("no fault");
}

describe("checkTxids", () => {
  chainTest("Zebra's getblock 1 of mainnet block 1 lists the txid computed from the raw block", () => {
    const snap = zebraSnapshot("get_block_verbose_height_verbosity_1@mainnet_10.snap");
    const block = decodeBlock(Buffer.from(readHexLines("lightwalletd", "mainnet-0-20.blocks.txt")[1]!, "hex"));
    expect(() => checkTxids(snap.tx, block, "getblock 1 1")).not.toThrow();
    expect(() => checkTxids(undefined, block, "getblock 1 1")).not.toThrow();
  });

  chainTest("a listed txid that is not the raw transaction's, or a wrong count, is an oracle fault naming it", () => {
    const snap = zebraSnapshot("get_block_verbose_height_verbosity_1@mainnet_10.snap");
    const block = decodeBlock(Buffer.from(readHexLines("lightwalletd", "mainnet-0-20.blocks.txt")[1]!, "hex"));
    const other = snap.tx[0]!.replace(/^../, (b) => (b === "00" ? "01" : "00"));
    const wrong = faultOf(() => checkTxids([other], block, "getblock 1 1"));
    expect(wrong.kind).toBe("protocol");
    expect(wrong.message).toContain(`tx[0] is ${other}`);
    expect(wrong.message).toContain(snap.tx[0]);
    expect(faultOf(() => checkTxids([...snap.tx, other], block, "getblock 1 1")).message).toContain("lists 2 transactions; the raw block has 1");
    expect(faultOf(() => checkTxids("nope", block, "getblock 1 1")).message).toContain("not a list");
  });
});
