import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, fromJson, toBinary } from "@bufbuild/protobuf";
import { ChainMetadataSchema, CompactBlockSchema } from "../zcash/gen/walletrpc/compact_formats_pb.js";
import { chainPath, chainTest, readChainText, readHexLines } from "../../test/chain-data.js";
import { INPUT_LIMITS } from "../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../core/io/oversized.test-helper.js";
import { decodeCommand, EXIT_BAD_INPUT, EXIT_INVALID_BLOCK, EXIT_OK, type DecodeCommandOptions } from "./decode.js";

async function run(file: string, opts: DecodeCommandOptions = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await decodeCommand(file, opts, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) });
  return { code, stdout, stderr, json: stdout.map((l) => JSON.parse(l)) };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "zconform-decode-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function temp(name: string, content: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe("decodeCommand on real chain data", () => {
  chainTest("lightwalletd mainnet 0-20: one summary per block, heights, hashes against Zebra's snapshot", async () => {
    const r = await run(chainPath("lightwalletd", "mainnet-0-20.blocks.txt"), { network: "mainnet" });
    expect(r.code).toBe(EXIT_OK);
    expect(r.stderr).toEqual([]);
    expect(r.json.map((j) => j.height)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(r.json.every((j) => j.merkleRootValid === true && j.txCount === 1 && j.upgrade === "Sprout")).toBe(true);
    for (let i = 1; i < r.json.length; i++) expect(r.json[i].prevHash).toBe(r.json[i - 1].hash);
    // Zebra's getblock verbosity 1 of mainnet height 1 (hash and the coinbase txid).
    const snap = JSON.parse(
      readChainText("zebra", "rpc-snapshots", "get_block_verbose_height_verbosity_1@mainnet_10.snap").split(/^---$/m).slice(2).join("---"),
    );
    expect([r.json[1].hash, r.json[1].txids]).toEqual([snap.hash, snap.tx]);
    expect(Object.keys(r.json[0])).toEqual(
      expect.arrayContaining(["height", "hash", "prevHash", "merkleRootValid", "txids", "time", "version", "size", "txCount", "txVersions"]),
    );
  });

  chainTest("a binary block (testnet 141042)", async () => {
    const r = await run(chainPath("zebra", "blocks", "testnet", "block-test-0-141-042.bin"), { network: "testnet" });
    expect(r.code).toBe(EXIT_OK);
    expect(r.json).toHaveLength(1);
    expect([r.json[0].height, r.json[0].txCount, r.json[0].size, r.json[0].upgrade]).toEqual([141042, 21, 1933194, "Sprout"]);
  });

  chainTest("--compact prints lightwalletd's CompactBlocks (all pools; txids are real, the fixture's are zero)", async () => {
    // The fixture is JSON, not a block file: its raw blocks go through a temp file.
    const entries = JSON.parse(readChainText("lightwalletd", "testnet-289460-289465.compact_blocks.json")) as { full: string; compact: string }[];
    const file = temp("compact.txt", entries.map((e) => e.full).join("\n") + "\n");
    const out = await run(file, { compact: true });
    expect(out.code).toBe(EXIT_OK);
    expect(out.stdout).toHaveLength(6);
    out.json.forEach((j, i) => {
      const cb = fromJson(CompactBlockSchema, j);
      for (const tx of cb.vtx) tx.txid = new Uint8Array(32);
      cb.chainMetadata = create(ChainMetadataSchema); // the fixture's is present but empty
      expect(Buffer.from(toBinary(CompactBlockSchema, cb)).toString("hex")).toBe(entries[i]!.compact);
    });
  });

  chainTest("the bad copy of mainnet 202 is printed with merkleRootValid false and exits 1", async () => {
    const r = await run(chainPath("zebra", "blocks", "mainnet", "block-main-0-000-202-bad.txt"));
    expect(r.code).toBe(EXIT_INVALID_BLOCK);
    expect(r.json).toHaveLength(1);
    expect(r.json[0].merkleRootValid).toBe(false);
    expect(r.stderr).toEqual([
      expect.stringMatching(/block-main-0-000-202-bad\.txt:1: merkle root mismatch: header has [0-9a-f]{64}, the transactions give [0-9a-f]{64}$/),
    ]);
  });

  chainTest("lightwalletd's badblocks-malformed.txt: every line reported with file, line and offset, exit 2", async () => {
    const file = chainPath("lightwalletd", "badblocks-malformed.txt");
    const r = await run(file);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stdout).toEqual([]);
    expect(r.stderr).toHaveLength(10);
    expect(r.stderr[0]).toBe(`${file}:1: bad hex: not hex: "x" at character 4`);
    expect(r.stderr[1]).toBe(`${file}:2: bad block: offset 0: truncated reading header.version (need 4 bytes, 3 left)`);
    r.stderr
      .slice(1)
      .forEach((m, i) =>
        expect(m).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${i + 2}: bad block: offset \\d+: truncated reading header\\.`)),
      );
  });
});

describe("decodeCommand on bad input", () => {
  chainTest("a good block, a blank line, then bad lines: good ones still print, errors name line and position", async () => {
    const good = readHexLines("zebra", "blocks", "mainnet", "block-main-0-000-001.txt")[0]!;
    const file = temp("mixed.txt", `${good}\n\n  zz${good.slice(2)}  \n${good}0\n${good.slice(0, 400)}\n${good}00\n`);
    const r = await run(file);
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.json.map((j) => j.height)).toEqual([1]);
    expect(r.stderr).toEqual([
      `${file}:3: bad hex: not hex: "z" at character 0`,
      `${file}:4: bad hex: odd number of hex digits (${good.length + 1}) at character ${good.length}`,
      `${file}:5: bad block: offset 140: truncated reading header.solution (length 1344, 57 bytes left)`,
      `${file}:6: bad block: offset ${good.length / 2}: 1 trailing bytes after the last of 1 transactions`,
    ]);
  });

  test("an empty or missing file exits 2", async () => {
    const empty = await run(temp("empty.txt", "\n\n"));
    expect([empty.code, empty.stderr[0]]).toEqual([EXIT_BAD_INPUT, expect.stringContaining("no blocks")]);
    const missing = await run(join(dir, "nope.txt"));
    expect([missing.code, missing.stderr[0]]).toEqual([EXIT_BAD_INPUT, expect.stringContaining("cannot read")]);
  });

  test("a block file over the size limit, hex or binary: exit 2 naming the file and the limit, before it is read", async () => {
    for (const name of ["huge.txt", "huge.bin"]) {
      const file = sparseFile(join(dir, name));
      expect(await run(file)).toMatchObject({
        code: EXIT_BAD_INPUT,
        stdout: [],
        stderr: [`${file}: ${tooLarge("the block file", INPUT_LIMITS.blockFileBytes)}`],
      });
    }
  });

  test("an unknown network exits 2", async () => {
    const r = await run(join(dir, "unused.txt"), { network: "main" as never });
    expect([r.code, r.stderr]).toEqual([EXIT_BAD_INPUT, ['unknown network "main" (expected mainnet, testnet or regtest)']]);
  });

  test("a truncated binary block names the file and offset", async () => {
    const r = await run(temp("short.bin", new Uint8Array([4, 0, 0, 0, 1, 2])));
    expect(r.code).toBe(EXIT_BAD_INPUT);
    expect(r.stderr).toEqual([`${join(dir, "short.bin")}: bad block: offset 4: truncated reading header.prevHash (need 32 bytes, 2 left)`]);
  });
});
