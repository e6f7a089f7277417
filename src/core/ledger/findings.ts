// What the ledger says about a whole run: entries that no longer show (stale) and
// entries past their date (expired). Only entries about builds in the run are judged:
// an entry for lightwalletd says nothing in a run without lightwalletd. Only judged
// answers count: a build that could not be checked on a case the entry covers, or whose
// answers had nothing to be measured against, says nothing about whether it still shows.
// Nor does a run that left out, by --case or --method, a case the entry covers: that case
// may be the one where the entry shows. A build of unknown version says nothing about an
// entry limited to versions: its version may be one without the behaviour. An intermittent
// entry (it shows only under a condition the run does not set) is never stale.

import type { CaseResult } from "../results/result.js";
import { glob } from "../corpus/glob.js";
import { appliesTo, type BuildIdentity } from "./classify.js";
import type { OutcomeKind } from "../results/outcome.js";
import type { Quirk } from "./quirk.js";

export interface StaleEntry {
  quirk: string;
  build: string;
  reason: string;
}

export interface LedgerFindings {
  stale: StaleEntry[];
  expired: { quirk: string; expires: string; builds: string[] }[];
  /** Divergences explained, per entry. */
  matched: Record<string, number>;
}

/** A case as the ledger's match sees it. */
export type CaseRef = Pick<CaseResult, "caseId" | "method" | "transport">;

function covers(q: Quirk, r: CaseRef): boolean {
  const m = q.match;
  if (m.transport !== undefined && m.transport !== r.transport) return false;
  if (m.methods !== undefined && !m.methods.includes(r.method)) return false;
  if (m.cases !== undefined && !m.cases.some((p) => glob(p, r.caseId))) return false;
  return true;
}

const exercises = (q: Quirk, r: CaseResult) => !r.skipped && covers(q, r);

const versionLimited = (q: Quirk) => q.builds.some((s) => s.versions !== undefined) || q.fixedIn !== undefined;

/**
 * `leftOut`: the cases of the corpus the run's selection (--case, --method) did not run;
 * an entry covering one of them is not judged stale.
 */
export function ledgerFindings(
  ledger: readonly Quirk[],
  results: readonly CaseResult[],
  builds: readonly BuildIdentity[],
  today: Date = new Date(),
  leftOut: readonly CaseRef[] = [],
): LedgerFindings {
  const matched: Record<string, number> = {};
  const matchedBy = new Set<string>();
  for (const r of results)
    for (const d of r.divergences) {
      if (d.quirk === null) continue;
      matched[d.quirk] = (matched[d.quirk] ?? 0) + 1;
      matchedBy.add(`${d.quirk}\u0000${d.build}`);
    }
  const stale: StaleEntry[] = [];
  const expired: LedgerFindings["expired"] = [];
  const day = today.toISOString().slice(0, 10);
  for (const q of ledger) {
    const applicable = builds.filter((b) => appliesTo(q, b));
    if (applicable.length === 0) continue;
    if (q.expires !== undefined && q.expires < day) expired.push({ quirk: q.id, expires: q.expires, builds: applicable.map((b) => b.name) });
    if (q.intermittent !== undefined || leftOut.some((c) => covers(q, c))) continue;
    for (const b of applicable) {
      if (b.versionUnknown && versionLimited(q)) continue;
      const covered = results.filter((r) => exercises(q, r) && r.answers.some((a) => a.side === b.name));
      const outcome = (r: CaseResult): OutcomeKind | undefined => r.outcomes?.find((o) => o.build === b.name)?.outcome;
      if (covered.some((r) => outcome(r) === "unchecked")) continue;
      // On a case judged by the builds' agreement, a build that answered as only builds the
      // entry covers too did (two Zaino 0.10.1, or Zaino alone among the builds asked) says
      // nothing of the behaviour: the entry is about its difference from the others.
      const uncovered = (name: string) => name !== b.name && builds.some((x) => x.name === name && !appliesTo(q, x));
      const others = (r: CaseResult) => {
        if (r.expect !== "agree" && r.expect !== "ok") return true;
        const group = r.verdict?.groups.find((g) => g.includes(b.name));
        return group ? group.some(uncovered) : r.answers.some((a) => !a.fault && uncovered(a.side));
      };
      const ran = covered.filter((r) => outcome(r) !== "unjudged" && others(r)).length;
      if (ran === 0 || matchedBy.has(`${q.id}\u0000${b.name}`)) continue;
      stale.push({ quirk: q.id, build: b.name, reason: `${b.name} answered ${ran} case(s) this entry covers and never showed it` });
    }
  }
  return { stale, expired, matched };
}
