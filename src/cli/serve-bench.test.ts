import { afterAll, describe, expect, test } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schemaErrors } from "../../test/schemas.test-helper.js";
import type { ServeBenchReport } from "../modes/serve-bench/report.js";
import { parseClients, parseRange, serveBenchCommand, type ServeBenchOptions } from "./serve-bench.js";

const capture = () => {
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  return { lines, out: { stdout: (l: string) => lines.stdout.push(l), stderr: (l: string) => lines.stderr.push(l) } };
};

describe("zconform serve-bench", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-serve-bench-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("client counts and the download range: parsed, or refused saying what is expected", () => {
    expect(parseClients(undefined)).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
    expect(parseClients("8,1, 8")).toEqual([1, 8]);
    expect(() => parseClients("0")).toThrow(/--clients must be an integer from 1 to 1024/);
    expect(parseRange("419200..419299")).toEqual({ from: 419200, to: 419299 });
    expect(() => parseRange("10-20")).toThrow(/--range must be FROM\.\.TO/);
    expect(() => parseRange("20..10")).toThrow(/TO is below FROM/);
  });

  test("bad input is exit 2 with one line, before anything starts", async () => {
    const bad: [ServeBenchOptions, RegExp][] = [
      [{ runs: "0" }, /--runs must be an integer from 1 to 100/],
      [{ range: "a..b" }, /--range must be FROM\.\.TO/],
      [{ config: join(dir, "none.yaml"), real: true }, /--real starts real servers against the fixture network/],
      [{ build: ["x"] }, /--build selects builds of a config/],
      [{ tipBlocks: "-1" }, /--tip-blocks must be an integer from 0 to 100000/],
      [{ tipEveryMs: "0" }, /--tip-every-ms must be an integer from 1 to 3600000/],
    ];
    for (const [o, message] of bad) {
      const { lines, out } = capture();
      expect(await serveBenchCommand(o, out)).toBe(2);
      expect(lines.stderr.join("\n")).toMatch(message);
    }
  });

  test("against the fixture in its own process: every scenario answered in full, the fixture's CPU read from outside, its moving node's blocks followed, the JSON report and the page written", async () => {
    const json = join(dir, "serve-bench.json");
    const html = join(dir, "serve-bench.html");
    const { lines, out } = capture();
    const code = await serveBenchCommand(
      { runs: "1", clients: "1,2", blockRequests: "2", calls: "3", tipBlocks: "3", tipEveryMs: "200", json, html, quiet: false },
      out,
    );
    expect(lines.stderr.filter((l) => /not benchmarked|failed/.test(l))).toEqual([]);
    expect(code).toBe(0);
    expect(existsSync(json)).toBe(true);
    const r = JSON.parse(readFileSync(json, "utf8")) as ServeBenchReport;
    expect(schemaErrors("serve-bench", r)).toEqual([]);
    expect(r.builds.map((b) => b.name)).toEqual(["reference"]);
    expect(r.scenarios.map((s) => s.id)).toEqual([
      "range-1000.c1",
      "range-1000.c2",
      "download.c1",
      "block.c1",
      "block.c2",
      "latency.GetLightdInfo",
      "latency.GetTreeState",
      "latency.GetLatestBlock",
    ]);
    for (const s of r.results) {
      expect(s.failedCalls).toBe(0);
      expect(s.requestsPerSecond.median).toBeGreaterThan(0);
      // The fixture's process is not this one: its CPU time is read from /proc.
      expect(s.serverCpuMs).not.toBeNull();
    }
    const download = r.results.find((x) => x.scenario === "download.c1")!;
    expect(download.runs[0]!.blocks).toBe(r.download.to - r.download.from + 1);
    expect(lines.stdout.find((l) => l.startsWith("| scenario"))).toMatch(/\| +reference \|$/);
    // After the scenarios, the fixture's node (moving, in its own process) mined 3 blocks above the tip the scenarios read, and the reference served each.
    const tip = r.tipFollowing!;
    expect([tip.skipped, tip.error, tip.timingScale]).toEqual([null, null, null]);
    expect(tip.mined.map((m) => m.height)).toEqual([1, 2, 3].map((i) => r.download.to + i));
    expect(tip.builds.map((b) => [b.build, b.served, b.events])).toEqual([["reference", 3, 3]]);
    expect(lines.stdout.find((l) => l.startsWith("| tip following: blocks served"))).toMatch(/\| +3\/3 \|$/);

    // The page: blocks/s against clients for ranges and single blocks, bars for the download and each small rpc.
    const page = readFileSync(html, "utf8");
    expect([...page.matchAll(/<figure class="chart" id="([^"]+)">/g)].map((m) => m[1])).toEqual([
      "bench-range",
      "bench-block",
      "bench-download",
      "bench-latency-0",
      "bench-latency-1",
      "bench-latency-2",
      "bench-tip-following",
    ]);
    const rangeTable = /id="bench-range">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(page)![1]!;
    const medians = r.results.filter((x) => x.scenario.startsWith("range-1000.")).map((x) => Math.round(x.blocksPerSecond!.median).toLocaleString("en-US"));
    expect([...rangeTable.matchAll(/<tr><th scope="row">(\d+)<\/th><td>([\d,]+) \(runs/g)].map((m) => [m[1], m[2]])).toEqual([
      ["1", medians[0]],
      ["2", medians[1]],
    ]);
    expect(page).toContain("<figcaption>GetTreeState, one call at a time: median call</figcaption>");
    expect(page).not.toMatch(/<script|\bsrc=/i);
  }, 120_000);
});
