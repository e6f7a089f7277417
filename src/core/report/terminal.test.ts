import { describe, expect, test } from "@jest/globals";
import { Chalk } from "chalk";
import type { RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { renderSummary, terminalReporter } from "./terminal.js";

const summary: RunSummary = {
  cases: 3,
  skipped: 0,
  verdicts: {},
  outcomes: { pass: 2, known: 0, new: 0, unchecked: 0, unjudged: 1 },
  unchecked: [],
  divergences: 0,
  newDivergences: 0,
  known: 0,
  stale: [],
  expired: [],
  durationMs: 10,
};

function result(caseId: string, method: string, outcome: "pass" | "unjudged"): CaseResult {
  return {
    caseId,
    method,
    transport: "grpc",
    expect: outcome === "pass" ? "error INVALID_ARGUMENT" : "agree",
    tags: [],
    source: "x:1",
    answers: [{ side: "b", transport: "grpc", status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] }],
    outcomes: [{ build: "b", outcome, ...(outcome === "unjudged" ? { reason: "an agree case needs a second build to compare with" } : {}) }],
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
  };
}

function render(events: RunEvent[]): string[] {
  const lines: string[] = [];
  const r = terminalReporter({ write: (l) => lines.push(l), chalk: new Chalk({ level: 0 }) });
  for (const e of events) r.onEvent(e);
  return lines;
}

describe("the terminal report", () => {
  const start: RunEvent = {
    type: "run-start",
    schemaVersion: 3,
    tool: { name: "zconform", version: "0" },
    startedAt: "",
    chain: "fixture",
    builds: [{ name: "b", implementation: "other", emulated: false }],
    cases: 3,
    conditions: [{ kind: "no-oracle", side: "run", detail: "no oracle configured: cases anchored to the oracle are unjudged" }],
  };
  // Completion order differs from corpus order (index).
  const lines = render([
    start,
    { type: "case-result", result: result("Ping/x", "Ping", "unjudged"), done: 1, total: 3, index: 2 },
    { type: "case-result", result: result("GetBlock/x", "GetBlock", "pass"), done: 2, total: 3, index: 0 },
    { type: "case-result", result: result("GetTreeState/x", "GetTreeState", "pass"), done: 3, total: 3, index: 1 },
    { type: "run-end", summary, partial: false, finishedAt: "", exitCode: 0 },
  ]);

  test("warns about how the run was made", () => {
    expect(lines).toContain("WARNING: no oracle configured: cases anchored to the oracle are unjudged");
  });

  test("matrix rows in corpus order, whatever order cases finished in", () => {
    expect(lines.filter((l) => /^\w+ \(\d+\)\s/.test(l)).map((l) => l.split(" ")[0])).toEqual(["GetBlock", "GetTreeState", "Ping"]);
    expect(lines.find((l) => l.startsWith("Ping"))).toMatch(/\?1/);
  });

  test("the legend names what this run showed, and no oracle it did not have", () => {
    const legend = lines.find((l) => l.startsWith("✓"))!;
    expect(legend).toBe("✓ same as the expected error on every case · ?N unjudged: nothing to measure N cases against");
    expect(lines.join("\n")).not.toContain("same as the reference");
  });

  test("unjudged answers are listed with why", () => {
    expect(lines).toContain("Unjudged (1): an agree case needs a second build to compare with");
    expect(lines).toContain("  Ping/x [b]");
  });
});

