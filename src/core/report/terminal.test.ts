import { describe, expect, test } from "@jest/globals";
import { Chalk } from "chalk";
import type { RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { terminalReporter } from "./terminal.js";

const summary: RunSummary = {
  cases: 3, skipped: 0, verdicts: {}, outcomes: { pass: 2, known: 0, new: 0, unchecked: 0, unjudged: 1 }, unchecked: [],
  divergences: 0, newDivergences: 0, known: 0, stale: [], expired: [], durationMs: 10,
};

function result(caseId: string, method: string, outcome: "pass" | "unjudged"): CaseResult {
  return {
    caseId, method, transport: "grpc", expect: outcome === "pass" ? "error INVALID_ARGUMENT" : "agree", tags: [], source: "x:1",
    answers: [{ side: "b", transport: "grpc", status: "OK", code: null, message: "", count: 1, wireBytes: 1, ms: 1, hex: [] }],
    outcomes: [{ build: "b", outcome, ...(outcome === "unjudged" ? { reason: "an agree case needs a second build to compare with" } : {}) }],
    divergences: [], volatile: [], excluded: [], unordered: false, patches: [],
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
    type: "run-start", schemaVersion: 3, tool: { name: "zconform", version: "0" }, startedAt: "", chain: "fixture",
    builds: [{ name: "b", implementation: "other", emulated: false }], cases: 3,
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
