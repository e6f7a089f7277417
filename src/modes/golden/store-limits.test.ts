// A golden file is a user file like the corpus: one over its size limit is refused by its
// size, before a byte is read, with a message naming it.

import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatProblem, ProblemsError } from "../../core/io/located-yaml.js";
import { INPUT_LIMITS } from "../../core/io/input-limits.js";
import { readGolden } from "./store.js";

describe("golden size limit", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-golden-limit-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a golden above the limit names its file and the limit, and nothing is read", () => {
    const path = join(dir, "huge.json");
    writeFileSync(path, "{");
    // A sparse file: its size is past the limit, no disk is spent and reading it would take gigabytes.
    truncateSync(path, INPUT_LIMITS.goldenBytes + 1);
    let error: unknown;
    try {
      readGolden(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProblemsError);
    expect((error as ProblemsError).problems.map(formatProblem)[0]).toContain(path);
    expect((error as ProblemsError).problems.map(formatProblem)[0]).toContain(`the limit is ${INPUT_LIMITS.goldenBytes}`);
  });
});
