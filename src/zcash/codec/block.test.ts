import { describe, expect, test } from "@jest/globals";
import { chainTest, readChainText, readHexLines } from "../../../test/chain-data.js";
import {
  assertMerkleRoot,
  blockHash,
  coinbaseHeight,
  decodeBlock,
  decodeBlockHex,
  encodeBlock,
  heightFromScript,
  heightPush,
  InvalidBlockError,
  type DecodedBlock,
} from "./block.js";
import { bytesEqual, bytesToHex, displayHex, hexToBytes, HexError } from "./bytes.js";
import { checkpoints, lightwalletdBlockFiles, zebraBlockFiles, type BlockFile } from "./chain-files.test-helper.js";
import { merkleRoot } from "./merkle.js";
import { mainnet, testnet, upgradeAt, UPGRADE_NAMES } from "./network.js";
import { DecodeError } from "./reader.js";
import { isCoinbase } from "./tx-model.js";
import { decodeTransaction } from "./tx-decode.js";
import { authDataRoot, authDigest, computeTxid } from "./txid.js";

/** The per-block figures the chain-data README tabulates. */
function figures(blocks: DecodedBlock[]) {
  const versions = new Map<number, number>();
  let txs = 0,
    tIn = 0,
    tOut = 0,
    joinSplits = 0,
    spends = 0,
    outputs = 0,
    actions = 0;
  for (const b of blocks) {
    for (const tx of b.transactions) {
      txs++;
      versions.set(tx.version, (versions.get(tx.version) ?? 0) + 1);
      if (!isCoinbase(tx)) tIn += tx.vin.length;
      tOut += tx.vout.length;
      joinSplits += tx.sprout?.joinSplits.length ?? 0;
      spends += tx.sapling?.spends.length ?? 0;
      outputs += tx.sapling?.outputs.length ?? 0;
      actions += tx.orchard?.actions.length ?? 0;
    }
  }
  const v = [...versions.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, n]) => `v${k}×${n}`)
    .join(" ");
  return { txs, versions: v, tIn, tOut, joinSplits, sapling: `${spends}/${outputs}`, actions };
}

function allFiles(): BlockFile[] {
  return [...zebraBlockFiles(), ...lightwalletdBlockFiles()];
}

