import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHIPPED_CASES } from "../../core/corpus/shipped.js";
import { loadChainProfile } from "../../core/corpus/chain-profile.js";
import { DEFAULT_LIMITS } from "../../core/targets/config.js";
import { chainAnchors } from "../../zcash/fixture/chain/anchors.js";
import { syntheticChain } from "../../zcash/fixture/chain/index.js";
import { startGrpcServer, type RunningGrpcServer } from "../../zcash/fixture/grpc/server.js";
import { freePort } from "../../zcash/real/process.js";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { serveBenchLines, serveBenchReport, type ServeBenchContext } from "./report.js";
import { runBench, unreachable, type BenchBuild } from "./runner.js";
import { blockCount, blockHeight, planScenarios, ScenarioError, type BlockScenario, type Scenario } from "./scenarios.js";
import { folderBytes, processCpuMs } from "./server-usage.js";
import { coreShare, perSecond, spreadOf } from "./stats.js";

const model = syntheticChain();
const anchors = chainAnchors(model);
const plan = (over: Partial<Parameters<typeof planScenarios>[0]> = {}) =>
  planScenarios({ anchors, clients: [1, 3], blockRequests: 4, latencyRpcs: ["GetLightdInfo", "GetTreeState"], latencyCalls: 5, ...over });

describe("scenarios", () => {
  test("the download runs from Sapling activation to the tip; the 1,000-block range ends at the tip and starts no lower", () => {
    const p = plan();
    const sapling = anchors.sapling_activation as number;
    const tip = anchors.tip as number;
    expect(p.download).toEqual({ from: sapling, to: tip });
    expect(p.range).toEqual({ from: Math.max(sapling, tip - 999), to: tip });
    expect(p.scenarios.map((s) => s.id)).toEqual([
      "range-1000.c1",
      "range-1000.c3",
      "download.c1",
      "block.c1",
      "block.c3",
      "latency.GetLightdInfo",
      "latency.GetTreeState",
    ]);
    expect(p.skipped).toEqual([]);
  });

  test("on a chain whose tip moves, the ranges need --range; given one, the 1,000-block range is its last 1,000 blocks", () => {
    const mainnet = loadChainProfile(SHIPPED_CASES, "mainnet").anchors;
    expect(() => plan({ anchors: mainnet })).toThrow(ScenarioError);
    expect(() => plan({ anchors: mainnet })).toThrow(/--range/);
    const sapling = mainnet.sapling_activation as number;
    const p = plan({ anchors: mainnet, download: { from: sapling, to: sapling + 5000 }, latencyRpcs: ["GetTreeState"] });
    expect(blockCount(p.range)).toBe(1000);
    expect(p.range.to).toBe(sapling + 5000);
    // GetTreeState asks for the tip, which this chain only knows live.
    expect(p.skipped.map((s) => s.scenario)).toEqual(["latency.GetTreeState"]);
  });

  test("single-block clients ask heights inside the range, and not all the same ones", () => {
    const s = plan().scenarios.find((x) => x.id === "block.c3") as BlockScenario;
    const heights = [0, 1, 2].flatMap((c) => [0, 1, 2, 3].map((i) => blockHeight(s, c, i)));
    expect(heights.every((h) => h >= s.range.from && h <= s.range.to)).toBe(true);
    expect(new Set(heights).size).toBe(heights.length);
  });
});

