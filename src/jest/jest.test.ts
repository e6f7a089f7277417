import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Case } from "../core/corpus/case.js";
import type { CaseResult } from "../core/results/result.js";
import { BROADCAST_REFUSED } from "../core/run/broadcast.js";
import { DEFAULT_LIMITS, type RunConfig } from "../core/targets/config.js";
import { startFixtureNetwork, type FixtureNetwork } from "../zcash/fixture/network.js";
import { conformanceError, failureOf, ledgerProblems, notSentOf, uncheckedOf, unjudgedOf } from "./format.js";
import { conformanceSuite, type ConformanceSuiteOptions } from "./index.js";
import { planSuite } from "./plan.js";

function result(over: Partial<CaseResult>): CaseResult {
  return {
    caseId: "GetBlock/x",
    method: "GetBlock",
    transport: "grpc",
    expect: "oracle",
    tags: [],
    source: "cases/grpc/GetBlock.yaml:3",
    answers: [],
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
    request: { height: "11" },
    ...over,
  };
}
const d = { caseId: "GetBlock/x", method: "GetBlock", transport: "grpc" as const, left: "oracle", detail: "" };

describe("failureOf", () => {
  const r = result({
    title: "A block",
    divergences: [
      { ...d, kind: "count", path: "vtx", right: "zaino", build: "zaino", leftValue: 2, rightValue: 1, quirk: null },
      { ...d, kind: "missing-field", path: "vtx[0].vin", right: "zaino", build: "zaino", leftValue: 3, quirk: "zaino-no-vin" },
      { ...d, kind: "value", path: "hash", right: "other", build: "other", leftValue: "aa", rightValue: "bb", quirk: null },
    ],
    patches: [{ left: "oracle", right: "zaino", ops: [{ op: "remove", path: "/vtx/1", old: { index: "1" } }] }],
  });

  test("names the case, the build, each new divergence with both values, the known ones and the patch", () => {
    const text = failureOf(r, ["zaino"])!;
    expect(text.split("\n")).toEqual([
      "GetBlock/x [zaino]: 1 new divergence from oracle",
      "  A block (cases/grpc/GetBlock.yaml:3)",
      '  request: {"height":"11"}',
      "  verdict: –",
      "",
      "  count at vtx  [NEW]",
      "    oracle: 2",
      "    zaino:  1",
      "",
      "  known (ledger), not failing:",
      "    zaino-no-vin: missing-field at vtx[0].vin",
      "",
      "  JSON Patch oracle → zaino:",
      '    remove  /vtx/1 (was {"index":"1"})',
    ]);
  });

  test("passes a build whose divergences are all known, and looks only at the builds asked about", () => {
    expect(failureOf(result({ divergences: [r.divergences[1]!] }), ["zaino"])).toBeUndefined();
    expect(failureOf(r, ["other"])).toMatch(/^GetBlock\/x \[other\]: 1 new divergence/);
  });

  test("drift from a golden fails too", () => {
    const drifted = result({
      drift: [
        {
          build: "zaino",
          status: "changed",
          divergences: [{ kind: "value", path: "hash", left: "golden", right: "zaino", leftValue: "a", rightValue: "b", detail: "" }],
        },
      ],
    });
    expect(failureOf(drifted, ["zaino"])).toContain('drift of zaino from its golden:\n    value at hash: "a" → "b"');
  });

  test("the ledger test: expired entries always fail, stale ones unless allowed", () => {
    const stale = [{ quirk: "q1", reason: "zaino answered 3 case(s) this entry covers and never showed it" }];
    const expired = [{ quirk: "q2", expires: "2020-01-01" }];
    expect(ledgerProblems({ stale: [], expired: [] }, false)).toBeUndefined();
    expect(ledgerProblems({ stale, expired: [] }, true)).toBeUndefined();
    expect(ledgerProblems({ stale, expired: [] }, false)).toContain("stale: q1: zaino answered");
    expect(ledgerProblems({ stale, expired }, true)).toContain("expired: q2 (expired 2020-01-01)");
  });

  test("the error carries only the message, no stack frames", () => {
    expect(conformanceError("boom").stack).toBe("ConformanceError: boom");
  });
});