describe("real blocks", () => {
  chainTest("every block decodes to its last byte, re-encodes byte for byte, reproduces its merkle root, and has the height its file names", () => {
    let count = 0;
    for (const f of allFiles()) {
      f.blocks.forEach((bytes, i) => {
        const b = decodeBlock(bytes, { requireValid: true });
        expect(b.size).toBe(bytes.length);
        expect(bytesEqual(encodeBlock(b), bytes)).toBe(true);
        expect(b.merkleRootValid).toBe(true);
        expect(bytesEqual(blockHash(b.header), b.hash)).toBe(true);
        expect(`${f.rel}#${i}: ${b.height}`).toBe(`${f.rel}#${i}: ${f.heights![i]}`);
        count++;
      });
    }
    expect(count).toBe(89 + 21 + 4 + 4 + 6); // zebra without the bad copy, lightwalletd files, compact fixture
  });

  chainTest("the figures of every block in the chain-data README's zebra table match", () => {
    const readme = readChainText("README.md");
    const row =
      /^\| (block-[\w-]+\.(?:txt|bin))(?: \(bad copy\))? \| (main|test) \| (\d+) \| ([^|]+?) \| (\d+) \| ([^|]+?) \| (\d+) \| (\d+) \| (\d+) \| (\d+\/\d+) \| (\d+) \| (\d+) \|$/gm;
    const byName = new Map(zebraBlockFiles().map((f) => [f.rel.split("/").pop()!, f]));
    let rows = 0;
    for (const m of readme.matchAll(row)) {
      const [, name, net, height, upgrade, txs, versions, tIn, tOut, js, sapling, actions, size] = m;
      if (name!.endsWith("-bad.txt")) continue;
      const f = byName.get(name!);
      expect(f).toBeDefined();
      const b = decodeBlock(f!.blocks[0]!);
      const params = net === "main" ? mainnet : testnet;
      const u = upgradeAt(params, b.height!);
      expect({ name, height: b.height, upgrade: u ? UPGRADE_NAMES[u] : "Genesis/Sprout", size: b.size, ...figures([b]) }).toEqual({
        name,
        height: Number(height),
        upgrade,
        size: Number(size),
        txs: Number(txs),
        versions,
        tIn: Number(tIn),
        tOut: Number(tOut),
        joinSplits: Number(js),
        sapling,
        actions: Number(actions),
      });
      rows++;
    }
    expect(rows).toBe(89);
  });

  chainTest("the figures of the lightwalletd files in the README match, and each file is a linked chain", () => {
    const readme = readChainText("README.md");
    const row =
      /^\| (lightwalletd\/[\w.-]+) \| (main|test) \| (\d+)(?:–(\d+))? \| (\d+) \| (\d+) \| ([^|]+?) \| (\d+)\/(\d+) \| (\d+\/\d+) \| (\d+) \| True \|$/gm;
    const byName = new Map(lightwalletdBlockFiles().map((f) => [f.rel.replace(" (full)", ""), f]));
    let rows = 0;
    for (const m of readme.matchAll(row)) {
      const [, name, , first, last, nBlocks, txs, versions, tIn, tOut, sapling, actions] = m;
      const f = byName.get(name!);
      expect(f).toBeDefined();
      const blocks = f!.blocks.map((bytes) => decodeBlock(bytes));
      expect(blocks.map((b) => b.height)).toEqual(f!.heights);
      expect([blocks[0]!.height, blocks[blocks.length - 1]!.height, blocks.length]).toEqual([Number(first), Number(last ?? first), Number(nBlocks)]);
      for (let i = 1; i < blocks.length; i++) expect(bytesEqual(blocks[i]!.header.prevHash, blocks[i - 1]!.hash)).toBe(true);
      const { joinSplits: _unused, ...fig } = figures(blocks);
      expect({ name, ...fig }).toEqual({
        name,
        txs: Number(txs),
        versions,
        tIn: Number(tIn),
        tOut: Number(tOut),
        sapling,
        actions: Number(actions),
      });
      rows++;
    }
    expect(rows).toBe(7);
  });

  chainTest("lightwalletd mainnet 380640..380643 (one block per file) link up", () => {
    const blocks = [380640, 380641, 380642, 380643].map((h) => decodeBlockHex(readHexLines("lightwalletd", `mainnet-${h}.block.txt`)[0]!));
    for (let i = 1; i < blocks.length; i++) expect(bytesEqual(blocks[i]!.header.prevHash, blocks[i - 1]!.hash)).toBe(true);
  });

  chainTest("block hashes agree with Zebra's checkpoint lists wherever heights overlap", () => {
    const lists = { mainnet: checkpoints("mainnet"), testnet: checkpoints("testnet") };
    const seen: string[] = [];
    for (const f of allFiles()) {
      for (const bytes of f.blocks) {
        const b = decodeBlock(bytes);
        const expected = lists[f.network].get(b.height!);
        if (expected === undefined) continue;
        expect(`${f.network} ${b.height} ${displayHex(b.hash)}`).toBe(`${f.network} ${b.height} ${expected}`);
        seen.push(`${f.network} ${b.height}`);
      }
    }
    // The heights where a block file and a checkpoint coincide.
    expect(seen).toEqual(expect.arrayContaining(["mainnet 0", "testnet 0", "testnet 280000", "testnet 584000", "testnet 1116000"]));
  });

  chainTest("hash and prev in the lightwalletd compact-block fixture agree with the decoded blocks", () => {
    const entries = JSON.parse(readChainText("lightwalletd", "testnet-289460-289465.compact_blocks.json")) as {
      block: number;
      hash: string;
      prev: string;
      full: string;
    }[];
    for (const e of entries) {
      const b = decodeBlockHex(e.full);
      expect([b.height, displayHex(b.hash), displayHex(b.header.prevHash)]).toEqual([e.block, e.hash, e.prev]);
    }
  });

  chainTest("Zebra's getblock of mainnet 2222000: merkle root and auth data root from its two transactions", () => {
    const doc = JSON.parse(readChainText("zebra", "rpc-vectors", "getblock_response_2.json"));
    const txs = (doc.tx as { hex: string }[]).map((t) => decodeTransaction(hexToBytes(t.hex)));
    expect(displayHex(merkleRoot(txs.map((t) => computeTxid(t))))).toBe(doc.merkleroot);
    expect(displayHex(authDataRoot(txs.map((t) => authDigest(t))))).toBe(doc.authdataroot);
  });
});

