// `zconform serve-bench --real`: the fixture network and the real servers installed here,
// benchmarked beside the reference (one small run). Real lightwalletd must be measured:
// its start (first answer, index at the tip, CPU time, index on disk) and every scenario
// answered in full with its CPU time read from /proc; then, following the fixture's moving
// node as it would a zebrad, every block the node mined served as its latest. Without the
// binary the suite is skipped locally and fails under CI=true (.ci/run installs it).
// Figures are checked for consistency only, never against a time.

import { afterAll, beforeAll, expect } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveBenchCommand } from "../src/cli/serve-bench.js";
import type { ServeBenchReport } from "../src/modes/serve-bench/report.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { schemaErrors } from "./schemas.test-helper.js";
import { realGate } from "./tools/real-gate.js";

const { pin, installed, realTest } = realGate("lightwalletd");

const name = realBuildName(pin);
const dir = mkdtempSync(join(tmpdir(), "zconform-real-serve-bench-"));
let code: number;
let report: ServeBenchReport;
let table: string[] = [];

beforeAll(async () => {
  if (!installed) return;
  const json = join(dir, "serve-bench.json");
  const stdout: string[] = [];
  code = await serveBenchCommand(
    { real: true, runs: "1", clients: "1,4", blockRequests: "3", calls: "5", tipBlocks: "5", tipEveryMs: "1000", json },
    { stdout: (l) => stdout.push(l), stderr: () => undefined },
  );
  report = JSON.parse(readFileSync(json, "utf8")) as ServeBenchReport;
  table = stdout;
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

realTest("the report holds to its schema and names the real build beside the reference", () => {
  expect(schemaErrors("serve-bench", report)).toEqual([]);
  expect(report.builds.map((b) => b.name)).toEqual(expect.arrayContaining(["reference", name]));
  expect(report.builds.find((b) => b.name === name)).toMatchObject({ emulated: false, version: pin.version });
  expect(table.find((l) => l.startsWith("| scenario"))).toContain(name);
});

realTest("its start is measured: first answer no later than the index at the tip, CPU spent, an index on disk", () => {
  const s = report.startup.find((x) => x.build === name)!;
  expect(s.firstAnswerMs).toBeGreaterThan(0);
  expect(s.tipMs).toBeGreaterThanOrEqual(s.firstAnswerMs);
  expect(s.cpuMsAtTip).toBeGreaterThan(0);
  expect(s.indexBytes).toBeGreaterThan(0);
  const total = report.serverTotals.find((x) => x.build === name)!;
  expect(total.cpuMs).toBeGreaterThanOrEqual(s.cpuMsAtTip!);
});

realTest("every scenario is answered in full, with the server's CPU time of each run", () => {
  expect(report.unreachable).toEqual([]);
  const mine = report.results.filter((r) => r.build === name);
  expect(mine.map((r) => r.scenario)).toEqual(report.scenarios.map((s) => s.id));
  for (const r of mine) {
    const s = report.scenarios.find((x) => x.id === r.scenario)!;
    expect([r.scenario, r.failedCalls]).toEqual([s.id, 0]);
    expect(r.runs.every((f) => f.serverCpuMs !== null && f.serverCpuMs >= 0)).toBe(true);
    if (s.kind !== "latency") expect(r.runs.every((f) => f.blocks === s.clients * s.blocksPerClient!)).toBe(true);
  }
});

realTest(
  "tip following: the fixture's node mined 5 blocks above the chain the scenarios read, and real lightwalletd served every one, with its figures",
  () => {
    const tip = report.tipFollowing!;
    expect([tip.skipped, tip.error]).toEqual([null, null]);
    expect(tip.mined.map((m) => m.height)).toEqual([1, 2, 3, 4, 5].map((i) => report.download.to + i));
    const lwd = tip.builds.find((b) => b.build === name)!;
    expect([lwd.events, lwd.served]).toEqual([5, 5]);
    expect(lwd.ms.every((v) => v !== null && v >= 0)).toBe(true);
    expect(lwd.p50Ms!).toBeLessThanOrEqual(lwd.p99Ms!);
    expect(lwd.p99Ms!).toBeLessThanOrEqual(lwd.maxMs!);
    expect(lwd.maxMs).toBe(Math.max(...(lwd.ms as number[])));
    expect(table.find((l) => l.startsWith("| tip following: blocks served"))).toContain("5/5");
  },
);

realTest("the exit code follows the calls: 3 when any build failed one, else 0", () => {
  const failed = report.results.some((r) => r.failedCalls > 0) || report.unreachable.length > 0;
  expect(code).toBe(failed ? 3 : 0);
  expect(
    report.results
      .filter((r) => r.build === name || r.build === "reference")
      .map((r) => r.failedCalls)
      .filter((n) => n > 0),
  ).toEqual([]);
});
