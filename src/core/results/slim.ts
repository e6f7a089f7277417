// A result without what only the file reports show: its answers' bytes and decoded
// forms, the request and the JSON Patches. What is left is what the ledger, the summary
// and the terminal read (sides, statuses, outcomes, divergences, drift), so what keeps
// every result to the end of a run holds that, not every answer of every case.

import type { Answer, CaseResult } from "./result.js";

const slim = (a: Answer): Answer => ({ ...a, hex: [], json: undefined, elided: undefined });

export function slimResult(r: CaseResult): CaseResult {
  const { request: _request, ...rest } = r;
  return {
    ...rest,
    answers: r.answers.map(slim),
    patches: [],
    ...(r.oracle ? { oracle: slim(r.oracle) } : {}),
    ...(r.otherOracles ? { otherOracles: r.otherOracles.map(slim) } : {}),
  };
}
