import { describe, expect, test } from "@jest/globals";
import type { ClassifiedDivergence } from "../../core/results/result.js";
import type { RpcTiming } from "./latency.js";
import { latencyHtml, latencyReport } from "./latency-report.js";
import { detectPlateau, plateauShare } from "./plateau.js";
import { histogram, statsOf } from "./stats.js";

const around = (ms: number, n = 40) => Array.from({ length: n }, (_, i) => ms + ((i * 7) % 11) / 3);

function timing(build: string, rpc: string, samples: number[], baselineMs: number | null, holds = samples): RpcTiming {
  return {
    build,
    rpc,
    request: {},
    stats: statsOf(samples),
    histogram: histogram(samples),
    plateauShare: plateauShare(samples, baselineMs ?? 0),
    baselineMs,
    baselineOf: baselineMs === null ? null : "p10 of reference's GetTreeState",
    warmupMs: [samples[0]!],
    errors: 0,
    statuses: { OK: samples.length },
    answerBytes: 100,
    samples,
    holds,
  };
}

describe("the latency page", () => {
  const ref = timing("reference", "GetTreeState", around(1), null, around(0.1));
  const zaino = timing("zaino-0.10.1", "GetTreeState", around(42), 1);
  const d = detectPlateau({ ...zaino }, { ...ref }, undefined)!;
  const divergence: ClassifiedDivergence = {
    ...d,
    caseId: "latency.GetTreeState",
    method: "GetTreeState",
    transport: "grpc",
    build: "zaino-0.10.1",
    quirk: "zaino-small-answers-40ms",
  };
  const report = latencyReport(
    {
      timings: [ref, zaino, timing("reference", "GetLightdInfo", around(1), null)],
      controls: [timing("reference", "GetBlock", around(2), null)],
      divergences: [divergence],
    },
    {
      startedAt: new Date(),
      chain: "fixture",
      builds: [
        { name: "reference", implementation: "other", emulated: false },
        { name: "zaino-0.10.1", implementation: "zaino", emulated: true },
      ],
      reference: "reference",
      calls: 40,
      warmup: 1,
      skipped: [],
    },
  );
  const html = latencyHtml(report);
  const figure = (caption: string) =>
    new RegExp(`<figure class="chart" id="[^"]+"><figcaption>${caption}</figcaption>[\\s\\S]*?</figure>`).exec(html)?.[0] ?? "";

  test("a self-contained page without script: a figure per rpc and for the control, a row per build", () => {
    expect(html).toContain(`content="default-src &#39;none&#39;`);
    expect(html).not.toMatch(/<script|<link|\bsrc=|url\(/i);
    expect([...html.matchAll(/<figcaption>([^<]*)<\/figcaption>/g)].map((m) => m[1])).toEqual([
      "GetTreeState",
      "GetLightdInfo",
      "Control: GetBlock, 100-byte answers",
    ]);
    const rows = [...figure("GetTreeState").matchAll(/<text [^>]*text-anchor="end"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(rows).toEqual(["reference", "zaino-0.10.1"]);
    expect(html).toContain("builds: reference, zaino-0.10.1 (EMULATED)");
  });

  test("each row's bars hold all its calls; the plateau band sits 35–45 ms above the row's baseline; the divergence is named", () => {
    const fig = figure("GetTreeState");
    const calls = (build: string) => [...fig.matchAll(new RegExp(`<title>${build}: (\\d+) in `, "g"))].reduce((n, m) => n + Number(m[1]), 0);
    expect([calls("reference"), calls("zaino-0.10.1")]).toEqual([40, 40]);
    // zaino's baseline is 1 ms: its band is 36–46 ms; the reference has none, so 35–45 ms.
    expect(fig).toContain("<title>~40 ms plateau (35–45 ms above p10 of reference&#39;s GetTreeState): 36 ms–46 ms</title>");
    expect(fig).toContain("<title>~40 ms plateau (35–45 ms above zero: no baseline): 35 ms–45 ms</title>");
    expect(fig).toMatch(/⚠ plateau \(known\) · p50 4\d ms · 100% on the band/);
    expect(html).toContain("<b>known: zaino-small-answers-40ms</b>");
  });
});
