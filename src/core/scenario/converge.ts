// A check on a moving chain: asked again and again until every build's answer matches
// what it is measured against (or differs only as the ledger explains), or the deadline
// passes. Each build's time is the first poll since which it has matched; a build that
// never does keeps the last answer's outcome.

import type { CaseResult } from "../results/result.js";
import type { OutcomeKind } from "../results/outcome.js";

export interface BuildConvergence {
  build: string;
  /** ms from `since` to the answer since which the build has matched; null when it never did. */
  ms: number | null;
  outcome: OutcomeKind;
}

export interface Convergence {
  /** The last poll's result. */
  result: CaseResult;
  builds: BuildConvergence[];
  polls: number;
}

const SETTLED: ReadonlySet<OutcomeKind> = new Set(["pass", "known", "unjudged"]);

export async function converge(
  poll: () => Promise<CaseResult | undefined>,
  since: number,
  deadlineMs: number,
  pollMs: number,
): Promise<Convergence | undefined> {
  const first = new Map<string, number>();
  let polls = 0;
  for (;;) {
    const result = await poll();
    if (!result) return undefined;
    polls++;
    const at = performance.now() - since;
    const outcomes = result.outcomes ?? [];
    for (const o of outcomes) {
      if (!SETTLED.has(o.outcome)) first.delete(o.build);
      else if (!first.has(o.build)) first.set(o.build, at);
    }
    const settled = outcomes.every((o) => SETTLED.has(o.outcome));
    if (settled || result.skipped || at >= deadlineMs) {
      return {
        result,
        polls,
        builds: outcomes.map((o) => ({ build: o.build, ms: first.has(o.build) ? Math.round(first.get(o.build)!) : null, outcome: o.outcome })),
      };
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
