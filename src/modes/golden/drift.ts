// Drift: a build's live answer against its recorded golden, compared like any two
// answers (same volatile declarations, same byte-for-byte policy).

import type { Case } from "../../core/corpus/case.js";
import { compareObservations } from "../../core/diff/compare.js";
import type { Divergence } from "../../core/diff/divergence.js";
import { rpcOf } from "../../core/run/plan.js";
import type { Answer } from "../../core/results/result.js";
import { goldenOf, goldenPath, observationOf, readGolden } from "./store.js";

export interface Drift {
  build: string;
  /** unchanged; changed (divergences say how); unrecorded (no golden for this answer). */
  status: "unchanged" | "changed" | "unrecorded";
  divergences: Divergence[];
}

export const GOLDEN_SIDE = "golden";

export function driftOf(c: Case, answers: readonly Answer[], root: string, chain: string): Drift[] {
  const rpc = c.transport === "grpc" ? rpcOf(c.method) : undefined;
  return answers.map((a): Drift => {
    const golden = readGolden(goldenPath(root, chain, a.side, c.id));
    if (!golden) return { build: a.side, status: "unrecorded", divergences: [] };
    const cmp = compareObservations(observationOf(golden, c.method), observationOf(goldenOf(c.id, a), c.method), {
      left: GOLDEN_SIDE, right: a.side, ...(rpc ? { method: rpc } : {}), volatile: c.volatile, unordered: c.unordered, patch: false,
    });
    return { build: a.side, status: cmp.divergences.length === 0 ? "unchanged" : "changed", divergences: [...cmp.divergences] };
  });
}
