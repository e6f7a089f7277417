import { describe, expect, test } from "@jest/globals";
import { byteBudget } from "./limit.js";

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("the run's byte budget", () => {
  test("shares held at once never add up to more than the budget, and every task runs", async () => {
    const budget = byteBudget(100);
    let held = 0;
    let most = 0;
    const shares = [60, 30, 50, 10, 90, 40, 20, 70, 5, 100];
    const done = await Promise.all(
      shares.map((share, i) =>
        budget.run(share, async () => {
          held += share;
          most = Math.max(most, held);
          for (let k = 0; k < (i % 3) + 1; k++) await tick();
          held -= share;
          return i;
        }),
      ),
    );
    expect(done).toEqual(shares.map((_, i) => i));
    expect(most).toBeLessThanOrEqual(100);
    expect(budget.peak()).toBe(most);
  });

  test("a call waits for its share in turn; a share above the budget is held as the whole budget", async () => {
    const budget = byteBudget(10);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = budget.run(8, () => new Promise<void>((r) => (releaseFirst = r)).then(() => order.push("first")));
    const big = budget.run(1_000, async () => order.push("big"));
    const small = budget.run(1, async () => order.push("small"));
    await tick();
    // small would fit beside first, but big asked before it.
    expect(order).toEqual([]);
    releaseFirst();
    await Promise.all([first, big, small]);
    expect(order).toEqual(["first", "big", "small"]);
    expect(budget.peak()).toBe(10);
  });

  test("a failing task gives its share back", async () => {
    const budget = byteBudget(5);
    await expect(
      budget.run(5, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await expect(budget.run(5, async () => "after")).resolves.toBe("after");
  });
});
