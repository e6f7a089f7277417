import { describe, expect, test } from "@jest/globals";
import { fmtDuration, progressLines } from "./progress.js";
import { newCounters } from "./sweep.js";

describe("sweep progress display", () => {
  test("overall share and ETA, then blocks/s and MB/s per source", () => {
    const c = newCounters(["reference", "zaino-0.10.1", "oracle"], 1_000_000);
    c.compared = 250_000;
    c.blocks = [251_000, 250_000, 250_100];
    const lines = progressLines(c, [14_200, 14_100, 9_000], [1.5, 1.4, 0.9], 12_500);
    expect(lines[0]).toBe("sweep [######------------------] 25.0%  250,000/1,000,000 heights  ETA 1:00");
    expect(lines[1]).toBe("  reference      14.2k blocks/s    1.50 MB/s  251,000 blocks");
    expect(lines[3]).toBe("  oracle          9000 blocks/s    0.90 MB/s  250,100 blocks");
  });

  test("durations", () => {
    expect([fmtDuration(59.4), fmtDuration(3725), fmtDuration(Infinity)]).toEqual(["0:59", "1:02:05", "--:--"]);
  });
});
