// The JSON report: the machine-readable twin of every other output, versioned
// (schemas/report.schema.json; the file form is in json-file.ts). It holds every case
// result and a flat list of divergences, each with caseId, method, build, kind, path and
// quirk (null when new).

import type { BuildInfo, Preflight, Reporter, RunCondition, RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult, ClassifiedDivergence } from "../results/result.js";
import { writeJsonReport } from "./json-file.js";

export interface JsonReport {
  /** What the document is, as in every mode's envelope (core/results/envelope.ts). */
  kind: "run";
  schemaVersion: number;
  tool: { name: "zconform"; version: string };
  startedAt: string;
  finishedAt: string | null;
  partial: boolean;
  /** The signal that interrupted the run, or null. */
  interrupted: string | null;
  exitCode: number | null;
  chain: string;
  oracle: string | null;
  /** How the run was made, where that weakens its results (no oracle, TLS checks off, …). */
  conditions: RunCondition[];
  shard: { index: number; count: number } | null;
  builds: BuildInfo[];
  /** What every build and the oracle answered to the first call of the run. */
  preflight?: Preflight;
  summary: RunSummary | null;
  cases: CaseResult[];
  divergences: ClassifiedDivergence[];
}

/** Builds the report document from the event stream. */
export function jsonReportFrom(events: readonly RunEvent[]): JsonReport {
  const start = events.find((e) => e.type === "run-start");
  if (start?.type !== "run-start") throw new Error("no run-start event");
  const end = events.find((e) => e.type === "run-end");
  const cases = events
    .flatMap((e) => (e.type === "case-result" ? [e] : []))
    .sort((a, b) => a.index - b.index)
    .map((e) => e.result);
  return {
    kind: "run",
    schemaVersion: start.schemaVersion,
    tool: start.tool,
    startedAt: start.startedAt,
    finishedAt: end?.type === "run-end" ? end.finishedAt : null,
    partial: end?.type === "run-end" ? end.partial : true,
    interrupted: end?.type === "run-end" ? (end.interrupted ?? null) : null,
    exitCode: end?.type === "run-end" ? end.exitCode : null,
    chain: start.chain,
    oracle: start.oracle ?? null,
    conditions: start.conditions,
    shard: start.shard ?? null,
    builds: start.builds,
    ...(start.preflight ? { preflight: start.preflight } : {}),
    summary: end?.type === "run-end" ? end.summary : null,
    cases,
    divergences: cases.flatMap((c) => c.divergences),
  };
}

export function jsonReporter(path: string): Reporter {
  const events: RunEvent[] = [];
  return {
    onEvent: (e) => {
      events.push(e);
    },
    finish: async () => {
      if (events.length > 0) writeJsonReport(path, jsonReportFrom(events));
    },
  };
}
