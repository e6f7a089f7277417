import { describe, expect, test } from "@jest/globals";
import type { Build } from "../targets/config.js";
import type { CaseResult, ClassifiedDivergence } from "../results/result.js";
import { lagFigures, onMovingChain, settledAtStart, type ChainTip, type LagSamples, type MotionOptions } from "./moving-chain.js";

const build = { name: "indexer" } as Build;
const tipAt = (height: number): ChainTip => ({ height, hash: `h${height}` });
const diverging: ClassifiedDivergence = {
  kind: "value",
  path: "height",
  left: "oracle",
  right: "indexer",
  detail: "",
  caseId: "GetLatestBlock/tip",
  method: "GetLatestBlock",
  transport: "grpc",
  build: "indexer",
  quirk: null,
};
const result = (divergences: ClassifiedDivergence[]): CaseResult => ({
  caseId: "GetLatestBlock/tip",
  method: "GetLatestBlock",
  transport: "grpc",
  expect: "oracle",
  tags: [],
  source: "f:1",
  answers: [],
  outcomes: [{ build: "indexer", outcome: divergences.length > 0 ? "new" : "pass" }],
  divergences,
  volatile: [],
  excluded: [],
  unordered: false,
  patches: [],
});

/** A node whose tip is `node.height`, and an indexer that serves what it has ingested. */
function chain(start: number) {
  const state = { node: start, indexer: start, nodeReads: 0, buildReadsAt: [] as number[] };
  const options = (extra: Partial<MotionOptions> = {}): MotionOptions => ({
    tips: {
      node: async () => {
        state.nodeReads++;
        return tipAt(state.node);
      },
      build: async () => {
        state.buildReadsAt.push(performance.now());
        return tipAt(state.indexer);
      },
    },
    startTip: tipAt(start),
    settleMs: 2_000,
    retries: 2,
    pollMs: 5,
    ...extra,
  });
  // The case compares the indexer's tip with the node's: equal, or a divergence.
  const attempt = async () => result(state.indexer === state.node ? [] : [diverging]);
  // The run saw its builds serve the start tip before its first case.
  const settled = { tip: tipAt(start), at: 0, said: new Set<string>() };
  return { state, options, attempt, settled };
}

/** Options where every read of the node's tip finds a new block: the chain never holds still. */
function everMoving(c: ReturnType<typeof chain>): MotionOptions {
  const moving = c.options({ settleMs: 10 });
  const read = moving.tips.node;
  moving.tips.node = async () => {
    c.state.node++;
    return read();
  };
  return moving;
}

