// Why two JSON texts of equal values differ: the notes that make a JSON-RPC `encoding-only`
// divergence say what a client would see differently. A number spelled otherwise (`300`
// vs `300.0`: a serde `u32` rejects the second), a string or key escaped otherwise
// (`"\u0061"` vs `"a"`), an object's keys in another order, a key sent more than once
// (with what a first-wins and a last-wins parser read), or other whitespace.

import { colonOf, headOf, separatorBefore, tailOf } from "../canon/json-cut.js";
import { kindOf, OBJECT, sameRange, type JsonTree } from "../io/json-tree.js";
import { keptChildren, type CutNodes } from "../io/json-values.js";
import type { Divergence, JsonEncodingAspect } from "./divergence.js";
import type { Sides } from "./kinds.js";

export interface JsonEncodingNote {
  aspect: JsonEncodingAspect;
  path: string;
  /** What each side sent there (its text, or for key order the keys in order). */
  left: string;
  right: string;
  detail: string;
}

/** Notes shown one by one; past this many, one more divergence counts the rest. */
export const MAX_ENCODING_NOTES = 20;
/** Notes kept while walking; past this many only their aspects are counted (an answer of millions of items stays small). */
const KEPT_NOTES = 100;

/** Collects the notes of one comparison, keeping the first KEPT_NOTES and counting the rest. */
export function noteCollector() {
  const kept: JsonEncodingNote[] = [];
  const more = new Map<JsonEncodingAspect, number>();
  return {
    add(n: JsonEncodingNote): void {
      if (kept.length < KEPT_NOTES) kept.push(n);
      else more.set(n.aspect, (more.get(n.aspect) ?? 0) + 1);
    },
    /**
     * One `encoding-only` divergence per note (whitespace, a serializer-wide habit, as one
     * for the whole answer), at most MAX_ENCODING_NOTES and then one that counts the rest.
     */
    divergences(s: Sides): Divergence[] {
      const spaced = kept.filter((n) => n.aspect === "whitespace");
      const merged = kept.filter((n) => n.aspect !== "whitespace");
      const moreSpaced = more.get("whitespace") ?? 0;
      if (spaced.length > 0) {
        const others = spaced.length - 3 + moreSpaced;
        const where = spaced
          .slice(0, 3)
          .map((n) => n.path || "(top)")
          .join(", ");
        merged.push({
          aspect: "whitespace",
          path: "",
          left: spaced[0]!.left,
          right: spaced[0]!.right,
          detail: `other whitespace between tokens (in ${where}${others > 0 ? ` and ${others} more` : ""})`,
        });
      }
      const out: Divergence[] = merged.slice(0, MAX_ENCODING_NOTES).map((n) => ({
        kind: "encoding-only",
        path: n.path,
        left: s.left,
        right: s.right,
        leftValue: n.left,
        rightValue: n.right,
        encoding: n.aspect,
        detail: `equal values, different bytes: ${n.detail}`,
      }));
      const hidden = merged.slice(MAX_ENCODING_NOTES).map((n) => n.aspect);
      let count = hidden.length;
      for (const [aspect, n] of more) {
        if (aspect === "whitespace") continue;
        hidden.push(aspect);
        count += n;
      }
      if (count > 0) {
        out.push({
          kind: "encoding-only",
          path: "",
          left: s.left,
          right: s.right,
          detail: `equal values, different bytes: ${count} more encoding differences (${[...new Set(hidden)].join(", ")})`,
        });
      }
      return out;
    },
  };
}

/** A note for two spellings of one value. */
export function spellingNote(aspect: JsonEncodingAspect, path: string, left: string, right: string): JsonEncodingNote {
  const what = aspect === "number" ? "number spelled" : aspect === "key-escapes" ? "key escaped as" : "string escaped as";
  // Each side's text, cut at 1 KiB: a note is read, and a 16 MiB string is not.
  return { aspect, path, left: clip(left, 1024), right: clip(right, 1024), detail: `${what} ${clip(left)} vs ${clip(right)}` };
}

/** A text as sent, cut short for a detail line. */
export function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * A whitespace note when two containers with as many kept items are laid out differently:
 * their own bytes (brackets, commas, colons and the whitespace between them, not their
 * children's) compared range by range as the cut text has them (see json-cut.ts).
 */
export function whitespaceNote(path: string, ta: JsonTree, ia: number, cutA: CutNodes, tb: JsonTree, ib: number, cutB: CutNodes): JsonEncodingNote | undefined {
  const ka = keptChildren(ta, ia, cutA);
  const kb = keptChildren(tb, ib, cutB);
  if (ka.length !== kb.length) return undefined;
  const differ = (x: readonly [number, number], y: readonly [number, number]): JsonEncodingNote | undefined =>
    sameRange(ta.bytes, x[0], x[1], tb.bytes, y[0], y[1])
      ? undefined
      : {
          aspect: "whitespace",
          path,
          left: ta.bytes.toString("latin1", x[0], x[1]),
          right: tb.bytes.toString("latin1", y[0], y[1]),
          detail: "other whitespace",
        };
  const object = kindOf(ta, ia) === OBJECT;
  let note = differ(headOf(ta, ia), headOf(tb, ib));
  for (let k = 0; !note && k < ka.length; k++) {
    if (k > 0) note = differ(separatorBefore(ta, ka, k), separatorBefore(tb, kb, k));
    if (!note && object) note = differ(colonOf(ta, ka[k]!), colonOf(tb, kb[k]!));
  }
  return note ?? differ(tailOf(ta, ia), tailOf(tb, ib));
}
