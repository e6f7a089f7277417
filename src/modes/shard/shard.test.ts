import { describe, expect, test } from "@jest/globals";
import type { JsonReport } from "../../core/report/json.js";
import { REPORT_SCHEMA_VERSION, type CaseResult } from "../../core/results/result.js";
import { mergeReports, MergeError } from "./merge.js";
import { parseShard, shardCases, shardRange, ShardError } from "./shard.js";

describe("shard selection", () => {
  test("k/n parses 1-based; nonsense is rejected with the reason", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard(" 1 / 1 ")).toEqual({ index: 1, count: 1 });
    expect(() => parseShard("0/3")).toThrow(/k must be between 1 and 3/);
    expect(() => parseShard("4/3")).toThrow(ShardError);
    expect(() => parseShard("1/0")).toThrow(/at least 1/);
    expect(() => parseShard("half")).toThrow(/must look like k\/n/);
  });

  test("the shards partition the corpus, keep corpus order, and depend only on the ids", () => {
    const ids = ["GetBlock/b", "GetBlock/a", "getblock/x", "Ping/p", "GetBlock/c", "GetTreeState/t", "z/1"].map((id) => ({ id }));
    const parts = [1, 2, 3].map((index) => shardCases(ids, { index, count: 3 }));
    expect(
      parts
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(ids.map((c) => c.id).sort());
    // Round robin over the ids sorted by code unit (upper case first): GetBlock/a, /b and /c
    // land on three different shards.
    expect(parts.map((p) => p.map((c) => c.id))).toEqual([
      ["GetBlock/a", "GetTreeState/t", "z/1"],
      ["GetBlock/b", "Ping/p"],
      ["getblock/x", "GetBlock/c"],
    ]);
    const reversed = [...ids].reverse();
    expect(
      shardCases(reversed, { index: 2, count: 3 })
        .map((c) => c.id)
        .sort(),
    ).toEqual(parts[1]!.map((c) => c.id).sort());
    for (const p of parts) expect(p.map((c) => ids.indexOf(c))).toEqual([...p.map((c) => ids.indexOf(c))].sort((a, b) => a - b));
  });

  test("ranges split into contiguous parts that differ by at most one block", () => {
    const parts = [1, 2, 3].map((index) => shardRange(10, 20, { index, count: 3 }));
    expect(parts).toEqual([
      { from: 10, to: 13 },
      { from: 14, to: 17 },
      { from: 18, to: 20 },
    ]);
    expect(shardRange(0, 1, { index: 3, count: 3 })).toBeUndefined();
    expect(shardRange(5, 5, { index: 1, count: 1 })).toEqual({ from: 5, to: 5 });
  });
});

function caseResult(caseId: string, source: string, transport: "grpc" | "jsonrpc" = "grpc"): CaseResult {
  return {
    caseId,
    method: caseId.split("/")[0]!,
    transport,
    expect: "oracle",
    tags: [],
    source,
    answers: [],
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
  };
}

function report(index: number, count: number, cases: CaseResult[], over: Partial<JsonReport> = {}): JsonReport {
  return {
    kind: "run",
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: "zconform", version: "0.1.0" },
    startedAt: `2026-01-0${index}T00:00:00.000Z`,
    finishedAt: `2026-01-0${index}T00:01:00.000Z`,
    partial: false,
    interrupted: null,
    exitCode: 0,
    chain: "fixture",
    oracle: "http://127.0.0.1:1",
    conditions: [],
    shard: { index, count },
    builds: [{ name: "reference", implementation: "other", emulated: false }],
    summary: {
      cases: cases.length,
      skipped: 0,
      verdicts: {},
      outcomes: { pass: 0, known: 0, new: 0, unchecked: 0, unjudged: 0 },
      unchecked: [],
      divergences: 0,
      newDivergences: 0,
      known: 0,
      stale: [],
      expired: [],
      durationMs: 1000 * index,
    },
    cases,
    divergences: [],
    ...over,
  };
}

describe("merge", () => {
  const a = caseResult("GetBlock/a", "cases/grpc/GetBlock.yaml:5");
  const b = caseResult("GetBlock/b", "cases/grpc/GetBlock.yaml:12");
  const c = caseResult("Ping/p", "cases/grpc/Ping.yaml:3");
  const j = caseResult("getblock/x", "cases/jsonrpc/getblock.yaml:2", "jsonrpc");
  const inputs = () => [
    { file: "s2.json", report: report(2, 2, [b, j]) },
    { file: "s1.json", report: report(1, 2, [a, c]) },
  ];

  test("cases come back in corpus order (gRPC first, then file and line) with times and summary recomputed", () => {
    const m = mergeReports(inputs());
    expect(m.cases.map((x) => x.caseId)).toEqual(["GetBlock/a", "GetBlock/b", "Ping/p", "getblock/x"]);
    expect([m.shard, m.startedAt, m.finishedAt, m.summary!.cases, m.summary!.durationMs, m.exitCode]).toEqual([
      null,
      "2026-01-01T00:00:00.000Z",
      "2026-01-02T00:01:00.000Z",
      4,
      2000,
      0,
    ]);
  });

  const rejects = (mutate: (xs: ReturnType<typeof inputs>) => unknown[], message: RegExp) => {
    const xs = inputs();
    expect(() => mergeReports(mutate(xs) as ReturnType<typeof inputs>)).toThrow(MergeError);
    expect(() => mergeReports(mutate(inputs()) as ReturnType<typeof inputs>)).toThrow(message);
  };

  test("mismatched reports are rejected with a clear reason", () => {
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, builds: [] } }], /s1\.json and s2\.json differ in "builds"/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, chain: "testnet" } }], /differ in "chain" \("testnet" vs "fixture"\)/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, tool: { name: "zconform", version: "0.2.0" } } }], /differ in "tool"/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, schemaVersion: 99 } }], /schema version 99/);
    rejects((xs) => [xs[0]], /missing shard\(s\) 1\/2/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, shard: { index: 2, count: 2 } } }], /both shard 2\/2/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, shard: { index: 1, count: 3 } } }], /one of 2/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, shard: null } }], /not a shard report/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, cases: [a, b] } }], /case GetBlock\/b is in both/);
    rejects((xs) => [xs[0], { ...xs[1]!, report: { ...xs[1]!.report, kind: "sweep" } as unknown as JsonReport }], /is a sweep report/);
    rejects(() => [], /nothing to merge/);
  });

  test("shards that used a ledger need it to judge staleness", () => {
    const xs = inputs();
    xs[0]!.report.summary!.stale = [{ quirk: "q", reason: "r" }];
    expect(() => mergeReports(xs)).toThrow(/give it with --ledger/);
    expect(mergeReports(xs, { ledger: [] }).summary!.stale).toEqual([]);
  });
});
