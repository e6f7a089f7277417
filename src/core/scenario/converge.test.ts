import { describe, expect, test } from "@jest/globals";
import type { OutcomeKind } from "../results/outcome.js";
import type { CaseResult } from "../results/result.js";
import { converge } from "./converge.js";

/** A poll that answers the outcomes of each round in turn (the last one again once they run out). */
function rounds(...list: Record<string, OutcomeKind>[]): () => Promise<CaseResult> {
  let i = 0;
  return async () => {
    const r = list[Math.min(i++, list.length - 1)]!;
    return { outcomes: Object.entries(r).map(([build, outcome]) => ({ build, outcome })) } as CaseResult;
  };
}

describe("a check polled until the builds converge", () => {
  test("stops as soon as every build matches; each build's time is the poll since which it has matched", async () => {
    const since = performance.now();
    const got = (await converge(rounds({ a: "pass", b: "new" }, { a: "pass", b: "new" }, { a: "pass", b: "known" }), since, 5_000, 20))!;
    expect(got.polls).toBe(3);
    expect(got.builds.map((b) => [b.build, b.outcome])).toEqual([
      ["a", "pass"],
      ["b", "known"],
    ]);
    expect(got.builds[0]!.ms!).toBeLessThan(got.builds[1]!.ms!);
    expect(got.builds[1]!.ms!).toBeGreaterThanOrEqual(35);
  });

  test("a build that matches and then stops matching is timed from when it matched again", async () => {
    const since = performance.now();
    const got = (await converge(rounds({ a: "pass", b: "new" }, { a: "new", b: "new" }, { a: "pass", b: "pass" }), since, 5_000, 20))!;
    expect(got.builds.map((b) => b.ms! >= 35)).toEqual([true, true]);
  });

  test("at the deadline, a build that never matched has no time and keeps its last outcome", async () => {
    const got = (await converge(rounds({ a: "pass", b: "new" }), performance.now(), 100, 20))!;
    expect(got.builds).toEqual([expect.objectContaining({ build: "a", outcome: "pass" }), { build: "b", ms: null, outcome: "new" }]);
    expect(got.polls).toBeGreaterThan(1);
  });
});
