import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sweepCommand } from "../../cli/sweep.js";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import type { SweepReport } from "./sweep-report.js";

describe("zconform sweep against the fixture's long chain", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-sweep-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const capture = () => {
    const lines = { stdout: [] as string[], stderr: [] as string[] };
    return { lines, out: { stdout: (l: string) => lines.stdout.push(l), stderr: (l: string) => lines.stderr.push(l) } };
  };

  test("a shard of the range, transparent pools: zebrad's missing vin/vout at their heights, throughput per build, the JSON report", async () => {
    const json = join(dir, "sweep.json");
    const { lines, out } = capture();
    const code = await sweepCommand(
      {
        from: "0",
        to: "2000",
        longChain: "2000",
        profiles: ["reference", "zaino-0.10.1", "zebrad-builtin"],
        poolTypes: "transparent,SAPLING",
        chunk: "300",
        window: "20",
        shard: "2/2",
        json,
        cases: join(dir, "no-corpus"),
        progress: false,
      },
      out,
    );
    const r = JSON.parse(readFileSync(json, "utf8")) as SweepReport;
    expect(code).toBe(1);
    expect(schemaErrors("sweep", r)).toEqual([]);
    expect([r.kind, r.exitCode]).toEqual(["sweep", 1]);
    expect([r.kind, r.range, r.requestedRange, r.shard, r.poolTypes, r.comparedAgainst]).toEqual([
      "sweep",
      { from: 1001, to: 2000 },
      { from: 0, to: 2000 },
      { index: 2, count: 2 },
      ["TRANSPARENT", "SAPLING"],
      "reference",
    ]);
    expect(r.summary.blocks).toBe(1000);
    expect(r.chunks).toHaveLength(4);
    expect(r.throughput.map((t) => [t.name, t.blocks])).toEqual([
      ["reference", 1000],
      ["zaino-0.10.1", 1000],
      ["zebrad-builtin", 1000],
    ]);
    expect(r.throughput.every((t) => t.blocksPerSecond > 0 && t.mbPerSecond > 0)).toBe(true);
    // zebrad never sends transparent data: every coinbase vanishes from its blocks.
    expect(new Set(r.divergences.map((d) => d.build))).toEqual(new Set(["zebrad-builtin"]));
    expect(r.divergences.every((d) => d.path.startsWith(`[${d.height}]`) && d.height >= 1001 && d.height <= 2000)).toBe(true);
    expect(r.summary.divergentHeights).toBe(1000);
    expect(r.tally.map((t) => t.path)).toContain("[*].vtx");
    expect(lines.stdout.join("\n")).toMatch(/Throughput[\s\S]*zebrad-builtin[\s\S]*Divergences: /);
  }, 60_000);

  test("agreeing builds exit 0; bad input exits 2 with the reason", async () => {
    const ok = capture();
    expect(
      await sweepCommand(
        { from: "5", to: "400", longChain: "400", profiles: ["reference", "ztreamer-master"], quiet: true, cases: join(dir, "none"), progress: false },
        ok.out,
      ),
    ).toBe(0);
    const bad = capture();
    expect(await sweepCommand({ from: "0", poolTypes: "SPROUT", cases: join(dir, "none") }, bad.out)).toBe(2);
    expect(bad.lines.stderr.join("\n")).toMatch(/--pool-types: unknown pool "SPROUT"/);
    const shard = capture();
    expect(await sweepCommand({ from: "0", shard: "3/2", cases: join(dir, "none") }, shard.out)).toBe(2);
    expect(shard.lines.stderr.join("\n")).toMatch(/k must be between 1 and 2/);
  }, 60_000);
});