describe("figures", () => {
  test("median and spread of runs, rates and the share of a core", () => {
    expect(spreadOf([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30, relative: 1 });
    expect(spreadOf([7])).toEqual({ median: 7, min: 7, max: 7, relative: 0 });
    expect(spreadOf([4, 1, 2, 3]).median).toBe(2.5);
    expect(perSecond(291, 500)).toBeCloseTo(582);
    expect(coreShare(25, 100)).toBe(0.25);
  });

  test("a process's CPU time from /proc agrees with its own count, and a folder's size is the sum of its files", () => {
    const own = process.cpuUsage();
    const fromProc = processCpuMs(process.pid)!;
    expect(fromProc).toBeGreaterThan(0);
    expect(Math.abs(fromProc - (own.user + own.system) / 1000)).toBeLessThan(100);
    expect(processCpuMs(undefined)).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), "zconform-serve-bench-"));
    try {
      mkdirSync(join(dir, "db", "blocks"), { recursive: true });
      writeFileSync(join(dir, "db", "blocks", "a"), "abc");
      writeFileSync(join(dir, "b"), "12345");
      expect(folderBytes(dir)).toBe(8);
      expect(folderBytes(join(dir, "missing"))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a bench against the fixture's reference server (small, 3 runs)", () => {
  let server: RunningGrpcServer;
  let build: BenchBuild;
  let scenarios: Scenario[];
  beforeAll(async () => {
    server = await startGrpcServer({ model, profile: "reference" });
    // The server runs in this process: its pid is ours, which is enough to see the figure read.
    build = {
      name: "reference",
      grpc: { url: server.url },
      deadlineMs: DEFAULT_LIMITS.deadlineMs,
      maxMessageBytes: DEFAULT_LIMITS.maxMessageBytes,
      pid: process.pid,
    };
    scenarios = plan().scenarios;
  });
  afterAll(() => server.close());

  const context = (over: Partial<ServeBenchContext> = {}): ServeBenchContext => {
    const p = plan();
    return {
      startedAt: new Date(),
      machine: { cpus: 2, cpuModel: "test", node: process.version, loadAverage: { start: 0, end: 0 } },
      chain: "fixture",
      builds: [{ name: "reference", implementation: "other", emulated: false }],
      runs: 3,
      clients: [1, 3],
      range: p.range,
      download: p.download,
      scenarios,
      startup: [],
      serverTotals: [],
      unreachable: [],
      skipped: [],
      tipFollowing: null,
      timingScale: null,
      partial: false,
      ...over,
    };
  };

  test("every scenario runs 3 times, receives every block it asked for, and the report holds to its schema", async () => {
    const seen: string[] = [];
    const { results, partial } = await runBench({ builds: [build], scenarios, runs: 3, onRun: (s, _, run) => seen.push(`${run} ${s.id}`) });
    expect(partial).toBe(false);
    expect(seen.slice(0, scenarios.length)).toEqual(scenarios.map((s) => `1 ${s.id}`));
    for (const s of scenarios) {
      const r = results.find((x) => x.scenario === s.id && x.build === "reference")!;
      expect(r.runs).toHaveLength(3);
      for (const f of r.runs) {
        expect([f.failed, f.statuses]).toEqual([0, { OK: f.calls }]);
        expect(f.wallMs).toBeGreaterThan(0);
        expect(f.bytes).toBeGreaterThan(0);
        expect(f.clientCpuMs).toBeGreaterThanOrEqual(0);
        expect(f.serverCpuMs).not.toBeNull();
        if (s.kind === "range") expect([f.calls, f.blocks]).toEqual([s.clients, s.clients * blockCount(s.range)]);
        if (s.kind === "block") expect([f.calls, f.blocks]).toEqual([s.clients * s.requestsPerClient, s.clients * s.requestsPerClient]);
        if (s.kind === "latency") {
          expect([f.calls, f.blocks]).toEqual([s.calls, 0]);
          expect(f.latencyMs!.p50).toBeGreaterThan(0);
          expect(f.latencyMs!.p50).toBeLessThanOrEqual(f.latencyMs!.max);
        }
      }
    }
    const report = serveBenchReport(results, context());
    expect(schemaErrors("serve-bench", report)).toEqual([]);
    expect([report.kind, report.exitCode, report.summary.failedCalls]).toEqual(["serve-bench", 0, 0]);
    // Every run streams the same blocks, so the median rate is the rate of the median run.
    const download = report.results.find((x) => x.scenario === "download.c1")!;
    expect(download.blocksPerSecond!.median).toBeCloseTo(perSecond(download.runs[0]!.blocks, download.wallMs.median), 6);
    expect(download.blocksPerSecond!.min).toBeLessThanOrEqual(download.blocksPerSecond!.max);
    const lines = serveBenchLines(report);
    expect(lines.find((l) => l.startsWith("| scenario"))).toContain("reference");
    for (const s of scenarios) expect(lines.some((l) => l.startsWith(`| ${s.label}`))).toBe(true);
  }, 60_000);

  test("a build that does not answer is not benchmarked, says why, and the bench exits 3", async () => {
    const port = await freePort();
    const why = await unreachable({ ...build, name: "gone", grpc: { url: `http://127.0.0.1:${port}` }, deadlineMs: 2_000 });
    expect(why).toMatch(/UNAVAILABLE/);
    const report = serveBenchReport([], context({ unreachable: [{ build: "gone", reason: why! }] }));
    expect(schemaErrors("serve-bench", report)).toEqual([]);
    expect(report.exitCode).toBe(3);
    expect(serveBenchLines(report)).toContain(`not benchmarked: gone: ${why}`);
  });

  test("an abort stops the bench between runs: what finished is kept, marked partial", async () => {
    const controller = new AbortController();
    const { results, partial } = await runBench({
      builds: [build],
      scenarios: scenarios.slice(0, 2),
      runs: 3,
      signal: controller.signal,
      onRun: () => controller.abort(),
    });
    expect(partial).toBe(true);
    expect(results.map((r) => r.runs.length)).toEqual([1, 0]);
  });
});
