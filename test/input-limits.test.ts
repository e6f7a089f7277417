// Hostile or mistaken input files end in file:line errors and exit 2, quickly and in
// little memory: a case file with a flood of syntax errors, case files and ledgers far
// larger than any real one, a file with more cases than a corpus holds, and a config
// whose YAML aliases multiply one long list.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { join } from "node:path";
import { INPUT_LIMITS } from "../src/core/io/input-limits.js";
import { runCli } from "./tools/cli.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

let dir: TempDir;

beforeAll(() => {
  dir = tempDir();
});

afterAll(() => dir?.remove());

function corpus(name: string, files: Record<string, string>): string {
  for (const [f, text] of Object.entries(files)) dir.write(join(name, f), text);
  return join(dir.path, name);
}

/** Runs the command and checks it failed as a user error, not a crash. */
async function refused(args: string[]) {
  const t0 = Date.now();
  const r = await runCli(args, 60_000);
  const ms = Date.now() - t0;
  expect({ code: r.code, crash: /RangeError|heap out of memory|at .*\.ts:\d+/.test(r.stderr) }).toEqual({ code: 2, crash: false });
  return { ...r, ms };
}

describe("input size limits", () => {
  test("a case file under the size limit with 100,000 syntax errors: exit 2, the first problems by line, the rest counted", async () => {
    const lines = ["method: GetBlock", "cases:", ...Array.from({ length: 100_000 }, (_, i) => `  - { id: c${i}, request: { height: ] }`)];
    const text = lines.join("\n");
    expect(text.length).toBeLessThan(INPUT_LIMITS.caseFileBytes);
    const root = corpus("syntax", { "grpc/GetBlock.yaml": text });
    const r = await refused(["cases", "--cases", root]);
    expect(r.stderr).toMatch(/grpc\/GetBlock\.yaml:3: /);
    expect(r.stderr).toMatch(/… and \d+ more problems/);
  }, 90_000);

  test("a 50 MB case file is refused before it is read", async () => {
    const root = corpus("huge", { "grpc/GetBlock.yaml": `method: GetBlock\ncases:\n${"  - { id: a, request: { height: 1 } }\n".repeat(1_400_000)}` });
    const r = await refused(["cases", "--cases", root]);
    expect(r.stderr).toMatch(new RegExp(`grpc/GetBlock\\.yaml:1: the case file is \\d+ bytes; the limit is ${INPUT_LIMITS.caseFileBytes}`));
    expect(r.ms).toBeLessThan(20_000);
  }, 90_000);

  test("more cases in one file than the limit: exit 2 at the cases line", async () => {
    const n = INPUT_LIMITS.casesPerFile + 1;
    const root = corpus("many", {
      "grpc/GetBlock.yaml": ["method: GetBlock", "cases:", ...Array.from({ length: n }, (_, i) => `  - { id: c${i}, request: { height: 1 } }`)].join("\n"),
    });
    const r = await refused(["cases", "--cases", root]);
    expect(r.stderr).toContain(`GetBlock.yaml:2: cases: ${n} cases; the limit is ${INPUT_LIMITS.casesPerFile} per file`);
  }, 60_000);

  test("a ledger over the size limit: exit 2 naming it", async () => {
    const root = corpus("ledger", { "grpc/GetBlock.yaml": "method: GetBlock\ncases:\n  - { id: a, request: { height: 1 } }\n" });
    const ledger = dir.write("big-quirks.yaml", `quirks: []\n${"#".repeat(INPUT_LIMITS.ledgerBytes)}\n`);
    const r = await refused(["demo", "--cases", root, "--ledger", ledger, "-q"]);
    expect(r.stderr).toMatch(/big-quirks\.yaml:1: the ledger is \d+ bytes/);
  }, 60_000);

  test("a config whose aliases multiply a long list: exit 2 in seconds with the line", async () => {
    const list = `big: &big [${Array.from({ length: 5000 }, (_, i) => i).join(", ")}]`;
    const cfg = dir.write(
      "alias.config.yaml",
      [
        "chain: fixture",
        "builds:",
        "  - name: a",
        "    implementation: other",
        "    grpc: { url: 'http://127.0.0.1:1' }",
        `    ${list}`,
        ...Array.from({ length: 60 }, (_, i) => `    x${i}: *big`),
      ].join("\n"),
    );
    const root = corpus("alias", { "grpc/GetBlock.yaml": "method: GetBlock\ncases:\n  - { id: a, request: { height: 1 } }\n" });
    const r = await refused(["run", "-c", cfg, "--cases", root]);
    expect(r.stderr).toMatch(/alias\.config\.yaml:\d+: .*expands to more than 100000 values/);
    expect(r.ms).toBeLessThan(10_000);
  }, 60_000);
});