describe("bad blocks", () => {
  chainTest("zebra's block-main-0-000-202-bad.txt is rejected: merkle root mismatch (and no valid height push)", () => {
    const bytes = hexToBytes(readHexLines("zebra", "blocks", "mainnet", "block-main-0-000-202-bad.txt")[0]!);
    const b = decodeBlock(bytes);
    expect(b.merkleRootValid).toBe(false);
    expect(b.height).toBeUndefined(); // its coinbase pushes 0xca alone, a negative script number
    expect(() => decodeBlock(bytes, { requireValid: true })).toThrow(InvalidBlockError);
    expect(() => assertMerkleRoot(b)).toThrow(/merkle root mismatch: header has [0-9a-f]{64}, the 1 txids give [0-9a-f]{64}/);
  });

  chainTest("every line of lightwalletd's badblocks-malformed.txt is rejected with an offset or a reason", () => {
    const lines = readHexLines("lightwalletd", "badblocks-malformed.txt");
    expect(lines).toHaveLength(10);
    const messages = lines.map((line) => {
      try {
        decodeBlockHex(line, { requireValid: true });
      } catch (e) {
        if (e instanceof HexError || e instanceof DecodeError) return e.message;
        throw e;
      }
      throw new Error(`accepted: ${line.slice(0, 40)}`);
    });
    expect(messages[0]).toBe('not hex: "x" at character 4');
    expect(messages[1]).toBe("offset 0: truncated reading header.version (need 4 bytes, 3 left)");
    // The other lines stop one header field further each; the error names that field.
    const fields = messages.slice(1).map((m) => /^offset \d+: truncated reading header\.(\w+) \(need \d+ bytes, \d+ left\)$/.exec(m)?.[1]);
    expect(fields).toEqual(["version", "prevHash", "merkleRoot", "blockCommitments", "time", "bits", "nonce", "solution", "solution"]);
  });

  chainTest("trailing bytes after the last transaction are rejected with their offset", () => {
    const bytes = hexToBytes(readHexLines("zebra", "blocks", "mainnet", "block-main-0-000-001.txt")[0]!);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes);
    expect(() => decodeBlock(padded)).toThrow(`offset ${bytes.length}: 3 trailing bytes after the last of 1 transactions`);
  });

  chainTest("truncation inside a transaction names the transaction, the field and the offset", () => {
    const bytes = hexToBytes(readHexLines("zebra", "blocks", "mainnet", "block-main-0-000-001.txt")[0]!);
    // Cut inside the coinbase's last output script.
    expect(() => decodeBlock(bytes.subarray(0, bytes.length - 10))).toThrow(
      /^offset \d+: truncated reading tx 0 vout\[1\]\.scriptPubKey \(length 23, \d+ bytes left\)$/,
    );
  });

  chainTest("an altered transaction keeps decoding but fails the merkle check", () => {
    const b = decodeBlock(hexToBytes(readHexLines("zebra", "blocks", "mainnet", "block-main-0-000-001.txt")[0]!));
    const tx = b.transactions[0]!;
    const changed = encodeBlock({ ...b, transactions: [{ ...tx, lockTime: tx.lockTime + 1 }] });
    expect(decodeBlock(changed).merkleRootValid).toBe(false);
  });
});

describe("coinbase heights", () => {
  test.each([0, 1, 16, 17, 127, 128, 255, 256, 32767, 32768, 65535, 8388607, 8388608, 3_428_143])("heightPush(%i) reads back", (h) => {
    expect(heightFromScript(heightPush(h))).toBe(h);
  });

  test("encodings as the chain has them", () => {
    expect(bytesToHex(heightPush(1))).toBe("51");
    expect(bytesToHex(heightPush(17))).toBe("0111");
    expect(bytesToHex(heightPush(202))).toBe("02ca00"); // mainnet 202: sign byte needed
    expect(heightFromScript(hexToBytes("01ca"))).toBeUndefined();
    expect(heightFromScript(hexToBytes("4f"))).toBeUndefined();
    expect(heightFromScript(new Uint8Array(0))).toBeUndefined();
  });

  chainTest("heights 0-20 from lightwalletd's mainnet 0-20 file, genesis by its null prevHash", () => {
    const heights = readHexLines("lightwalletd", "mainnet-0-20.blocks.txt").map((l) => coinbaseHeight(decodeBlockHex(l)));
    expect(heights).toEqual(Array.from({ length: 21 }, (_, i) => i));
  });
});