describe("uncheckedOf", () => {
  const refused = { kind: "unreachable" as const, detail: "connect ECONNREFUSED 127.0.0.1:9067" };
  const down = result({
    answers: [
      { side: "mybackend", transport: "grpc", status: "fault:unreachable", code: 14, message: "", count: 0, wireBytes: 0, ms: 1, hex: [], fault: refused },
    ],
    outcomes: [{ build: "mybackend", outcome: "unchecked", cause: "mybackend", fault: refused }],
  });

  test("a build that could not be checked fails its test with what happened and what to do", () => {
    expect(uncheckedOf(down, ["mybackend"])!.split("\n")).toEqual([
      "GetBlock/x: could not be checked, so it cannot pass",
      "  mybackend: unreachable — connect ECONNREFUSED 127.0.0.1:9067; is the server running?",
      "  (cases/grpc/GetBlock.yaml:3)",
    ]);
  });

  test("the oracle down is named as the cause", () => {
    const fault = { kind: "empty-body" as const, detail: "connection closed with no reply (ECONNRESET); Zebra does this for a missing or wrong cookie" };
    const r = result({ outcomes: [{ build: "zaino", outcome: "unchecked", cause: "oracle", fault }] });
    expect(uncheckedOf(r, ["zaino"])).toContain("  the oracle (needed to judge zaino): connection closed with no reply — ");
  });

  test("nothing for builds that were checked, or not asked about", () => {
    expect(uncheckedOf(down, ["other"])).toBeUndefined();
    expect(uncheckedOf(result({ outcomes: [{ build: "zaino", outcome: "pass" }] }), ["zaino"])).toBeUndefined();
  });
});

describe("notSentOf and unjudgedOf", () => {
  test("a case not sent: why, and what to do, since jest could no longer skip its test", () => {
    expect(notSentOf(result({}))).toBeUndefined();
    expect(notSentOf(result({ skipped: 'anchor "txid_mempool": the oracle\'s mempool held no transaction' }))!.split("\n")).toEqual([
      'GetBlock/x: not sent, so it cannot pass: anchor "txid_mempool": the oracle\'s mempool held no transaction',
      "  only the run could tell, too late for jest to skip the test: leave the case out with caseFilter,",
      "  or, when config is a factory, give `chain` and each build's implementation in `builds`",
      "  (cases/grpc/GetBlock.yaml:3)",
    ]);
  });

  test("strict: an unjudged answer of the builds asked about, with its reason", () => {
    const r = result({
      outcomes: [
        { build: "zaino", outcome: "unjudged", reason: "no oracle configured" },
        { build: "other", outcome: "pass" },
      ],
    });
    expect(unjudgedOf(r, ["zaino"])!.split("\n")).toEqual([
      "GetBlock/x: unjudged (answered, measured against nothing), which strict mode fails",
      "  zaino: no oracle configured",
      "  (cases/grpc/GetBlock.yaml:3)",
    ]);
    expect(unjudgedOf(r, ["other"])).toBeUndefined();
  });
});

describe("planSuite", () => {
  test("with the fixture: every profile, each with the transports it serves", () => {
    const p = planSuite({ fixture: {}, ledger: false });
    expect(p.cases.length).toBeGreaterThan(100);
    expect(p.ledger).toEqual([]);
    expect(p.builds!.find((b) => b.name === "zaino-0.9.0")!.transports).toEqual(["grpc", "jsonrpc"]);
    expect(p.builds!.find((b) => b.name === "lightwalletd")!.transports).toEqual(["grpc"]);
  });

  test("a case filter (patterns, or a function)", () => {
    expect(planSuite({ fixture: {}, ledger: false, caseFilter: { method: ["GetLightdInfo"] } }).cases.every((c) => c.method === "GetLightdInfo")).toBe(true);
    expect(planSuite({ fixture: {}, ledger: false, caseFilter: (c) => c.id === "GetLightdInfo/basic" }).cases.length).toBeLessThanOrEqual(1);
  });

  test("a factory's builds are unknown until it runs, unless named", () => {
    const factory = () => {
      throw new Error("not called while declaring");
    };
    expect(planSuite({ config: factory, ledger: false }).builds).toBeUndefined();
    expect(planSuite({ config: factory, ledger: false, builds: ["x"] }).builds).toEqual([{ name: "x" }]);
  });

  test("says what is wrong with its options", () => {
    expect(() => planSuite({ ledger: false })).toThrow(/give config/);
    expect(() => planSuite({ fixture: {}, config: "x.yaml" })).toThrow(/either config or fixture/);
    expect(() => planSuite({ fixture: {}, ledger: "no/such/quirks.yaml" })).toThrow(/ledger file not found/);
  });
});

