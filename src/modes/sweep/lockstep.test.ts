import { describe, expect, test } from "@jest/globals";
import { Lockstep } from "./lockstep.js";

const msg = (source: number, position: number) => Uint8Array.of(source, position & 0xff, position >> 8);

/** Feeds `counts[j]` messages from each source at its own pace, honouring back-pressure. */
async function feed(lock: Lockstep, counts: readonly number[], delays: readonly number[]): Promise<void> {
  await Promise.all(
    counts.map(async (n, j) => {
      for (let p = 0; p < n; p++) {
        if (delays[j]! > 0 && p % 7 === 0) await new Promise((r) => setTimeout(r, delays[j]));
        const wait = lock.deliver(j, msg(j, p));
        if (wait) await wait;
      }
      lock.end(j);
    }),
  );
  await lock.done();
}

describe("lockstep window", () => {
  test("every position is compared once, in order, with every source's message; no source runs more than a window ahead", async () => {
    const seen: number[] = [];
    let maxAhead = 0;
    let lock!: Lockstep;
    const counts = [500, 500, 500];
    lock = new Lockstep(3, 16, 500, (p, values) => {
      seen.push(p);
      values.forEach((v, j) => expect(Array.from(v!)).toEqual(Array.from(msg(j, p))));
      for (let j = 0; j < 3; j++) maxAhead = Math.max(maxAhead, lock.count(j) - p);
    });
    await feed(lock, counts, [0, 1, 3]);
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(maxAhead).toBeLessThanOrEqual(16);
    expect(lock.compared).toBe(500);
  });

  test("a source that ends early leaves its later positions empty; extra messages are counted, never stored", async () => {
    const missing: number[] = [];
    const lock = new Lockstep(3, 8, 100, (p, values) => {
      if (values[1] === undefined) missing.push(p);
      expect(values[0]).toBeDefined();
    });
    await feed(lock, [100, 60, 130], [0, 0, 0]);
    expect(missing).toEqual(Array.from({ length: 40 }, (_, i) => 60 + i));
    expect([lock.count(1), lock.extra(2), lock.count(2)]).toEqual([60, 30, 130]);
  });

  test("a window of one still finishes (sources alternate)", async () => {
    let n = 0;
    const lock = new Lockstep(2, 1, 50, () => n++);
    await feed(lock, [50, 50], [1, 0]);
    expect(n).toBe(50);
  });
});
