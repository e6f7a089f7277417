// How tight a ledger entry is. An entry must bound what it explains: by naming the cases
// it covers, or by a shape that gives both sides of the divergence (the reference's value
// and the build's), so that a different bug on the same method does not fall under it.
// Named cases are held to a run: each case an entry names must be one where it showed,
// so that a glob cannot reach cases the quirk does not show on.

import type { Case } from "../src/core/corpus/case.js";
import { glob } from "../src/core/corpus/glob.js";
import { appliesTo, type BuildIdentity } from "../src/core/ledger/classify.js";
import type { Quirk } from "../src/core/ledger/quirk.js";
import type { CaseResult } from "../src/core/results/result.js";

export function twoSidedShape(q: Quirk): boolean {
  const s = q.match.shape;
  return s !== undefined && ((s.from !== undefined && s.to !== undefined) || (s.fromType !== undefined && s.toType !== undefined) || s.factor !== undefined);
}

/** Entries that neither name their cases nor give both sides of their shape. */
export function unbounded(ledger: readonly Quirk[]): string[] {
  return ledger.filter((q) => q.match.cases === undefined && !twoSidedShape(q)).map((q) => q.id);
}

/** The corpus cases an entry names (through its transport, methods and case globs). */
export function statedCases(q: Quirk, cases: readonly Case[]): string[] {
  const m = q.match;
  if (m.cases === undefined) return [];
  return cases
    .filter(
      (c) =>
        (m.transport === undefined || m.transport === c.transport) &&
        (m.methods === undefined || m.methods.includes(c.method)) &&
        m.cases!.some((p) => glob(p, c.id)),
    )
    .map((c) => c.id);
}

/**
 * For each entry that names cases and applies to a build of the run: the named cases on
 * which it explained nothing. `exempt` lists entries whose named cases show elsewhere (on
 * real builds or other chains), each with why.
 */
export function unshownStatedCases(
  ledger: readonly Quirk[],
  cases: readonly Case[],
  results: readonly CaseResult[],
  builds: readonly BuildIdentity[],
  exempt: Readonly<Record<string, string>>,
): Record<string, string[]> {
  const shown = new Map<string, Set<string>>();
  for (const r of results)
    for (const d of r.divergences) {
      if (d.quirk === null) continue;
      if (!shown.has(d.quirk)) shown.set(d.quirk, new Set());
      shown.get(d.quirk)!.add(r.caseId);
    }
  const out: Record<string, string[]> = {};
  for (const q of ledger) {
    if (exempt[q.id] !== undefined || !builds.some((b) => appliesTo(q, b))) continue;
    const missing = statedCases(q, cases).filter((id) => !shown.get(q.id)?.has(id));
    if (missing.length > 0) out[q.id] = missing;
  }
  return out;
}

/** Case ids an entry names outright (no `*`) that are not in the corpus; ids of other runs (darkside, latency) aside. */
export function unknownNamedCases(ledger: readonly Quirk[], cases: readonly Case[]): Record<string, string[]> {
  const ids = new Set(cases.map((c) => c.id));
  const out: Record<string, string[]> = {};
  for (const q of ledger) {
    const unknown = (q.match.cases ?? []).filter((p) => !p.includes("*") && !p.startsWith("darkside/") && !p.startsWith("latency.") && !ids.has(p));
    if (unknown.length > 0) out[q.id] = unknown;
  }
  return out;
}
