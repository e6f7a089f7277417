// Fuzzing the block and transaction decoder with random bytes and with real and
// synthetic blocks and transactions mutated as a broken or hostile server would.
//
// "Clear" for the decoder: a DecodeError whose `offset` lies inside the input (0 ..
// length) and whose message is "offset N: <reason>" with a reason naming what was being
// read. Never a TypeError or RangeError from inside, never a hang (time budget per
// input), never a large allocation (a count that the remaining bytes cannot hold is
// refused before any array is made: heap growth per input is bounded). What decodes
// must encode back to the same bytes.

import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { getHeapStatistics } from "node:v8";
import { syntheticChain } from "../../src/zcash/fixture/chain/index.js";
import { decodeBlock, DecodeError, decodeTransaction, encodeBlock, encodeTransaction, hexToBytes } from "../../src/zcash/codec/index.js";
import { chainPath, chainTest, readHexLines } from "../chain-data.js";
import { expectClear, fuzz, FUZZ_RUNS, mutatedBytes } from "./fuzz.js";
import { readdirSync } from "node:fs";

/** Most bytes one input may add to the heap; a believed 2^25-entry count would be ~256 MiB. */
const HEAP_LIMIT = 64 * 1024 * 1024;

function clearDecodeError(input: Uint8Array) {
  return (e: Error): string | undefined => {
    const d = e as DecodeError;
    if (!Number.isInteger(d.offset) || d.offset < 0 || d.offset > input.length) return `offset ${d.offset} outside 0..${input.length}`;
    if (!e.message.startsWith(`offset ${d.offset}: `)) return "message does not start with the offset";
    if (!/[a-z]{4,}/i.test(d.reason) || d.reason.length < 12) return "reason does not say what was read";
    return undefined;
  };
}

function checkDecode<T>(input: Uint8Array, decode: (b: Uint8Array) => T, encode: (v: T) => Uint8Array): void {
  const before = getHeapStatistics().used_heap_size;
  let value: T | undefined;
  try {
    value = decode(input);
  } catch (e) {
    expectClear(e, DecodeError, clearDecodeError(input));
  }
  const grown = getHeapStatistics().used_heap_size - before;
  if (grown > HEAP_LIMIT) throw new Error(`one input of ${input.length} bytes grew the heap by ${grown} bytes`);
  if (value !== undefined) {
    const again = encode(value);
    if (Buffer.compare(Buffer.from(again), Buffer.from(input)) !== 0) throw new Error("decoded input does not encode back to the same bytes");
  }
}

const blockCheck = (b: Uint8Array) => checkDecode(b, (x) => decodeBlock(x), encodeBlock);
const txCheck = (b: Uint8Array) => checkDecode(b, decodeTransaction, encodeTransaction);

// The synthetic chain: every transaction version and pool, no outside data needed.
const synthetic = syntheticChain();
const synthBlocks = synthetic.blocks
  .filter((_, i) => i % 15 === 0 || synthetic.blocks[i]!.block.transactions.length > 2)
  .slice(0, 40)
  .map((b) => b.raw);
const synthTxs = synthetic.blocks
  .flatMap((b) => b.block.rawTransactions)
  .filter((_, i) => i % 7 === 0)
  .slice(0, 80);

const random = fc.uint8Array({ maxLength: 2048 });

describe("zcash decoder fuzzing", () => {
  test("decodeBlock: random bytes and mutated synthetic blocks", () => {
    const stats = fuzz(
      "decodeBlock/synthetic",
      0x5eed01,
      fc.oneof({ weight: 1, arbitrary: random }, { weight: 4, arbitrary: mutatedBytes(synthBlocks) }),
      blockCheck,
    );
    expect(stats.runs).toBe(FUZZ_RUNS);
  });

  test("decodeTransaction: random bytes and mutated synthetic transactions", () => {
    fuzz("decodeTransaction/synthetic", 0x5eed02, fc.oneof({ weight: 1, arbitrary: random }, { weight: 4, arbitrary: mutatedBytes(synthTxs) }), txCheck);
  });

  chainTest("decodeBlock and decodeTransaction: mutated real blocks and transactions", () => {
    // Every real block except the 1.9 MB one (one decode of it costs as much as a hundred others).
    const blocks: Uint8Array[] = [];
    for (const net of ["mainnet", "testnet"] as const) {
      for (const name of readdirSync(chainPath("zebra", "blocks", net)).sort()) {
        if (name.endsWith(".txt")) blocks.push(...readHexLines("zebra", "blocks", net, name).map(hexToBytes));
      }
    }
    expect(blocks.length).toBeGreaterThan(80);
    const txs = blocks.flatMap((b) => {
      try {
        return decodeBlock(b).rawTransactions;
      } catch {
        return []; // the deliberately broken copy
      }
    });
    fuzz("decodeBlock/real", 0x5eed03, mutatedBytes(blocks), blockCheck);
    fuzz("decodeTransaction/real", 0x5eed04, mutatedBytes(txs), txCheck);
  });

  test("a count of 2^32 items is refused before anything is allocated", () => {
    const header = synthetic.blocks[1]!.raw.subarray(0, 4 + 32 * 3 + 4 + 4 + 32 + 3 + 1344);
    const lying = Uint8Array.from([...header, 0xff, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00]);
    expect(() => decodeBlock(lying)).toThrow(DecodeError);
    // A transaction whose vin count claims 2^32 - 1 inputs, and one claiming the largest
    // CompactSize zcashd allows (2^25) with a few bytes left.
    const v1 = Uint8Array.from([0x01, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]);
    const big = Uint8Array.from([0x01, 0, 0, 0, 0xfe, 0x00, 0x00, 0x00, 0x02, 1, 2, 3]);
    for (const b of [v1, big]) {
      const before = getHeapStatistics().used_heap_size;
      expect(() => decodeTransaction(b)).toThrow(/vin count|CompactSize/);
      expect(getHeapStatistics().used_heap_size - before).toBeLessThan(HEAP_LIMIT);
    }
  });
});
