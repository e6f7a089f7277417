import { describe, expect, test } from "@jest/globals";
import type { ScenarioRecord, StepRecord } from "../../core/scenario/record.js";
import type { CaseResult } from "../../core/results/result.js";
import { scenarioDocument } from "./document.js";
import { scenarioLines } from "./terminal.js";

const builds = [
  { name: "fast", implementation: "other", emulated: false },
  { name: "slow", implementation: "zaino", emulated: true },
];
const tip = { height: 301, hash: "ab".repeat(32) };

function step(checks: StepRecord["checks"], action: StepRecord["action"] = { kind: "mine", blocks: 1, tips: [tip] }): StepRecord {
  return { index: 1, source: "s.yaml:3", atMs: 0, actionMs: 2, action, checks };
}

function check(outcomes: Record<string, "pass" | "known" | "new" | "unchecked">, quirk: string | null = null): StepRecord["checks"][number] {
  const fresh = Object.entries(outcomes).filter(([, o]) => o === "new" || o === "known");
  return {
    id: "tip",
    caseId: "GetLatestBlock/tip",
    method: "GetLatestBlock",
    deadlineMs: 1000,
    builds: Object.entries(outcomes).map(([build, outcome]) => ({ build, outcome, ms: outcome === "pass" ? 12 : null })),
    result: {
      verdict: { verdict: "deviant" },
      divergences: fresh.map(([build]) => ({ build, kind: "value", path: "height", detail: "301 vs 300", quirk })),
    } as unknown as CaseResult,
  };
}

function doc(records: ScenarioRecord[]) {
  return scenarioDocument({
    startedAt: new Date(),
    chain: "fixture",
    builds,
    network: { kind: "fixture", timingScale: 0.1 },
    oracle: "http://o",
    records,
    durationMs: 10,
  });
}

function record(steps: StepRecord[], extra: Partial<ScenarioRecord> = {}): ScenarioRecord {
  const served = (n: number) => ({ fast: n, slow: n * 10 });
  return {
    id: "s",
    source: "s.yaml:1",
    durationMs: 10,
    steps,
    tips: [1, 2, 3, 4].map((n) => ({ kind: "block" as const, height: 300 + n, hash: tip.hash, atMs: n, served: served(n) })),
    ...extra,
  };
}

describe("the scenario report", () => {
  test("exit 0 when every build converged or matches as the ledger explains; tip following per build over the run's blocks", () => {
    const d = doc([record([step([check({ fast: "pass", slow: "known" }, "some-quirk")])])]);
    expect(d.exitCode).toBe(0);
    expect(d.summary).toMatchObject({ checks: 1, outcomes: { pass: 1, known: 1 }, newDivergences: 0, knownDivergences: 1 });
    expect(d.tipFollowing).toEqual([
      {
        build: "fast",
        blocks: { events: 4, served: 4, p50Ms: 2, p99Ms: 4, maxMs: 4 },
        reorgs: { events: 0, served: 0, p50Ms: null, p99Ms: null, maxMs: null },
      },
      {
        build: "slow",
        blocks: { events: 4, served: 4, p50Ms: 20, p99Ms: 40, maxMs: 40 },
        reorgs: { events: 0, served: 0, p50Ms: null, p99Ms: null, maxMs: null },
      },
    ]);
    expect(scenarioLines(d).join("\n")).toMatch(/GetLatestBlock tip\s+12 ms\s+known/);
  });

  test("exit 1 for a new divergence (printed under its step) or a build that never served the tip; 3 when something could not be checked or a scenario stopped", () => {
    const fresh = doc([record([step([check({ fast: "pass", slow: "new" })])])]);
    expect(fresh.exitCode).toBe(1);
    expect(scenarioLines(fresh)).toContain("          new: slow GetLatestBlock/tip value height: 301 vs 300");
    expect(
      doc([
        record([
          step([], {
            kind: "wait-tip",
            builds: [
              { build: "fast", ms: 3 },
              { build: "slow", ms: null },
            ],
          }),
        ]),
      ]).exitCode,
    ).toBe(1);
    expect(doc([record([step([check({ fast: "pass", slow: "unchecked" })])])]).exitCode).toBe(3);
    expect(doc([record([], { error: "cannot reorganize 9 blocks" })]).exitCode).toBe(3);
  });
});
