// Drift: a build's live answer against its recorded golden, compared like any two
// answers (same volatile declarations, same byte-for-byte policy), but for the paths a
// case declares to follow the wall clock, which a golden recorded earlier cannot hold.

import { bothEnforcedDeadline } from "../../core/canon/grpc.js";
import { compareObservations } from "../../core/diff/compare.js";
import { rpcOf } from "../../core/run/plan.js";
import type { Protocol } from "../../core/run/protocol.js";
import type { CaseResult, Drift } from "../../core/results/result.js";
import { goldenAnswers, goldenOf, goldenPath, observationOf, readGolden } from "./store.js";

export const GOLDEN_SIDE = "golden";

/** Each answer of a judged case (with `sides`, those goldens keep) against its golden under root/chain. */
export function driftOf(
  c: CaseResult,
  protocol: Pick<Protocol, "service">,
  root: string,
  chain: string,
  emulated: ReadonlySet<string> = new Set(),
  sides?: ReadonlySet<string>,
): Drift[] {
  const rpc = c.transport === "grpc" ? rpcOf(protocol, c.method) : undefined;
  return goldenAnswers(c, sides).map((a): Drift => {
    const golden = readGolden(goldenPath(root, chain, a.side, c.caseId, emulated.has(a.side)));
    if (!golden) return { build: a.side, status: "unrecorded", divergences: [] };
    if (bothEnforcedDeadline(c.deadlineMs, golden, a)) return { build: a.side, status: "unchanged", divergences: [] };
    const cmp = compareObservations(observationOf(golden, c.method), observationOf(goldenOf(c.caseId, a), c.method), {
      left: GOLDEN_SIDE,
      right: a.side,
      ...(rpc ? { method: rpc } : {}),
      volatile: [...c.volatile, ...(c.wallClock ?? [])],
      unordered: c.unordered,
      ...(c.unorderedKeys ? { unorderedKeys: c.unorderedKeys } : {}),
      patch: false,
    });
    return { build: a.side, status: cmp.divergences.length === 0 ? "unchanged" : "changed", divergences: [...cmp.divergences] };
  });
}

/** The session's drift step for goldens recorded under root/chain. */
export function goldenDrift(
  protocol: Pick<Protocol, "service">,
  root: string,
  chain: string,
  emulated: ReadonlySet<string> = new Set(),
  sides?: ReadonlySet<string>,
): (r: CaseResult) => Drift[] {
  return (r) => driftOf(r, protocol, root, chain, emulated, sides);
}
