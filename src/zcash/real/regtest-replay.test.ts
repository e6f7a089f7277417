import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../../core/io/oversized.test-helper.js";
import { bytesToHex } from "../codec/index.js";
import { readReplay, writeMempoolFile } from "./regtest-replay.js";

describe("a recorded regtest folder", () => {
  const root = mkdtempSync(join(tmpdir(), "zconform-replay-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  const folder = (files: Record<string, string>) => {
    const dir = join(root, String(n++));
    mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };
  const doc = (tip: number, extra: object = {}) => JSON.stringify({ tip, activationHeights: { canopy: 1, nu5: 10 }, ...extra });

  test("reads the blocks, the mempool written beside them and the activation heights", () => {
    const dir = folder({
      "blocks.txt": "00aa\n01bb\n02cc\n",
      "regtest.json": doc(2, { transactions: { miner: "tmA", other: "tmB", mined: [], mempool: [] } }),
    });
    writeMempoolFile(dir, [Uint8Array.of(5, 6), Uint8Array.of(7)]);
    const r = readReplay(dir);
    expect([r.blocks, r.mempool.map(bytesToHex), r.activationHeights, r.transact?.miner]).toEqual([
      ["00aa", "01bb", "02cc"],
      ["0506", "07"],
      { canopy: 1, nu5: 10 },
      "tmA",
    ]);
  });

  test("a folder that is not a recorded run is refused, naming the file and line", () => {
    expect(() => readReplay(folder({ "regtest.json": doc(1) }))).toThrow(/blocks\.txt is missing: replay a folder that `zconform regtest --dir` wrote/);
    expect(() => readReplay(folder({ "blocks.txt": "00aa\nxyz\n", "regtest.json": doc(1) }))).toThrow(/blocks\.txt:2: not a raw block in hex/);
    expect(() => readReplay(folder({ "blocks.txt": "00aa\n01bb\n", "mempool.txt": "0g\n", "regtest.json": doc(1) }))).toThrow(
      /mempool\.txt:1: not a raw transaction in hex/,
    );
    expect(() => readReplay(folder({ "blocks.txt": "00aa\n01bb\n", "regtest.json": doc(5) }))).toThrow(/says the tip is 5, .*blocks\.txt holds heights 0\.\.1/);
    expect(() => readReplay(folder({ "blocks.txt": "00aa\n01bb\n", "regtest.json": "{" }))).toThrow(/regtest\.json: not JSON/);
    expect(() => readReplay(folder({ "blocks.txt": "00aa\n01bb\n", "regtest.json": JSON.stringify({ tip: 1, activationHeights: { nu5: 0 } }) }))).toThrow(
      /activationHeights must map upgrades to heights >= 1/,
    );
  });

  test("a file of the folder over its size limit is refused by name and limit, before it is read", () => {
    const cases: [string, string, number][] = [
      ["blocks.txt", "the block file", INPUT_LIMITS.blockFileBytes],
      ["mempool.txt", "the mempool file", INPUT_LIMITS.blockFileBytes],
      ["regtest.json", "the replay document", INPUT_LIMITS.replayDocumentBytes],
    ];
    for (const [name, what, limit] of cases) {
      const dir = folder({ "blocks.txt": "00aa\n01bb\n", "mempool.txt": "05\n", "regtest.json": doc(1) });
      const file = sparseFile(join(dir, name));
      expect(() => readReplay(dir)).toThrow(`${file}: ${tooLarge(what, limit)}`);
    }
  });
});
