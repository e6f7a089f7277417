// What the ledger says about a whole run: entries that no longer show (stale) and
// entries past their date (expired). Only entries about builds in the run are judged:
// an entry for lightwalletd says nothing in a run without lightwalletd. Only judged
// answers count: a build that could not be checked on a case the entry covers, or whose
// answers had nothing to be measured against, says nothing about whether it still shows.

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

function exercises(q: Quirk, r: CaseResult): boolean {
  const m = q.match;
  if (r.skipped) return false;
  if (m.transport !== undefined && m.transport !== r.transport) return false;
  if (m.methods !== undefined && !m.methods.includes(r.method)) return false;
  if (m.cases !== undefined && !m.cases.some((p) => glob(p, r.caseId))) return false;
  return true;
}

export function ledgerFindings(ledger: readonly Quirk[], results: readonly CaseResult[], builds: readonly BuildIdentity[], today: Date = new Date()): LedgerFindings {
  const matched: Record<string, number> = {};
  const matchedBy = new Set<string>();
  for (const r of results) for (const d of r.divergences) {
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
    for (const b of applicable) {
      const covered = results.filter((r) => exercises(q, r) && r.answers.some((a) => a.side === b.name));
      const outcome = (r: CaseResult): OutcomeKind | undefined => r.outcomes?.find((o) => o.build === b.name)?.outcome;
      if (covered.some((r) => outcome(r) === "unchecked")) continue;
      const ran = covered.filter((r) => outcome(r) !== "unjudged").length;
      if (ran === 0 || matchedBy.has(`${q.id}\u0000${b.name}`)) continue;
      stale.push({ quirk: q.id, build: b.name, reason: `${b.name} answered ${ran} case(s) this entry covers and never showed it` });
    }
  }
  return { stale, expired, matched };
}
