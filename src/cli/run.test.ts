import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../core/io/oversized.test-helper.js";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { runLikeCommand } from "./run.js";

describe("zconform demo --chain", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-demo-chain-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a --chain block file over the size limit: exit 2 naming the file and the limit, before it is read", async () => {
    const chainFile = sparseFile(join(dir, "huge.txt"));
    const stderr: string[] = [];
    const code = await runLikeCommand({ cases: SHIPPED_CASES, chainFile, quiet: true }, { stdout: () => {}, stderr: (l) => stderr.push(l) });
    expect(code).toBe(2);
    // The fixture's "Starting…" notice comes first; then the one error, with no stack.
    expect(stderr.filter((l) => !l.startsWith("Starting the embedded fixture network"))).toEqual([
      `${chainFile}: ${tooLarge("the block file", INPUT_LIMITS.blockFileBytes)}`,
    ]);
  }, 60_000);
});
