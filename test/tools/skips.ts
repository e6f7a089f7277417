// Tests that cannot run on this machine (no chain data, a real server not installed, no
// chromium) are skipped, and each skip says why where the run's skip reporter
// (skip-reporter.js) counts it: a jest run ends with one line of skipped tests by reason,
// so a green run that checked less than it could is visible at a glance.

import { appendFileSync } from "node:fs";
import { describe, expect, test } from "@jest/globals";

export type DeclareTest = (name: string, fn: Parameters<typeof test>[1], timeout?: number) => void;
export type DeclareDescribe = (name: string, fn: () => void) => void;

/** The file the reporter reads, set by it before any test file loads. */
const SKIP_LOG_ENV = "ZCONFORM_SKIP_LOG";

/** Records why tests of this file are skipped; `scope` "file" covers every skipped test of it. */
function record(reason: string, scope: "test" | "file"): void {
  const log = process.env[SKIP_LOG_ENV];
  if (log) appendFileSync(log, `${JSON.stringify({ file: expect.getState().testPath, reason, scope })}\n`);
}

/** `test` when `ready`; otherwise a `test.skip` that records `reason` for each test it skips. */
export function testIf(ready: boolean, reason: string): DeclareTest {
  if (ready) return test;
  return (name, fn, timeout) => {
    record(reason, "test");
    test.skip(name, fn, timeout);
  };
}

/** `describe` when `ready`; otherwise a `describe.skip` whose skipped tests count under `reason`. */
export function describeIf(ready: boolean, reason: string): DeclareDescribe {
  if (ready) return describe;
  return (name, fn) => {
    record(reason, "file");
    describe.skip(name, fn);
  };
}
