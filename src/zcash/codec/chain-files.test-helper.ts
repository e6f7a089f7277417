// Test helper: the real blocks under ../shared/chain-data, with the heights their file
// names give. Call only inside chainTest bodies (the data may be absent locally).
import { readdirSync, readFileSync } from "node:fs";
import { chainPath, readChainText, readHexLines } from "../../../test/chain-data.js";
import { hexToBytes } from "./bytes.js";

export interface BlockFile {
  /** Path relative to the chain-data directory. */
  rel: string;
  network: "mainnet" | "testnet";
  /** One entry per block in the file. */
  blocks: Uint8Array[];
  /** Height per block when the file name says it (zebra: one block; lightwalletd: a range). */
  heights: number[] | undefined;
}

const ZEBRA_NAME = /^block-(main|test)-(\d)-(\d{3})-(\d{3})(-bad)?\.(txt|bin)$/;

export function zebraBlockFiles(opts: { includeBad?: boolean } = {}): BlockFile[] {
  const out: BlockFile[] = [];
  for (const net of ["mainnet", "testnet"] as const) {
    const dir = chainPath("zebra", "blocks", net);
    for (const name of readdirSync(dir).sort()) {
      const m = ZEBRA_NAME.exec(name);
      if (!m) throw new Error(`unexpected file name ${name}`);
      if (m[5] && !opts.includeBad) continue;
      const rel = `zebra/blocks/${net}/${name}`;
      const blocks = m[6] === "bin" ? [new Uint8Array(readFileSync(chainPath(rel)))] : readHexLines(rel).map(hexToBytes);
      out.push({ rel, network: net, blocks, heights: [Number(`${m[2]}${m[3]}${m[4]}`)] });
    }
  }
  return out;
}

/** lightwalletd's block files (and the `full` blocks of the compact-block fixture). */
export function lightwalletdBlockFiles(): BlockFile[] {
  const out: BlockFile[] = [];
  for (const name of readdirSync(chainPath("lightwalletd")).sort()) {
    if (!/\.blocks?\.txt$/.test(name)) continue;
    const rel = `lightwalletd/${name}`;
    const m = /^(mainnet|testnet)-(\d+)(?:-(\d+))?\./.exec(name);
    if (!m) throw new Error(`unexpected file name ${name}`);
    const blocks = readHexLines(rel).map(hexToBytes);
    const first = Number(m[2]);
    const last = m[3] ? Number(m[3]) : first;
    const heights = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    out.push({ rel, network: m[1] as "mainnet" | "testnet", blocks, heights });
  }
  const compact = compactFixture();
  out.push({
    rel: "lightwalletd/testnet-289460-289465.compact_blocks.json (full)",
    network: "testnet",
    blocks: compact.map((c) => hexToBytes(c.full)),
    heights: compact.map((c) => c.block),
  });
  return out;
}

export interface CompactFixtureEntry {
  block: number;
  hash: string;
  prev: string;
  full: string;
  compact: string;
}

export function compactFixture(): CompactFixtureEntry[] {
  return JSON.parse(readChainText("lightwalletd", "testnet-289460-289465.compact_blocks.json")) as CompactFixtureEntry[];
}

/** `height hash` lines of zebra's checkpoint list for a network. */
export function checkpoints(network: "mainnet" | "testnet"): Map<number, string> {
  const text = readChainText("zebra", "checkpoints", network === "mainnet" ? "main-checkpoints.txt" : "test-checkpoints.txt");
  const map = new Map<number, string>();
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (!t) continue;
    const [h, hash] = t.split(/\s+/);
    map.set(Number(h), hash!);
  }
  return map;
}

/** Reads a zcash-test-vectors style JSON file (source line, header line, rows) into objects. */
export function vectorRows(...parts: string[]): Record<string, unknown>[] {
  const data = JSON.parse(readChainText(...parts)) as unknown[][];
  const columns = (data[1]![0] as string).split(",").map((c) => c.trim());
  return data.slice(2).map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}
