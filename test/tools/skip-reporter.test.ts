// The run's last line about skips: counts by the reasons recorded, each skipped test
// counted once, the rest under the suites' own skips.

import { afterEach, expect, jest, test } from "@jest/globals";
import { writeFileSync } from "node:fs";
import SkipReporter from "./skip-reporter.js";

const saved = process.env.ZCONFORM_SKIP_LOG;
afterEach(() => {
  // The reporter points the process at its own log; the real run's must come back.
  process.env.ZCONFORM_SKIP_LOG = saved;
  jest.restoreAllMocks();
});

function lastLine(reporter: SkipReporter, results: Parameters<SkipReporter["onRunComplete"]>[1]): string {
  let out = "";
  jest.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  reporter.onRunComplete(undefined, results);
  return out;
}

test("skips are counted by reason: per test, per file for a skipped describe, the rest as the suites' own", () => {
  const reporter = new SkipReporter();
  expect(process.env.ZCONFORM_SKIP_LOG).toBe(reporter.log);
  const line = (file: string, reason: string, scope: "test" | "file") => JSON.stringify({ file, reason, scope });
  writeFileSync(
    reporter.log,
    [line("/a.test.ts", "need real zainod", "test"), line("/a.test.ts", "need real zainod", "test"), line("/b.test.ts", "need chromium", "file"), ""].join(
      "\n",
    ),
  );
  const text = lastLine(reporter, {
    numTotalTests: 40,
    testResults: [
      { testFilePath: "/a.test.ts", numPendingTests: 3 },
      { testFilePath: "/b.test.ts", numPendingTests: 5 },
      { testFilePath: "/c.test.ts", numPendingTests: 0 },
    ],
  });
  expect(text).toBe("skipped 8 of 40 tests: 5 need chromium; 2 need real zainod; 1 skipped by their suites (cases not sent on this chain, platform)\n");
});

test("a run with nothing skipped says so", () => {
  const reporter = new SkipReporter();
  expect(lastLine(reporter, { numTotalTests: 3, testResults: [{ testFilePath: "/a.test.ts", numPendingTests: 0 }] })).toBe("skipped: none\n");
});
