// A deadline case's golden holds what the server had sent when it enforced the deadline;
// a later answer that enforces it too is the same answer, whatever it had sent by then.

import { afterAll, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Answer, CaseResult } from "../../core/results/result.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { driftOf } from "./drift.js";
import { goldenOf, goldenPath, writeGolden } from "./store.js";

const dir = mkdtempSync(join(tmpdir(), "zconform-golden-deadline-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const build = "lightwalletd v0.5.4 (real)";
const id = "GetMempoolStream/deadline-100ms";
const answer = (status: string, hex: string[], message: string): Answer => ({
  side: build,
  transport: "grpc",
  status,
  code: status === "OK" ? null : 4,
  message,
  count: hex.length,
  wireBytes: 0,
  ms: 100,
  hex,
});
const result = (a: Answer): CaseResult => ({
  caseId: id,
  method: "GetMempoolStream",
  transport: "grpc",
  expect: "error DEADLINE_EXCEEDED",
  tags: [],
  source: "t:1",
  answers: [a],
  divergences: [],
  volatile: ["status.message"],
  excluded: [],
  unordered: true,
  patches: [],
  deadlineMs: 100,
});
writeGolden(goldenPath(dir, "fixture", build, id), goldenOf(id, answer("DEADLINE_EXCEEDED", ["0a00", "0a01"], "context deadline exceeded")));
const drift = (a: Answer) => driftOf(result(a), lightwalletProtocol, dir, "fixture")[0]!.status;

test("DEADLINE_EXCEEDED after fewer messages than the golden holds is unchanged", () => {
  expect(drift(answer("DEADLINE_EXCEEDED", [], "stream reset (RST_STREAM CANCEL) by the server at the deadline it was sent"))).toBe("unchanged");
});

test("an answer that does not enforce the deadline is drift", () => {
  expect(drift(answer("OK", ["0a00", "0a01"], ""))).toBe("changed");
});
