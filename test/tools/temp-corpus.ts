// Small purpose-written corpora in a temporary folder, laid out like cases/ (grpc/,
// jsonrpc/, chains/), for tests that run whole sessions or the CLI without depending on
// what the real corpus holds at the moment.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface TempDir {
  path: string;
  /** Writes a file under the folder (parents created) and returns its path. */
  write(relative: string, text: string): string;
  remove(): void;
}

export function tempDir(prefix = "zconform-test-"): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    write(relative, text) {
      const file = join(path, relative);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** A chain profile file for the fixture chain's anchors (cases/chains/<name>.yaml). */
export function chainProfileYaml(name: string, network: "mainnet" | "testnet" | "regtest", anchors: Record<string, number | string>): string {
  const lines = [`name: ${name}`, `network: ${network}`, "anchors:"];
  for (const [k, v] of Object.entries(anchors)) lines.push(`  ${k}: ${typeof v === "number" ? v : JSON.stringify(v)}`);
  return `${lines.join("\n")}\n`;
}

/** The few cases the reliability tests run: a unary and a streaming rpc, and JSON-RPC. */
export const SMALL_CORPUS: Record<string, string> = {
  "grpc/GetBlock.yaml": ["method: GetBlock", "cases:", "  - id: at-5", "    request: { height: 5 }"].join("\n"),
  "grpc/GetBlockRange.yaml": ["method: GetBlockRange", "cases:", "  - id: first-ten", "    request: { start: { height: 1 }, end: { height: 10 } }"].join("\n"),
  "grpc/GetLatestBlock.yaml": ["method: GetLatestBlock", "cases:", "  - id: tip", "    request: {}"].join("\n"),
  "jsonrpc/getblock.yaml": ["method: getblock", "cases:", "  - id: raw-5", '    request: ["5", 0]'].join("\n"),
  "jsonrpc/getblockcount.yaml": ["method: getblockcount", "cases:", "  - id: count", "    request: []"].join("\n"),
};

/** `n` GetBlock and `n` raw getblock cases at heights 1..n: enough calls for a build to go wrong part-way. */
export function blockCorpus(n: number): Record<string, string> {
  const heights = Array.from({ length: n }, (_, i) => i + 1);
  return {
    "grpc/GetBlock.yaml": ["method: GetBlock", "cases:", ...heights.map((h) => `  - { id: h${h}, request: { height: ${h} } }`)].join("\n"),
    "jsonrpc/getblock.yaml": ["method: getblock", "cases:", ...heights.map((h) => `  - { id: raw-${h}, request: ["${h}", 0] }`)].join("\n"),
  };
}