describe("the end of the terminal report", () => {
  const base = (over: Partial<RunSummary>): RunSummary => ({ ...summary, ...over });
  const divergence = (caseId: string, method: string, quirk: string | null) => ({
    caseId,
    method,
    transport: "grpc" as const,
    build: "b",
    quirk,
    kind: "value" as const,
    path: "height",
    left: "oracle",
    right: "b",
    leftValue: 1,
    rightValue: 2,
    detail: "",
  });
  function withDivergences(r: CaseResult, ds: ReturnType<typeof divergence>[]): CaseResult {
    return { ...r, divergences: ds, outcomes: [{ build: "b", outcome: ds.some((d) => d.quirk === null) ? "new" : "known" }] };
  }
  function ending(
    results: CaseResult[],
    s: RunSummary,
    exitCode: number,
    reports = { written: [] as { label: string; path: string }[], failed: [] as { label: string; path: string }[] },
    end: Partial<RunEvent> = {},
  ) {
    const lines: string[] = [];
    const r = terminalReporter({ write: (l) => lines.push(l), chalk: new Chalk({ level: 0 }) });
    r.onEvent({
      type: "run-start",
      schemaVersion: 3,
      tool: { name: "zconform", version: "0" },
      startedAt: "",
      chain: "fixture",
      builds: [{ name: "b", implementation: "other", emulated: false }],
      cases: results.length,
      conditions: [],
    });
    results.forEach((result, index) => r.onEvent({ type: "case-result", result, done: index + 1, total: results.length, index }));
    r.onEvent({ type: "run-end", summary: s, partial: false, finishedAt: "", exitCode, ...end } as RunEvent);
    return { lines, closing: r.closingLines(exitCode, reports) };
  }

  test("exit 1 names the new divergences by method and where the details are", () => {
    const results = [
      withDivergences(result("GetBlock/a", "GetBlock", "pass"), [divergence("GetBlock/a", "GetBlock", null), divergence("GetBlock/a", "GetBlock", null)]),
      withDivergences(result("getinfo/a", "getinfo", "pass"), [divergence("getinfo/a", "getinfo", null)]),
    ];
    const { closing } = ending(results, base({ newDivergences: 3, divergences: 3 }), 1, { written: [{ label: "JSON", path: "/r/report.json" }], failed: [] });
    expect(closing).toEqual(["reports written: JSON /r/report.json", "exit 1: 3 new divergences (GetBlock ×2, getinfo ×1); see /r/report.json for details"]);
    expect(ending(results, base({ newDivergences: 3 }), 1).closing.at(-1)).toMatch(/see the JSON report \(--json FILE\) for details$/);
  });

  test("a cell counts cases, as its row's header does, not divergences", () => {
    const results = [
      withDivergences(result("GetBlock/a", "GetBlock", "pass"), [divergence("GetBlock/a", "GetBlock", "q1"), divergence("GetBlock/a", "GetBlock", "q2")]),
    ];
    const { lines } = ending(results, base({ known: 2, divergences: 2 }), 0);
    expect(lines.find((l) => l.startsWith("GetBlock (1)"))).toMatch(/~1\s*$/);
  });

  test("exit 3 names who could not be checked; exit 0 says nothing is new", () => {
    const unchecked = [
      {
        side: "mine",
        cases: 5,
        of: 5,
        fault: "unreachable" as const,
        what: "unreachable",
        detail: "connect ECONNREFUSED 127.0.0.1:1",
        hint: "is the server running?",
        otherFaults: 0,
      },
    ];
    expect(ending([], base({ unchecked, outcomes: { ...summary.outcomes, unchecked: 5 } }), 3).closing.at(-1)).toBe(
      'exit 3: could not check mine (5 of 5 cases) — see the "could not check" lines above',
    );
    const moved = base({ outcomes: { ...summary.outcomes, unchecked: 2 }, chainMotion: { reasked: 4, unsettled: 2, lag: {} } });
    expect(ending([], moved, 3).closing.at(-1)).toBe(
      'exit 3: could not check 2 cases the chain moved through on every attempt — see the "could not check" lines above',
    );
    expect(ending([result("GetBlock/a", "GetBlock", "pass")], base({ outcomes: { ...summary.outcomes, unjudged: 0 } }), 0).closing.at(-1)).toBe(
      "exit 0: nothing new",
    );
  });

  test("a report that could not be written is the reason for exit 2; an interruption for 130", () => {
    expect(ending([], summary, 2, { written: [{ label: "JSON", path: "/r.json" }], failed: [{ label: "JUnit", path: "/x.xml" }] }).closing).toEqual([
      "reports written: JSON /r.json",
      "exit 2: the JUnit report could not be written (see above)",
    ]);
    expect(ending([result("GetBlock/a", "GetBlock", "pass")], summary, 130, undefined, { partial: true, interrupted: "SIGINT" }).closing.at(-1)).toBe(
      "exit 130: interrupted by SIGINT; the reports hold the 1 case that finished",
    );
  });

  test("skipped cases are counted by reason, and verdicts said in plain words", () => {
    const skipped = (id: string, why: string): CaseResult => ({ ...result(id, "GetBlock", "pass"), skipped: why, answers: [], outcomes: [] });
    const results = [
      skipped("a", "only for chains regtest"),
      skipped("b", "only for chains fixture, regtest"),
      skipped(
        "c",
        "not sent: the request holds a valid transaction, and sending it could broadcast it (only a run against a regtest chain with --allow-broadcast sends it)",
      ),
      result("GetBlock/x", "GetBlock", "pass"),
    ];
    const { lines } = ending(results, base({ cases: 4, skipped: 3, verdicts: { agree: 1, "all-vs-oracle": 2 } }), 0);
    expect(lines).toContain("3 cases skipped: 2 declared for another chain, 1 would send a transaction: need --allow-broadcast on a regtest chain");
    expect(lines).toContain("by case: 1 every build right · 2 all builds agree with each other but not with the node (or the expected error)");
    expect(lines.join("\n")).not.toContain("all-vs-oracle");
  });
});

