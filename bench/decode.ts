// Decode throughput on real blocks, by era, from bytes (the `.bin` files are read as they
// are; `.txt` files hold hex and are turned into bytes once, before anything is timed):
// `decodeBlock` parses every field, hashes the block header, computes every txid and
// checks the merkle root. Beside it, measured in the same run on the same blocks:
// - BLAKE2b alone: the exact BLAKE2b-256 inputs one decode of the set hashes (recorded
//   by counting calls into @noble/hashes during one decode), hashed again with nothing
//   else: the part of the decode that is ZIP-244's hashing rather than parsing.
// - SHA-256d alone: one double SHA-256 (node:crypto) over every block's bytes, the floor
//   for hashing the data once natively.
// Each figure is the median of 7 rounds of at least 300 ms each, after a warm-up.
// Run: npx tsx bench/decode.ts   (chain data from ZCONFORM_CHAIN_DATA or ../shared/chain-data)
import { blake2b } from "@noble/hashes/blake2.js";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeBlock } from "../src/zcash/codec/block.js";
import { hexToBytes } from "../src/zcash/codec/bytes.js";
import { sha256d } from "../src/zcash/codec/hash.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHAIN_DATA = resolve(process.env.ZCONFORM_CHAIN_DATA ?? join(here, "..", "..", "shared", "chain-data"));

interface DataSet {
  name: string;
  raw: Uint8Array[];
  bytes: number;
}

function load(name: string, files: string[]): DataSet {
  const raw = files.map((f) => {
    const p = join(CHAIN_DATA, "zebra", "blocks", f);
    return f.endsWith(".bin") ? new Uint8Array(readFileSync(p)) : hexToBytes(readFileSync(p, "utf8").trim());
  });
  return { name, raw, bytes: raw.reduce((n, b) => n + b.length, 0) };
}

const main = (h: string) => `mainnet/block-main-${h}`;
const test = (h: string) => `testnet/block-test-${h}`;
const sets: DataSet[] = [
  load("pre-Sapling: testnet 141042 (Sprout, one 1.9 MB block, .bin)", [test("0-141-042.bin")]),
  load("pre-Sapling: mainnet 347499, 347501, 419199 (Sprout, Overwinter)", [main("0-347-499.txt"), main("0-347-501.txt"), main("0-419-199.txt")]),
  load(
    "Sapling (v4): mainnet 419201 … 1046401 (6 blocks, one .bin)",
    ["0-419-201.txt", "0-419-202.txt", "0-434-873.txt", "0-653-601.txt", "0-903-000.txt", "1-046-401.bin"].map(main),
  ),
  load("NU5 with Orchard (v5): mainnet 1687107/118/121, testnet 1842421/462/467/468", [
    ...["1-687-107.txt", "1-687-118.txt", "1-687-121.txt"].map(main),
    ...["1-842-421.txt", "1-842-462.txt", "1-842-467.txt", "1-842-468.txt"].map(test),
  ]),
];

let sink = 0;

function decodeAll(set: DataSet): void {
  for (const b of set.raw) {
    const block = decodeBlock(b);
    if (!block.merkleRootValid) throw new Error(`${set.name}: merkle mismatch`);
    sink ^= block.transactions.length;
  }
}

/** The BLAKE2b inputs one decode of the set hashes, in order. */
function blakeInputs(set: DataSet): Uint8Array[] {
  const proto = Object.getPrototypeOf(Object.getPrototypeOf(blake2b.create({ dkLen: 32 }))) as { update(data: Uint8Array): unknown };
  const update = proto.update;
  const seen: Uint8Array[] = [];
  proto.update = function (this: unknown, data: Uint8Array) {
    seen.push(data.slice());
    return update.call(this, data);
  };
  try {
    decodeAll(set);
  } finally {
    proto.update = update;
  }
  return seen;
}

const PERSONAL = new TextEncoder().encode("ZTxIdHeadersHash");

/** Seconds per pass: median of `rounds` rounds, each running passes for at least `minMs`. */
function measure(f: () => void, rounds = 7, minMs = 300): number {
  for (let i = 0; i < 5; i++) f(); // warm up the JIT
  const perPass: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      f();
      n++;
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    perPass.push(elapsed / 1000 / n);
  }
  perPass.sort((a, b) => a - b);
  return perPass[Math.floor(perPass.length / 2)]!;
}

const cpuModel = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model ?? "unknown";
  } catch {
    return cpus()[0]?.model ?? "unknown";
  }
})();

console.log(
  `machine: ${cpus().length} cpus (nproc), node ${process.version}, ${cpuModel}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log("");
console.log(
  "| era and blocks | blocks | block bytes | decode MB/s | decode blocks/s | ms per pass | BLAKE2b calls / bytes per pass | BLAKE2b alone, ms (share of decode) | SHA-256d over the bytes, ms (decode / it) |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const set of sets) {
  const inputs = blakeInputs(set);
  const blakeBytes = inputs.reduce((n, b) => n + b.length, 0);
  const tDec = measure(() => decodeAll(set));
  const tBlake =
    inputs.length === 0
      ? 0
      : measure(() => {
          for (const data of inputs) sink ^= blake2b(data, { dkLen: 32, personalization: PERSONAL })[0]!;
        });
  const tSha = measure(() => {
    for (const b of set.raw) sink ^= sha256d(b)[0]!;
  });
  const mb = set.bytes / 1e6;
  const ms = (t: number) => (t * 1000).toFixed(t < 0.001 ? 3 : 2);
  console.log(
    `| ${set.name} | ${set.raw.length} | ${set.bytes} | ${(mb / tDec).toFixed(0)} | ${(set.raw.length / tDec).toFixed(0)} | ${ms(tDec)} | ` +
      `${inputs.length} / ${blakeBytes} | ${ms(tBlake)} (${((100 * tBlake) / tDec).toFixed(0)}%) | ${ms(tSha)} (${(tDec / tSha).toFixed(1)}x) |`,
  );
}
if (sink === 0.5) console.log(sink); // keeps the work observable