interface Declared {
  name: string;
  skipped: boolean;
  fn: () => unknown;
}

/**
 * What conformanceSuite declares, taken from it instead of handed to jest: every test with
 * whether it is skipped, and the hooks, so that a test here can run the suite's run and
 * its tests and see which pass, fail or are skipped.
 */
function declared(o: ConformanceSuiteOptions): { tests: Declared[]; before: () => Promise<void>; after: () => Promise<void> } {
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = Object.fromEntries(["describe", "test", "beforeAll", "afterAll"].map((k) => [k, g[k]]));
  const tests: Declared[] = [];
  let before: () => Promise<void> = async () => {};
  let after: () => Promise<void> = async () => {};
  const add = (skipped: boolean) => (name: string, fn: () => unknown) => void tests.push({ name, skipped, fn });
  Object.assign(g, {
    describe: (_: string, body: () => void) => body(),
    test: Object.assign(add(false), { skip: add(true) }),
    beforeAll: (fn: () => Promise<void>) => (before = fn),
    afterAll: (fn: () => Promise<void>) => (after = fn),
  });
  try {
    conformanceSuite(o);
  } finally {
    Object.assign(g, saved);
  }
  return { tests, before, after };
}

const ids =
  (...wanted: string[]) =>
  (c: Case) =>
    wanted.includes(c.id);
const skippedOf = (tests: Declared[]) => tests.filter((t) => t.skipped).map((t) => t.name);
/** Each test's outcome: "pass", or the first line of its failure. */
const outcomesOf = (tests: Declared[]) =>
  Object.fromEntries(
    tests
      .filter((t) => !t.skipped)
      .map((t) => {
        try {
          t.fn();
          return [t.name, "pass"];
        } catch (e) {
          return [t.name, (e as Error).message.split("\n")[0]];
        }
      }),
  );

describe("a case the run will not send is a skipped test, never a pass", () => {
  const picked = ids("GetMempoolTx/exclude-shared-suffix", "SendTransaction/valid-transaction-regtest", "GetTransaction/mempool", "GetLatestBlock/tip");

  test("the fixture: a case declared for another chain is skipped for every profile; the synthetic chain takes the valid transaction", () => {
    const { tests } = declared({ fixture: { profiles: ["reference", "zaino-0.10.1"] }, ledger: false, caseFilter: picked });
    expect(skippedOf(tests)).toEqual(["GetMempoolTx/exclude-shared-suffix [reference]", "GetMempoolTx/exclude-shared-suffix [zaino-0.10.1]"]);
    expect(tests.map((t) => t.name)).toContain("SendTransaction/valid-transaction-regtest [reference]");
  });

  const build = {
    ...DEFAULT_LIMITS,
    name: "mine",
    implementation: "zaino" as const,
    grpc: { url: "http://127.0.0.1:1" },
    emulated: false,
    source: { file: "(test)", line: 0 },
  };
  const oracle = { jsonrpc: { url: "http://127.0.0.1:2" }, source: { file: "(test)", line: 0 } };

  test("a config: the valid transaction is never sent; without an oracle, neither is a case on a live mempool's transaction", () => {
    const onFixture = planSuite({ config: { file: "(test)", chain: "fixture", defaults: DEFAULT_LIMITS, builds: [build] }, ledger: false, caseFilter: picked });
    expect(onFixture.notSent.get("SendTransaction/valid-transaction-regtest")).toBe(BROADCAST_REFUSED);
    expect(onFixture.notSent.get("GetMempoolTx/exclude-shared-suffix")).toBe("only for chains regtest");
    expect(onFixture.notSent.has("GetLatestBlock/tip")).toBe(false);

    const testnet = { file: "(test)", chain: "testnet", defaults: DEFAULT_LIMITS, builds: [build] };
    const { tests } = declared({ config: testnet, ledger: false, caseFilter: picked });
    expect(skippedOf(tests)).toEqual([
      "GetMempoolTx/exclude-shared-suffix [mine]",
      "GetTransaction/mempool [mine]",
      "SendTransaction/valid-transaction-regtest [mine]",
    ]);
    expect(planSuite({ config: testnet, ledger: false, caseFilter: picked }).notSent.get("GetTransaction/mempool")).toMatch(
      /^anchor "txid_mempool": .*no oracle/,
    );
    // With an oracle, the mempool's transaction is learnt when the run starts, or not: only the run can tell.
    expect(planSuite({ config: { ...testnet, oracle }, ledger: false, caseFilter: picked }).notSent.has("GetTransaction/mempool")).toBe(false);
  });

  test("a config factory: only a request without anchors is foreseen, unless `chain` names the chain", () => {
    const factory = () => {
      throw new Error("not called while declaring");
    };
    const unnamed = planSuite({ config: factory, builds: ["mine"], ledger: false, caseFilter: picked });
    expect([...unnamed.notSent.keys()]).toEqual(["SendTransaction/valid-transaction-regtest"]);
    const named = planSuite({ config: factory, builds: ["mine"], chain: "fixture", ledger: false, caseFilter: picked });
    expect([...named.notSent.keys()].sort()).toEqual(["GetMempoolTx/exclude-shared-suffix", "SendTransaction/valid-transaction-regtest"]);
  });
});