describe("exit 0 whatever the run found", () => {
  test("stale entries allowed, or goldens recorded: the line says so and what was found", () => {
    const lines: string[] = [];
    const r = terminalReporter({ write: (l) => lines.push(l), chalk: new Chalk({ level: 0 }) });
    r.onEvent({
      type: "run-start",
      schemaVersion: 3,
      tool: { name: "zconform", version: "0" },
      startedAt: "",
      chain: "fixture",
      builds: [{ name: "b", implementation: "other", emulated: false }],
      cases: 1,
      conditions: [],
    });
    r.onEvent({ type: "case-result", result: result("GetBlock/x", "GetBlock", "pass"), done: 1, total: 1, index: 0 });
    r.onEvent({
      type: "run-end",
      summary: { ...summary, outcomes: { ...summary.outcomes, unjudged: 0 }, stale: [{ quirk: "q", reason: "matched nothing" }] },
      partial: false,
      finishedAt: "",
      exitCode: 0,
    });
    const none = { written: [], failed: [] };
    expect(r.closingLines(0, none).at(-1)).toBe("exit 0: nothing fails the run; 1 stale ledger entry");
    expect(r.closingLines(0, none, "goldens recorded").at(-1)).toBe("exit 0: goldens recorded; 1 stale ledger entry");
  });

  test("exit 1 with nothing found is --strict's: it says what it failed on", () => {
    const r = terminalReporter({ write: () => {}, chalk: new Chalk({ level: 0 }) });
    r.onEvent({
      type: "run-start",
      schemaVersion: 3,
      tool: { name: "zconform", version: "0" },
      startedAt: "",
      chain: "fixture",
      builds: [{ name: "b", implementation: "other", emulated: false }],
      cases: 1,
      conditions: [],
    });
    r.onEvent({ type: "case-result", result: result("Ping/x", "Ping", "unjudged"), done: 1, total: 1, index: 0 });
    r.onEvent({ type: "run-end", summary, partial: false, finishedAt: "", exitCode: 1 });
    expect(r.closingLines(1, { written: [], failed: [] }).at(-1)).toBe("exit 1 (--strict): 1 answer unjudged (listed above); the run has no oracle");
  });
});

describe("a run on a chain that moved", () => {
  test("the summary says what was asked again and each build's lag behind its node", async () => {
    const summary: RunSummary = {
      cases: 2,
      skipped: 0,
      verdicts: {},
      outcomes: { pass: 2, known: 0, new: 0, unchecked: 0, unjudged: 0 },
      unchecked: [],
      divergences: 0,
      newDivergences: 0,
      known: 0,
      stale: [],
      expired: [],
      durationMs: 10,
      chainMotion: { reasked: 3, lag: { lightwalletd: { samples: 4, p50Ms: 1200, maxMs: 2100 } } },
    };
    const lines = renderSummary(summary, new Chalk({ level: 0 }));
    expect(lines).toContain(
      'the chain moved during the run: 3 cases were asked again once the builds served the node\'s tip (marked "reasked" in the reports)',
    );
    expect(lines).toContain("time to serve the node's tip: lightwalletd 1.2 s median, 2.1 s at most (4×)");
    expect(lines.join("\n")).not.toMatch(/never saw the chain hold still/);
    const unsettled = renderSummary({ ...summary, chainMotion: { ...summary.chainMotion!, unsettled: 1 } }, new Chalk({ level: 0 }));
    expect(unsettled).toContain(
      '1 of them never saw the chain hold still through an attempt: their builds with differences could not be checked (the differences are under "reasked.unsettled")',
    );
  });
});