describe("a run on a chain that moves", () => {
  test("on a chain that holds still, a diverging case is judged as it is, and only one tip is read", async () => {
    const c = chain(300);
    c.state.indexer = 299; // a real divergence: the indexer serves an older tip while nothing moves
    const lag: LagSamples = new Map();
    const r = await onMovingChain(c.attempt, [build], c.options(), lag, undefined, c.settled);
    expect(r?.divergences).toHaveLength(1);
    expect(r?.reasked).toBeUndefined();
    expect(c.state.nodeReads).toBe(1);
    expect(lag.size).toBe(0);
  });

  test("a case that diverged because a block arrived is asked again once the build serves it, and says so", async () => {
    const c = chain(300);
    c.state.node = 301; // the node accepted a block; the indexer will ingest it a little later
    let caughtUpAt = 0;
    setTimeout(() => {
      c.state.indexer = 301;
      caughtUpAt = performance.now();
    }, 60);
    const lag: LagSamples = new Map();
    const r = await onMovingChain(c.attempt, [build], c.options(), lag, undefined, c.settled);
    expect(r?.divergences).toEqual([]);
    expect(r?.reasked).toEqual({ because: expect.stringContaining("from height 300 to 301"), attempts: 2, firstDivergences: 1, stillMoving: false });
    expect(lag.get("indexer")).toHaveLength(1);
    // The wait is timed from before the first poll of the build to the poll that saw it
    // caught up: at least from that first poll to the catching up, however late the run
    // got to its first poll on a loaded machine.
    const firstPoll = c.state.buildReadsAt[0]!;
    expect(firstPoll).toBeLessThan(caughtUpAt);
    expect(lag.get("indexer")![0]).toBeGreaterThanOrEqual(Math.floor(caughtUpAt - firstPoll));
  });

  test("a build that never catches up keeps its divergence: the attempt the chain held still through stands", async () => {
    const c = chain(300);
    c.state.node = 301;
    const r = await onMovingChain(c.attempt, [build], c.options({ settleMs: 30 }), new Map(), undefined, c.settled);
    expect(r?.divergences).toHaveLength(1);
    expect(r?.reasked).toMatchObject({ attempts: 2, stillMoving: false, behind: ["indexer"] });
  });

  test("a build that said its tip once and then misses a tip read (slow, not unable) is waited for", async () => {
    const c = chain(300);
    c.state.node = 301;
    const options = c.options();
    const read = options.tips.build;
    let reads = 0;
    // Its second and third tip reads fail, as a read past its deadline does; it catches up at the fifth.
    options.tips.build = async (b) => {
      reads++;
      if (reads === 5) c.state.indexer = 301;
      return reads === 2 || reads === 3 ? undefined : read(b);
    };
    const r = await onMovingChain(c.attempt, [build], options, new Map(), undefined, c.settled);
    expect(r?.divergences).toEqual([]);
    expect(r?.reasked).toMatchObject({ attempts: 2, stillMoving: false });
    expect(r?.reasked?.behind).toBeUndefined();
  });

  test("a build that has never said its tip is not waited for: its answers speak for it", async () => {
    const c = chain(300);
    c.state.node = 301;
    const options = c.options();
    let reads = 0;
    options.tips.build = async () => {
      reads++;
      return undefined;
    };
    const r = await onMovingChain(c.attempt, [build], options, new Map(), undefined, c.settled);
    expect(reads).toBe(1);
    expect(r?.divergences).toHaveLength(1);
  });

  test("a chain that keeps moving is asked at most retries more times, and the result says it was still moving", async () => {
    const c = chain(300);
    c.state.node = 301;
    const moving = everMoving(c);
    const r = await onMovingChain(c.attempt, [build], moving, new Map(), undefined, c.settled);
    expect(r?.reasked).toMatchObject({ attempts: 3, stillMoving: true });
  });

  test("a case the chain moved through on every attempt is unchecked, not new: its differences are kept aside", async () => {
    const c = chain(300);
    c.state.node = 301;
    const moving = everMoving(c);
    const r = await onMovingChain(c.attempt, [build], moving, new Map(), undefined, c.settled);
    expect(r?.divergences).toEqual([]);
    expect(r?.reasked?.unsettled).toEqual([diverging]);
    expect(r?.outcomes).toEqual([{ build: "indexer", outcome: "unchecked", cause: "chain", reason: expect.stringContaining("each of its 3 attempts") }]);
  });

  test("a known difference stays where it is when the chain never held still: the ledger explains it at any tip", async () => {
    const c = chain(300);
    c.state.node = 301;
    const known = { ...diverging, path: "hash", quirk: "some-entry" };
    const moving = everMoving(c);
    const attempt = async () => ({ ...(await c.attempt()), divergences: [known, diverging] });
    const r = await onMovingChain(attempt, [build], moving, new Map(), undefined, c.settled);
    expect(r?.divergences).toEqual([known]);
    expect(r?.reasked?.unsettled).toEqual([diverging]);
  });

  test("a case whose answer was taken before another case settled the tip it diverged at is asked again", async () => {
    const c = chain(300);
    c.state.node = 301;
    // While this case's answer is taken from the indexer still at 300, another case waits
    // for the indexer to serve 301 and settles the run there.
    const attempt = async () => {
      const r = await c.attempt();
      c.state.indexer = 301;
      c.settled.tip = tipAt(301);
      c.settled.at = performance.now();
      return r;
    };
    const r = await onMovingChain(attempt, [build], c.options(), new Map(), undefined, c.settled);
    expect(r?.divergences).toEqual([]);
    expect(r?.reasked).toMatchObject({ attempts: 2, firstDivergences: 1, stillMoving: false });
  });

  test("a case asked after its builds were seen at the node's tip is judged as it is", async () => {
    const c = chain(300);
    c.state.node = 301;
    c.settled.tip = tipAt(301);
    c.settled.at = performance.now();
    const r = await onMovingChain(c.attempt, [build], c.options(), new Map(), undefined, c.settled);
    expect(r?.divergences).toHaveLength(1);
    expect(r?.reasked).toBeUndefined();
  });

  test("a build behind the node when the run starts: the start tip is not taken as served, and a diverging case waits for it", async () => {
    const c = chain(300);
    c.state.indexer = 299;
    const options = c.options();
    const settled = await settledAtStart([build], options);
    expect(settled).toMatchObject({ tip: tipAt(300), at: Number.POSITIVE_INFINITY });
    expect([...settled.said]).toEqual(["indexer"]);
    setTimeout(() => {
      c.state.indexer = 300;
    }, 30);
    const r = await onMovingChain(c.attempt, [build], options, new Map(), undefined, settled);
    expect(r?.divergences).toEqual([]);
    expect(r?.reasked).toMatchObject({ because: expect.stringContaining("before its builds were seen serving the node's tip (height 300)"), attempts: 2 });
    // The tip is settled now: a case asked after that which diverges while nothing moves is judged as it is.
    c.state.indexer = 299;
    const next = await onMovingChain(c.attempt, [build], options, new Map(), undefined, settled);
    expect(next?.divergences).toHaveLength(1);
    expect(next?.reasked).toBeUndefined();
  });

  test("builds at the node's tip when the run starts: the start tip is settled from the start", async () => {
    const c = chain(300);
    expect(await settledAtStart([build], c.options())).toMatchObject({ tip: tipAt(300), at: 0 });
  });

  test("no case is asked again once the run was interrupted", async () => {
    const c = chain(300);
    c.state.node = 301;
    const stop = new AbortController();
    stop.abort();
    let asked = 0;
    const r = await onMovingChain(
      async () => {
        asked++;
        return c.attempt();
      },
      [build],
      c.options(),
      new Map(),
      stop.signal,
      c.settled,
    );
    expect(asked).toBe(1);
    expect(r?.reasked?.attempts).toBe(1);
  });

  test("lag figures: samples, median and worst", () => {
    expect(
      lagFigures(
        new Map([
          ["a", [30, 10, 20]],
          ["b", [5]],
        ]),
      ),
    ).toEqual({ a: { samples: 3, p50Ms: 20, maxMs: 30 }, b: { samples: 1, p50Ms: 5, maxMs: 5 } });
  });
});
