// Fuzzing the case loader (parseCaseFile) with the real case files under cases/ mutated
// as people and merges damage them (lines deleted, duplicated, swapped, retyped,
// truncated, re-indented, YAML features such as anchors and tags thrown in), and with
// random YAML-looking text.
//
// "Clear" for the case loader: a ProblemsError whose every problem names the file it
// was given, a line inside the file (1 .. number of lines + 1), and a message in words
// (no "[object Object]"). A file that loads gives cases whose source lines are in it.

import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCaseFile } from "../../src/core/corpus/load.js";
import { ProblemsError, type Problem } from "../../src/core/io/located-yaml.js";
import { SMALL_CORPUS } from "../tools/temp-corpus.js";
import { expectClear, fuzz, FUZZ_RUNS, mutatedText, yamlishText } from "./fuzz.js";
import { lightwalletProtocol } from "../../src/zcash/protocol.js";

interface Seed {
  name: string;
  transport: "grpc" | "jsonrpc";
  text: string;
}

/** A case file that uses every feature the schema has. */
const RICH = `# every field the loader knows
method: GetBlockRange
description: ranges
defaults:
  expect: oracle
  volatile: [status.message]
  unordered: false
  tags: [range, happy]
  protocol: ">=0.4.0"
  chains: [fixture, testnet]
cases:
  - id: first-ten
    title: The first ten blocks
    request: { start: { height: 1 }, end: { height: "\${tip}" } }
    tags: [boundary]
  - id: reversed
    request: { start: { height: "\${tip-1}" }, end: { height: 1 } }
    expect: { error: [INVALID_ARGUMENT, 3] }
    volatile: ["[*].hash", "[0].vtx[*].fee"]
    unordered: true
    chains: [fixture]
  - id: raw
    request: { $wire: { $hex: "0a020801", $repeat: 2 } }
    expect: agree
`;

function seeds(): Seed[] {
  const out: Seed[] = [{ name: "cases/grpc/GetBlockRange.yaml", transport: "grpc", text: RICH }];
  for (const [rel, text] of Object.entries(SMALL_CORPUS)) {
    out.push({ name: `cases/${rel}`, transport: rel.startsWith("grpc/") ? "grpc" : "jsonrpc", text });
  }
  // The real corpus, when it is there: its files are what people actually edit. Each
  // seed keeps a file's head (comments, method, description, defaults) and its first
  // three cases, which keeps every construct the file uses at a third of the parse cost.
  for (const transport of ["grpc", "jsonrpc"] as const) {
    const dir = join("cases", transport);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)
      .filter((n) => n.endsWith(".yaml"))
      .sort()) {
      const text = readFileSync(join(dir, f), "utf8");
      out.push({
        name: join(dir, f),
        transport,
        text: text
          .split(/\n(?= {2}- id:)/)
          .slice(0, 4)
          .join("\n"),
      });
    }
  }
  return out;
}

function clearProblems(seed: Seed, text: string) {
  const lines = text.split("\n").length;
  return (e: Error): string | undefined => {
    const problems: Problem[] = (e as ProblemsError).problems;
    if (problems.length === 0) return "no problems listed";
    for (const p of problems) {
      if (p.file !== seed.name) return `problem names file ${p.file}`;
      if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1) return `line ${p.line} outside 1..${lines + 1}`;
      if (typeof p.message !== "string" || p.message.trim().length < 3 || p.message.includes("[object Object]")) return `message ${JSON.stringify(p.message)}`;
      if (typeof p.field !== "string") return "field is not a string";
    }
    return undefined;
  };
}

function check(seed: Seed, text: string): void {
  let cases;
  try {
    cases = parseCaseFile(text, seed.name, seed.transport, lightwalletProtocol);
  } catch (e) {
    expectClear(e, ProblemsError, clearProblems(seed, text));
    return;
  }
  const lines = text.split("\n").length;
  for (const c of cases) {
    if (c.source.file !== seed.name || c.source.line < 1 || c.source.line > lines) throw new Error(`case ${c.id} has source ${c.source.file}:${c.source.line}`);
  }
}

describe("case loader fuzzing", () => {
  const all = seeds();

  test("the seeds load as they are", () => {
    for (const s of all) expect(() => parseCaseFile(s.text, s.name, s.transport, lightwalletProtocol)).not.toThrow();
  });

  test("mutated and random case files fail only with clear problems", () => {
    const bySeed = new Map(all.map((s) => [s.text, s]));
    const input = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...all).chain((s) => mutatedText([s.text]).map((text) => ({ seed: s, text }))) },
      { weight: 1, arbitrary: fc.record({ seed: fc.constantFrom(...all), text: yamlishText }) },
    );
    const stats = fuzz("parseCaseFile", 0xca5e01, input, ({ seed, text }) => check(bySeed.get(seed.text) ?? seed, text));
    expect(stats.runs).toBe(FUZZ_RUNS);
  });
});
