// How each build fared on one case. A verdict speaks for the case over all builds; an
// outcome speaks for one case × build, and is what every report draws in a cell:
//   pass       measured against a reference (the oracle, the expected error, or the other
//              builds) and found the same
//   known      differs, and the ledger explains every difference
//   new        differs in a way the ledger does not know (or drifted from its golden)
//   unchecked  could not be checked: the build gave no well-formed answer, or the oracle
//              the case is anchored to could not answer. Never a pass: it fails the run
//              with its own exit code.
//   unjudged   answered, but there was nothing to measure it against (one build and an
//              `agree` case, or an oracle case with no oracle configured). Listed, never a
//              pass, and not a failure either.

import type { Answer, ClassifiedDivergence, Drift } from "./result.js";
import type { Fault } from "../targets/observation.js";

export type OutcomeKind = "pass" | "known" | "new" | "unchecked" | "unjudged";

export const OUTCOME_KINDS: readonly OutcomeKind[] = ["pass", "known", "new", "unchecked", "unjudged"];

export interface BuildOutcome {
  build: string;
  outcome: OutcomeKind;
  /** For unchecked and unjudged: why, in a few words. */
  reason?: string;
  /**
   * For unchecked: whose answer was missing, the build itself or "oracle", and its fault;
   * or "chain": the chain moved through every attempt (src/core/run/moving-chain.ts).
   */
  cause?: string;
  fault?: Fault;
}

export interface OutcomeInput {
  /** "oracle", "agree" or "error". */
  expect: "oracle" | "agree" | "error" | "ok";
  answers: readonly Answer[];
  /** The oracle's answer, and the other oracle answers some builds are measured against, when asked. */
  oracle?: Answer;
  otherOracles?: readonly Answer[];
  /** Whether the run has an oracle at all. */
  oracleConfigured: boolean;
  divergences: readonly ClassifiedDivergence[];
}

export function outcomesOf(o: OutcomeInput): BuildOutcome[] {
  const oracleFault = o.expect === "oracle" ? [o.oracle, ...(o.otherOracles ?? [])].find((a) => a?.fault)?.fault : undefined;
  const answering = o.answers.filter((a) => !a.fault).map((a) => a.side);
  return o.answers.map((a): BuildOutcome => {
    const build = a.side;
    if (a.fault) return { build, outcome: "unchecked", cause: build, fault: a.fault, reason: `${a.fault.kind}: ${a.fault.detail}` };
    if (oracleFault)
      return {
        build,
        outcome: "unchecked",
        cause: "oracle",
        fault: oracleFault,
        reason: `the oracle could not answer (${oracleFault.kind}: ${oracleFault.detail})`,
      };
    const mine = o.divergences.filter((d) => d.build === build);
    if (mine.some((d) => d.quirk === null)) return { build, outcome: "new" };
    if (mine.length > 0) return { build, outcome: "known" };
    const peers = answering.filter((n) => n !== build).length;
    if (o.expect === "oracle" && !o.oracleConfigured) return { build, outcome: "unjudged", reason: "no oracle configured" };
    if (o.expect === "oracle" && !o.oracle && peers === 0)
      return { build, outcome: "unjudged", reason: "the oracle cannot derive this answer, and no other build answered" };
    if (o.expect === "agree" && peers === 0) return { build, outcome: "unjudged", reason: "an agree case needs a second build to compare with" };
    return { build, outcome: "pass" };
  });
}

/** Golden drift is judged after the case: a build whose answer changed is new, whatever it was. */
export function outcomesWithDrift(outcomes: readonly BuildOutcome[], drift: readonly Drift[]): BuildOutcome[] {
  const changed = new Set(drift.filter((d) => d.status === "changed").map((d) => d.build));
  return outcomes.map((x) => (changed.has(x.build) && x.outcome !== "unchecked" ? { build: x.build, outcome: "new" } : x));
}
