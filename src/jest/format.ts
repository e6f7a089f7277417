// The failure message of one conformance test: what differs, where, between whom, which
// of it the ledger already knows, and the JSON Patch — readable in a CI log without the
// JSON report at hand.

import { formatPatch } from "../core/diff/patch.js";
import type { RunSummary } from "../core/results/events.js";
import type { CaseResult, ClassifiedDivergence } from "../core/results/result.js";
import { adviceFor } from "../core/targets/fault-advice.js";

function shown(v: unknown): string {
  if (v === undefined) return "(absent)";
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

function divergenceLines(ds: readonly ClassifiedDivergence[]): string[] {
  const width = Math.max(...ds.flatMap((d) => [d.left.length, d.right.length])) + 1;
  return ds.flatMap((d) => [
    `  ${d.kind} at ${d.path || "(whole answer)"}${d.quirk ? `  [known: ${d.quirk}]` : "  [NEW]"}`,
    `    ${`${d.left}:`.padEnd(width)} ${shown(d.leftValue)}`,
    `    ${`${d.right}:`.padEnd(width)} ${shown(d.rightValue)}`,
    ...(d.detail ? [`    ${d.detail}`] : []),
  ]);
}

/** Why `builds` could not be checked on this case (one line each, with what to do), or undefined. */
export function uncheckedOf(r: CaseResult, builds: readonly string[]): string | undefined {
  const lines = (r.outcomes ?? [])
    .filter((o) => builds.includes(o.build) && o.outcome === "unchecked")
    .map((o) => {
      const fault = o.fault ?? r.answers.find((a) => a.side === o.build)?.fault;
      const advice = fault ? adviceFor(fault) : undefined;
      const who = o.cause === "oracle" ? `the oracle (needed to judge ${o.build})` : o.build;
      return `  ${who}: ${advice ? `${advice.what} — ${fault!.detail}; ${advice.hint}` : (o.reason ?? "no answer")}`;
    });
  if (lines.length === 0) return undefined;
  return [`${r.caseId}: could not be checked, so it cannot pass`, ...lines, `  (${r.source})`].join("\n");
}

/**
 * Why a case the run did not send fails its test: only the run could tell (foresee.ts),
 * so the test could not be declared skipped, and a case not sent does not pass.
 */
export function notSentOf(r: CaseResult): string | undefined {
  if (r.skipped === undefined) return undefined;
  return [
    `${r.caseId}: not sent, so it cannot pass: ${r.skipped}`,
    "  only the run could tell, too late for jest to skip the test: leave the case out with caseFilter,",
    "  or, when config is a factory, give `chain` and each build's implementation in `builds`",
    `  (${r.source})`,
  ].join("\n");
}

/** In strict mode, why `builds` fail a case they answered with nothing to measure the answer against. */
export function unjudgedOf(r: CaseResult, builds: readonly string[]): string | undefined {
  const lines = (r.outcomes ?? [])
    .filter((o) => builds.includes(o.build) && o.outcome === "unjudged")
    .map((o) => `  ${o.build}: ${o.reason ?? "nothing to compare with"}`);
  if (lines.length === 0) return undefined;
  return [`${r.caseId}: unjudged (answered, measured against nothing), which strict mode fails`, ...lines, `  (${r.source})`].join("\n");
}

/** Why `builds` fail this case; empty when they do not. */
export function failureOf(r: CaseResult, builds: readonly string[]): string | undefined {
  const mine = r.divergences.filter((d) => builds.includes(d.build));
  const fresh = mine.filter((d) => d.quirk === null);
  const drift = (r.drift ?? []).filter((d) => builds.includes(d.build) && d.status === "changed");
  if (fresh.length === 0 && drift.length === 0) return undefined;
  const against = [...new Set(fresh.map((d) => d.left))].join(", ");
  const lines = [
    `${r.caseId} [${builds.join(", ")}]: ${fresh.length} new divergence${fresh.length === 1 ? "" : "s"}${against ? ` from ${against}` : ""}${drift.length ? `, drift from goldens` : ""}`,
    `  ${r.title ? `${r.title} ` : ""}(${r.source})`,
    `  request: ${shown(r.request)}`,
    `  verdict: ${r.verdict ? `${r.verdict.verdict} (reference: ${r.verdict.reference})` : "–"}`,
    "",
    ...divergenceLines(fresh),
  ];
  const known = mine.filter((d) => d.quirk !== null);
  if (known.length > 0) lines.push("", `  known (ledger), not failing:`, ...known.map((d) => `    ${d.quirk}: ${d.kind} at ${d.path || "(whole answer)"}`));
  for (const p of r.patches.filter((p) => builds.includes(p.right))) {
    lines.push("", `  JSON Patch ${p.left} → ${p.right}:`, ...formatPatch(p.ops).map((l) => `    ${l}`));
  }
  for (const d of drift) {
    lines.push(
      "",
      `  drift of ${d.build} from its golden:`,
      ...d.divergences.map((x) => `    ${x.kind} at ${x.path || "(whole answer)"}: ${shown(x.leftValue)} → ${shown(x.rightValue)}`),
    );
  }
  return lines.join("\n");
}

/** An error whose stack is its message: the frames inside zconform would tell a reader nothing. */
export function conformanceError(message: string): Error {
  const e = new Error(message);
  e.stack = `ConformanceError: ${message}`;
  return e;
}

/** Why the ledger test fails: expired entries always, stale ones unless allowed. */
export function ledgerProblems(s: Pick<RunSummary, "stale" | "expired">, allowStale: boolean): string | undefined {
  const lines = [
    ...s.expired.map((e) => `expired: ${e.quirk} (expired ${e.expires}): re-examine it, then renew or remove it`),
    ...(allowStale ? [] : s.stale.map((e) => `stale: ${e.quirk}: ${e.reason}`)),
  ];
  return lines.length > 0 ? `the ledger needs attention:\n  ${lines.join("\n  ")}` : undefined;
}
