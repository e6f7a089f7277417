// Comparing two sequences (stream messages, repeated fields, JSON arrays) by item keys:
// is it the same items in another order, the same items k times over, some items
// missing or added? Items left unmatched are paired in order for a field-level look.

import type { Divergence } from "./divergence.js";
import { factorText, type Sides } from "./kinds.js";

export type SequenceOutcome =
  | { kind: "equal" }
  | { kind: "order"; firstMoved: number }
  | { kind: "multiplicity"; factor: number }
  | {
      kind: "differ";
      /** Unmatched items paired in order: [left index, right index]. */
      pairs: [number, number][];
      /** Unmatched left items with no partner (absent from right). */
      leftOnly: number[];
      /** Unmatched right items with no partner (added in right). */
      rightOnly: number[];
    };

/**
 * `similarity(i, j)` (optional) scores how alike left item i and right item j are when
 * they are not equal; unmatched items are then paired with their most similar partner
 * (e.g. the same transaction with a field removed), and items with no similar partner
 * stay left-only or right-only instead of being compared with a stranger. Without it, or
 * when nothing is similar at all, unmatched items are paired in order.
 */
export function compareSequences(a: readonly string[], b: readonly string[], similarity?: (i: number, j: number) => number): SequenceOutcome {
  let same = a.length === b.length;
  for (let i = 0; same && i < a.length; i++) same = a[i] === b[i];
  if (same) return { kind: "equal" };
  const ca = counts(a);
  const cb = counts(b);
  if (a.length === b.length && sameCounts(ca, cb, 1)) {
    let i = 0;
    while (a[i] === b[i]) i++;
    return { kind: "order", firstMoved: i };
  }
  if (a.length > 0 && b.length > 0 && a.length !== b.length) {
    const [long, short, cl, cs] = a.length > b.length ? [a, b, ca, cb] : [b, a, cb, ca];
    const k = long.length / short.length;
    if (Number.isInteger(k) && sameCounts(cs, cl, k)) return { kind: "multiplicity", factor: long === b ? k : 1 / k };
  }
  const left = unmatched(a, cb);
  const right = unmatched(b, ca);
  if (similarity) {
    const paired = pairBySimilarity(left, right, similarity);
    if (paired.pairs.length > 0) return { kind: "differ", ...paired };
  }
  const n = Math.min(left.length, right.length);
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) pairs.push([left[i]!, right[i]!]);
  return { kind: "differ", pairs, leftOnly: left.slice(n), rightOnly: right.slice(n) };
}

function pairBySimilarity(
  left: number[],
  right: number[],
  similarity: (i: number, j: number) => number,
): { pairs: [number, number][]; leftOnly: number[]; rightOnly: number[] } {
  const free = new Set(right);
  const pairs: [number, number][] = [];
  const leftOnly: number[] = [];
  for (const i of left) {
    let best: number | undefined;
    let score = 0;
    for (const j of free) {
      const sc = similarity(i, j);
      if (sc > score) [best, score] = [j, sc];
    }
    if (best === undefined) leftOnly.push(i);
    else {
      free.delete(best);
      pairs.push([i, best]);
    }
  }
  return { pairs, leftOnly, rightOnly: right.filter((j) => free.has(j)) };
}

function counts(keys: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Every key of `small` appears k times as often in `big`, and big has no other keys. */
function sameCounts(small: Map<string, number>, big: Map<string, number>, k: number): boolean {
  if (small.size !== big.size) return false;
  for (const [key, n] of small) if (big.get(key) !== n * k) return false;
  return true;
}

/** Indexes of `keys` that the other side's multiset cannot account for, in order. */
function unmatched(keys: readonly string[], other: Map<string, number>): number[] {
  const left = new Map(other);
  const out: number[] = [];
  keys.forEach((k, i) => {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(i);
  });
  return out;
}

/**
 * The sequence-level divergences of an outcome (order, multiplicity, count). Pairs are
 * left to the caller, which knows how to compare two items.
 */
export function sequenceDivergences(
  path: string,
  s: Sides,
  o: SequenceOutcome,
  na: number,
  nb: number,
  noun: string,
  /** How to name item i of each side in details (arrival indexes of a sorted stream). */
  label: (side: "left" | "right", i: number) => number = (_, i) => i,
): Divergence[] {
  const where = path === "" ? "" : ` of ${path}`;
  switch (o.kind) {
    case "equal":
      return [];
    case "order":
      return [
        { kind: "order", path, left: s.left, right: s.right, detail: `same ${na} ${noun}s${where} in another order (first difference at [${o.firstMoved}])` },
      ];
    case "multiplicity":
      return [
        {
          kind: "multiplicity",
          path,
          left: s.left,
          right: s.right,
          leftValue: na,
          rightValue: nb,
          factor: o.factor,
          detail: `every ${noun}${where} repeated: ${factorText(o.factor)} (${na} vs ${nb} ${noun}s)`,
        },
      ];
    case "differ": {
      if (na === nb) return [];
      const parts = [`${na} vs ${nb} ${noun}s${where}`];
      if (o.leftOnly.length > 0) parts.push(`right lacks left ${list(o.leftOnly.map((i) => label("left", i)))}`);
      if (o.rightOnly.length > 0) parts.push(`right adds ${list(o.rightOnly.map((i) => label("right", i)))}`);
      return [{ kind: "count", path, left: s.left, right: s.right, leftValue: na, rightValue: nb, detail: parts.join("; ") }];
    }
  }
}

function list(ix: number[]): string {
  const shown = ix
    .slice(0, 8)
    .map((i) => `[${i}]`)
    .join(" ");
  return ix.length > 8 ? `${shown} … (${ix.length})` : shown;
}
