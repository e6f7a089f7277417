// A report read back is a user file like the corpus: one over its size limit is refused
// by its size, before a byte is read, with a message naming it.

import { afterAll, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../io/input-limits.js";
import { sparseFile, tooLarge } from "../io/oversized.test-helper.js";
import { readJsonReport } from "./json-file.js";

const dir = mkdtempSync(join(tmpdir(), "zconform-report-limit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a JSON report above the limit names its file and the limit, and nothing is read", () => {
  const path = sparseFile(join(dir, "huge.json"));
  expect(() => readJsonReport(path)).toThrow(`${path}: ${tooLarge("the JSON report", INPUT_LIMITS.reportBytes)}`);
});
