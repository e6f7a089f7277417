import { describe, expect, test } from "@jest/globals";
import type { TipId } from "./mover.js";
import { watchTips } from "./tip-watch.js";

const hash = (n: number) => n.toString(16).padStart(64, "0");

describe("tip following", () => {
  test("each build's time to serve a block is measured from the node having it; a build that lags is asked until it serves it", async () => {
    const tips = new Map<string, TipId>([
      ["fast", { height: 1, hash: hash(1) }],
      ["slow", { height: 1, hash: hash(1) }],
    ]);
    const watch = watchTips(["fast", "slow"], async (b) => tips.get(b), 2);
    try {
      watch.baseline({ height: 1, hash: hash(1) });
      const block = { height: 2, hash: hash(2) };
      tips.set("fast", block);
      watch.record({ kind: "block", ...block, at: performance.now() });
      setTimeout(() => tips.set("slow", block), 60);
      const reached = await watch.atTip(2_000);
      expect(reached.get("fast")).toBeLessThan(reached.get("slow")!);
      const served = watch.records()[0]!.served;
      expect(served.get("fast")!).toBeLessThan(served.get("slow")!);
      expect(served.get("slow")!).toBeGreaterThanOrEqual(55);
    } finally {
      await watch.stop();
    }
  });

  test("a block orphaned before a build served it is not that build's to serve; a build that never reaches the tip has no time", async () => {
    const tips = new Map<string, TipId>([["stuck", { height: 1, hash: hash(1) }]]);
    const watch = watchTips(["stuck"], async (b) => tips.get(b), 2);
    try {
      watch.baseline({ height: 1, hash: hash(1) });
      watch.record({ kind: "block", height: 2, hash: hash(2), at: performance.now() });
      watch.record({ kind: "reorg", height: 3, hash: hash(3), forkPoint: 1, at: performance.now() });
      expect((await watch.atTip(50)).get("stuck")).toBeNull();
      expect(watch.records().map((r) => r.served.get("stuck"))).toEqual([null, undefined]);
    } finally {
      await watch.stop();
    }
  });
});
