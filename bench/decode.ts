// Decode throughput on real blocks, each beside a baseline measured in the same run:
// hex-decoding the same text into bytes, the least any decoder of this input must do.
// Run: npx tsx bench/decode.ts   (chain data from ZCONFORM_CHAIN_DATA or ../shared/chain-data)
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeBlock } from "../src/zcash/codec/block.js";
import { bytesToHex, hexToBytes } from "../src/zcash/codec/bytes.js";

const here = dirname(fileURLToPath(import.meta.url));
const CHAIN_DATA = resolve(process.env.ZCONFORM_CHAIN_DATA ?? join(here, "..", "..", "shared", "chain-data"));

interface DataSet {
  name: string;
  /** Blocks as the hex text a node or file gives. */
  hex: string[];
  /** The same blocks already as bytes (for the decoder-only figure). */
  raw: Uint8Array[];
  bytes: number;
}

function load(name: string, files: string[]): DataSet {
  const hex = files.map((f) => {
    const p = join(CHAIN_DATA, "zebra", "blocks", f);
    return f.endsWith(".bin") ? bytesToHex(new Uint8Array(readFileSync(p))) : readFileSync(p, "utf8").trim();
  });
  return { name, hex, raw: hex.map(hexToBytes), bytes: hex.reduce((n, h) => n + h.length / 2, 0) };
}

const sets: DataSet[] = [
  load("testnet 141042 (1.9 MB, 4830 inputs)", ["testnet/block-test-0-141-042.bin"]),
  load("mainnet NU5 1687106-1687121 (6 blocks)", [106, 107, 108, 113, 118, 121].map((h) => `mainnet/block-main-1-687-${h}.txt`)),
  load("testnet NU5 1842421-1842468 (5 blocks)", [421, 432, 462, 467, 468].map((h) => `testnet/block-test-1-842-${h}.txt`)),
];

let sink = 0;

function baseline(set: DataSet): void {
  for (const h of set.hex) sink ^= hexToBytes(h).length;
}

function decodeFromHex(set: DataSet): void {
  for (const h of set.hex) {
    const block = decodeBlock(hexToBytes(h));
    if (!block.merkleRootValid) throw new Error("merkle mismatch");
    sink ^= block.transactions.length;
  }
}

function decodeOnly(set: DataSet): void {
  for (const b of set.raw) sink ^= decodeBlock(b).transactions.length;
}

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

console.log(`machine: ${cpus().length} cpus (nproc), node ${process.version}, ${cpuModel}`);
console.log("");
console.log("Decode = hex text to DecodedBlock (hexToBytes + decodeBlock: parse, block hash, every txid, merkle check).");
console.log("Baseline = hexToBytes alone on the same text. Decoder only = decodeBlock on bytes already in memory.");
console.log("");
console.log("| data | block bytes | decode MB/s | decode blocks/s | baseline MB/s | baseline blocks/s | decode time / baseline time | decoder only, ms per pass |");
console.log("|---|---|---|---|---|---|---|---|");
for (const set of sets) {
  const tBase = measure(() => baseline(set));
  const tDec = measure(() => decodeFromHex(set));
  const tOnly = measure(() => decodeOnly(set));
  const mb = set.bytes / 1e6;
  const n = set.hex.length;
  console.log(`| ${set.name} | ${set.bytes} | ${(mb / tDec).toFixed(0)} | ${(n / tDec).toFixed(0)} | ` +
    `${(mb / tBase).toFixed(0)} | ${(n / tBase).toFixed(0)} | ${(tDec / tBase).toFixed(1)}x | ${(tOnly * 1000).toFixed(2)} |`);
}
if (sink === 0.5) console.log(sink); // keeps the work observable
