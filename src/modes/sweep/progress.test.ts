import { describe, expect, test } from "@jest/globals";
import { chunkLine, fmtDuration, progressLines, sweepProgressReporter } from "./progress.js";
import type { SweepProgress } from "./sweep.js";

const progress = (over: Partial<SweepProgress> = {}): SweepProgress => ({
  elapsedMs: 20_000,
  compared: 250_000,
  total: 1_000_000,
  sources: [
    { name: "reference", blocks: 251_000, bytes: 30e6 },
    { name: "zaino-0.10.1", blocks: 250_000, bytes: 28e6 },
    { name: "oracle", blocks: 250_100, bytes: 18e6 },
  ],
  divergences: 12,
  newDivergences: 2,
  divergentHeights: 7,
  ...over,
});

describe("sweep progress display", () => {
  test("overall share, ETA and divergences, then blocks/s and MB/s per source", () => {
    const lines = progressLines(progress(), [14_200, 14_100, 9_000], [1.5, 1.4, 0.9], 12_500);
    expect(lines[0]).toBe("sweep [######------------------] 25.0%  250,000/1,000,000 heights  ETA 1:00  12 divergences (2 new)");
    expect(lines[1]).toBe("  reference      14.2k blocks/s    1.50 MB/s  251,000 blocks");
    expect(lines[3]).toBe("  oracle          9000 blocks/s    0.90 MB/s  250,100 blocks");
  });

  test("durations", () => {
    expect([fmtDuration(59.4), fmtDuration(3725), fmtDuration(Infinity)]).toEqual(["0:59", "1:02:05", "--:--"]);
  });

  const chunk = {
    from: 100_000,
    to: 199_999,
    builds: [
      { name: "reference", status: "OK", blocks: 100_000 },
      { name: "zaino-0.10.1", status: "OK", blocks: 100_000, resumedAfter: "reset" },
    ],
  };

  test("away from a terminal: one line per finished chunk, nothing for the ticks", () => {
    const written: string[] = [];
    const r = sweepProgressReporter(false, (t) => written.push(t));
    r.onEvent({ type: "mode-progress", kind: "sweep", progress: progress() });
    r.onEvent({ type: "mode-progress", kind: "sweep", progress: progress({ chunk }) });
    expect(written).toEqual([`${chunkLine(progress({ chunk }))}\n`]);
    expect(written[0]).toBe(
      "sweep: heights 100,000..199,999 done, 250,000/1,000,000 compared, 7 divergent heights (2 new divergences) — reference OK, zaino-0.10.1 OK (resumed)\n",
    );
  });

  test("on a terminal: redrawn in place from the rates between events, cleared when the sweep ends", () => {
    const written: string[] = [];
    const r = sweepProgressReporter(true, (t) => written.push(t));
    r.onEvent({
      type: "mode-progress",
      kind: "sweep",
      progress: progress({ elapsedMs: 0, compared: 0, sources: progress().sources.map((s) => ({ ...s, blocks: 0, bytes: 0 })) }),
    });
    r.onEvent({ type: "mode-progress", kind: "sweep", progress: progress({ elapsedMs: 10_000 }) });
    expect(written).toHaveLength(2);
    expect(written[1]!.startsWith("\x1b[4A")).toBe(true);
    // 250,000 heights in 10 s: 25,000/s, so 750,000 left take 30 s.
    expect(written[1]).toContain("ETA 0:30");
    expect(written[1]).toContain("25.1k blocks/s");
    r.onEvent({ type: "mode-end", document: {} as never });
    expect(written[2]).toBe(`\x1b[4A${"\r\x1b[2K\n".repeat(4)}\x1b[4A`);
  });
});
