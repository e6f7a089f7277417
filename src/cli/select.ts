// Narrowing the corpus from the command line: --case and --method patterns. A filter that
// selects nothing is a mistake to report (with the nearest names), never an empty run
// that passes.

import type { Case } from "../core/corpus/case.js";
import { glob } from "../core/corpus/glob.js";

export interface CaseFilter {
  case?: string[];
  method?: string[];
}

/** A filter that names no case or no method of the corpus. */
export class SelectionError extends Error {}

/** Edit distance: how far a typo is from a real name. */
function distance(x: string, y: string): number {
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length]!;
}

/** The up to three names nearest to `wanted`. */
export function nearest(wanted: string, names: Iterable<string>): string[] {
  return (
    [...new Set(names)]
      // Case matters least: GetBlok is nearer getblock than GetBlockRange, and nearest GetBlock.
      .map((n) => ({ n, d: distance(wanted.toLowerCase(), n.toLowerCase()), exact: distance(wanted, n) }))
      .sort((a, b) => a.d - b.d || a.exact - b.exact || (a.n < b.n ? -1 : 1))
      .slice(0, 3)
      .map((x) => x.n)
  );
}

const didYouMean = (names: string[]) => (names.length > 0 ? ` (did you mean ${names.join(", ")}?)` : "");
const nameOf = (id: string) => id.slice(id.lastIndexOf("/") + 1);

/**
 * The cases a --case pattern selects. A pattern without a "/" may be a bare case name
 * (`at-5` for `GetBlock/at-5`): it selects a case whose name it matches when that
 * name is unique across methods; otherwise it lists the candidates.
 */
function byCasePattern(cases: readonly Case[], pattern: string): Case[] {
  const exact = cases.filter((c) => glob(pattern, c.id));
  if (exact.length > 0 || pattern.includes("/")) return exact;
  const named = cases.filter((c) => glob(pattern, nameOf(c.id)));
  if (named.length > 1 && !pattern.includes("*")) {
    throw new SelectionError(`--case ${pattern}: ${named.length} cases have this name; pick one: ${named.map((c) => c.id).join(", ")}`);
  }
  return named;
}

export function selectCases(cases: readonly Case[], f: CaseFilter): Case[] {
  const methods = new Set(f.method ?? []);
  const known = new Set(cases.map((c) => c.method));
  for (const m of methods) {
    if (!known.has(m)) throw new SelectionError(`--method ${m}: no case of this method in the corpus${didYouMean(nearest(m, known))}`);
  }
  const inMethods = cases.filter((c) => methods.size === 0 || methods.has(c.method));
  const patterns = f.case ?? [];
  if (patterns.length === 0) return inMethods;
  const chosen = new Set<Case>();
  for (const p of patterns) {
    const hits = byCasePattern(inMethods, p);
    if (hits.length === 0) {
      const among = methods.size > 0 ? ` of ${[...methods].join(", ")}` : "";
      // A bare name is compared with case names, a full pattern with ids; ids are shown.
      const key = (c: Case) => (p.includes("/") ? c.id : nameOf(c.id));
      const names = nearest(p, inMethods.map(key))
        .flatMap((n) => inMethods.filter((c) => key(c) === n).map((c) => c.id))
        .slice(0, 3);
      throw new SelectionError(`--case ${p}: no case${among} matches${didYouMean(names)}`);
    }
    hits.forEach((c) => chosen.add(c));
  }
  return inMethods.filter((c) => chosen.has(c));
}
