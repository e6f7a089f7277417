// The scenario report: the shared envelope (kind "scenario", schemas/scenario.schema.json),
// each scenario's timeline (per step, each build's time to converge or its outcome), tip
// following per build (p50/p99 of the time from the node accepting a block to the build
// serving it), and the exit code, as `run`'s: 3 when something could not be checked, 1
// for a new divergence or a build that never reached the node's tip, else 0.

import { envelope, type Envelope, type EnvelopeContext } from "../../core/results/envelope.js";
import { OUTCOME_KINDS, type OutcomeKind } from "../../core/results/outcome.js";
import type { CheckRecord, ScenarioRecord, StepRecord } from "../../core/scenario/record.js";
import { EXIT } from "../../core/run/session.js";
import { percentile } from "../latency/stats.js";

export const SCENARIO_SCHEMA_VERSION = 1;

/** A check as the report keeps it: the judged result reduced to its verdict and divergences. */
export type CheckEntry = Omit<CheckRecord, "result"> & {
  verdict: string | null;
  divergences: { build: string; kind: string; path: string; detail: string; quirk: string | null }[];
};

export type StepEntry = Omit<StepRecord, "checks"> & { checks: CheckEntry[] };

export type ScenarioEntry = Omit<ScenarioRecord, "steps"> & { steps: StepEntry[] };

/** ms from the node accepting a block (or a reorganization) to the build serving it as its latest block. */
export interface TipFigures {
  events: number;
  /** Events the build served within the run (the others: null in the scenarios' tips). */
  served: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export interface ScenarioDocument extends Envelope<"scenario"> {
  /** The signal that stopped the run: the scenarios it holds are those that ran, the last one up to where it stood. */
  interrupted?: string;
  /** The network the scenarios moved: the fixture's (its emulated timings scaled by this factor), or a real regtest zebrad's. */
  network: ScenarioNetwork;
  oracle: string;
  scenarios: ScenarioEntry[];
  tipFollowing: { build: string; blocks: TipFigures; reorgs: TipFigures }[];
  summary: {
    scenarios: number;
    checks: number;
    outcomes: Record<OutcomeKind, number>;
    newDivergences: number;
    knownDivergences: number;
    /** Build × wait-for-tip steps where the build did not serve the node's tip within the deadline. */
    notAtTip: number;
    /** Scenarios stopped before their end (the node could not move as asked). */
    stopped: number;
    durationMs: number;
  };
}

export type ScenarioNetwork =
  | { kind: "fixture"; timingScale: number }
  /** `node`: the zebrad that mined and moved the chain; `notes`: the real servers not started, and why. */
  | { kind: "regtest"; node: string; notes: string[] };

/** How reports name the network in a line: what timings the builds' figures are in. */
export function networkLabel(n: ScenarioNetwork): string {
  return n.kind === "fixture" ? `emulated timings × ${n.timingScale}` : `real servers on ${n.node} regtest`;
}

export interface DocumentInput extends EnvelopeContext {
  network: ScenarioNetwork;
  oracle: string;
  records: readonly ScenarioRecord[];
  durationMs: number;
  /** Set when a signal stopped the run: its name and the exit code it ends with. */
  interrupted?: { signal: string; exitCode: number };
}

function figures(samples: readonly (number | null)[]): TipFigures {
  const served = samples.filter((s): s is number => s !== null).sort((a, b) => a - b);
  const pick = (p: number) => (served.length === 0 ? null : percentile(served, p));
  return { events: samples.length, served: served.length, p50Ms: pick(50), p99Ms: pick(99), maxMs: served.length === 0 ? null : served[served.length - 1]! };
}

export function scenarioDocument(input: DocumentInput): ScenarioDocument {
  const scenarios: ScenarioEntry[] = input.records.map((r) => ({
    id: r.id,
    ...(r.title !== undefined ? { title: r.title } : {}),
    source: r.source,
    durationMs: r.durationMs,
    ...(r.error !== undefined ? { error: r.error } : {}),
    tips: r.tips,
    steps: r.steps.map((s) => ({
      index: s.index,
      ...(s.title !== undefined ? { title: s.title } : {}),
      source: s.source,
      atMs: s.atMs,
      actionMs: s.actionMs,
      action: s.action,
      checks: s.checks.map(
        (c): CheckEntry => ({
          id: c.id,
          caseId: c.caseId,
          method: c.method,
          deadlineMs: c.deadlineMs,
          ...(c.stream !== undefined ? { stream: c.stream } : {}),
          ...(c.skipped !== undefined ? { skipped: c.skipped } : {}),
          verdict: c.result.verdict?.verdict ?? null,
          builds: c.builds,
          divergences: c.result.divergences.map((d) => ({ build: d.build, kind: d.kind, path: d.path, detail: d.detail, quirk: d.quirk })),
        }),
      ),
    })),
  }));
  const builds = input.builds.map((b) => b.name);
  const tips = scenarios.flatMap((s) => s.tips);
  const tipFollowing = builds
    .filter((b) => tips.some((t) => b in t.served))
    .map((build) => ({
      build,
      blocks: figures(tips.filter((t) => t.kind === "block").map((t) => t.served[build] ?? null)),
      reorgs: figures(tips.filter((t) => t.kind === "reorg").map((t) => t.served[build] ?? null)),
    }));
  const checks = scenarios.flatMap((s) => s.steps.flatMap((st) => st.checks));
  const outcomes = Object.fromEntries(OUTCOME_KINDS.map((k) => [k, 0])) as Record<OutcomeKind, number>;
  for (const c of checks) for (const b of c.builds) outcomes[b.outcome]++;
  const divergences = checks.flatMap((c) => c.divergences);
  const notAtTip = scenarios
    .flatMap((s) => s.steps)
    .reduce((n, st) => n + (st.action.kind === "wait-tip" ? st.action.builds.filter((b) => b.ms === null).length : 0), 0);
  const stopped = scenarios.filter((s) => s.error !== undefined).length;
  const summary = {
    scenarios: scenarios.length,
    checks: checks.length,
    outcomes,
    newDivergences: divergences.filter((d) => d.quirk === null).length,
    knownDivergences: divergences.filter((d) => d.quirk !== null).length,
    notAtTip,
    stopped,
    durationMs: Math.round(input.durationMs),
  };
  const exitCode =
    input.interrupted?.exitCode ??
    (outcomes.unchecked > 0 || stopped > 0 ? EXIT.unchecked : summary.newDivergences > 0 || notAtTip > 0 ? EXIT.findings : EXIT.ok);
  return {
    ...envelope("scenario", SCENARIO_SCHEMA_VERSION, input, exitCode),
    ...(input.interrupted ? { interrupted: input.interrupted.signal } : {}),
    network: input.network,
    oracle: input.oracle,
    scenarios,
    tipFollowing,
    summary,
  };
}