describe("a run: what was not sent, strict mode and force", () => {
  let net: FixtureNetwork;
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference"] });
  }, 180_000);
  afterAll(async () => {
    await net?.close();
  });

  const config = (o: { oracle: boolean; chain?: string }): RunConfig => ({
    file: "(test)",
    chain: o.chain ?? "fixture",
    defaults: DEFAULT_LIMITS,
    builds: net.builds({ deadlineMs: 15_000 }),
    ...(o.oracle
      ? { oracle: { jsonrpc: { url: net.jsonrpc, auth: { kind: "cookie" as const, cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } } }
      : {}),
  });
  // An oracle case, and an agree case, which one build alone leaves unjudged.
  const cases = ids("GetLatestBlock/tip", "GetBlock/hash-and-other-height");

  async function run(o: ConformanceSuiteOptions) {
    const suite = declared(o);
    await suite.before();
    try {
      return outcomesOf(suite.tests);
    } finally {
      await suite.after();
    }
  }

  test("strict: an unjudged answer fails its test; with an oracle, the oracle case passes", async () => {
    const out = await run({ config: config({ oracle: true }), ledger: false, caseFilter: cases, strict: true });
    expect(out["GetLatestBlock/tip [reference]"]).toBe("pass");
    expect(out["GetBlock/hash-and-other-height [reference]"]).toBe(
      "GetBlock/hash-and-other-height: unjudged (answered, measured against nothing), which strict mode fails",
    );
    expect(out["strict: the run has an oracle"]).toBe("pass");
  }, 120_000);

  test("strict: a run without an oracle fails, and so does each oracle case; without strict, they pass", async () => {
    const strict = await run({ config: config({ oracle: false }), ledger: false, caseFilter: cases, strict: true });
    expect(strict["GetLatestBlock/tip [reference]"]).toMatch(/unjudged .* which strict mode fails/);
    expect(strict["strict: the run has an oracle"]).toMatch(/^strict: the run has no oracle/);
    const lax = await run({ config: config({ oracle: false }), ledger: false, caseFilter: cases });
    expect(Object.values(lax).every((v) => v === "pass")).toBe(true);
    expect(Object.keys(lax)).not.toContain("strict: the run has an oracle");
  }, 120_000);

  test("a case only the run finds it cannot send fails its test, saying why", async () => {
    const out = await run({
      config: () => config({ oracle: true }),
      builds: ["reference"],
      ledger: false,
      caseFilter: ids("GetMempoolTx/exclude-shared-suffix", "GetLatestBlock/tip"),
    });
    expect(out["GetMempoolTx/exclude-shared-suffix [reference]"]).toBe(
      "GetMempoolTx/exclude-shared-suffix: not sent, so it cannot pass: only for chains regtest",
    );
    expect(out["GetLatestBlock/tip [reference]"]).toBe("pass");
  }, 120_000);

  test("force goes on past a preflight that stops the run", async () => {
    const onMainnet = { config: config({ oracle: true, chain: "mainnet" }), ledger: false as const, caseFilter: ids("GetLatestBlock/tip") };
    const stopped = declared(onMainnet);
    await expect(stopped.before()).rejects.toThrow(/mainnet/);
    await stopped.after();
    const forced = declared({ ...onMainnet, force: true });
    await forced.before();
    await forced.after();
    expect(outcomesOf(forced.tests)["ledger: no expired or stale entries"]).toBe("pass");
  }, 120_000);
});
