// Volatile fields: what a case declares not to compare. Removal is exact (only what a
// declared path names) and always recorded, so a report can say what was left out.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { appendIndex, appendSegment, parsePath, type Segment } from "./paths.js";

/** One field left out of the comparison. */
export interface Exclusion {
  /** The declared path that matched, as written in the case. */
  pattern: string;
  /** The concrete path removed, e.g. `[2].height`. */
  path: string;
  /** The value that was removed, in the JSON form; absent when there was none to show. */
  value?: JsonValue;
  /** Set when the declaration could not be applied, e.g. to an undecodable message. */
  note?: string;
}

export interface VolatilePattern {
  text: string;
  segments: Segment[];
}

/** Parses declared paths; throws PathSyntaxError on the first bad one, and on "". */
export function parseVolatile(paths: readonly string[]): VolatilePattern[] {
  return paths.map((text) => {
    const segments = parsePath(text);
    if (segments.length === 0) throw new Error("a volatile path must name a field; the empty path names the whole answer");
    return { text, segments };
  });
}

/** Marks an array element for removal; arrays are compacted after all patterns ran so
 * that every pattern's indexes refer to the answer as received. */
const REMOVED: JsonValue = Object.freeze({ $removed: true }) as unknown as JsonValue;

/**
 * Removes what the patterns name from `root` (mutating it) and returns what was removed.
 * `prefix` is prepended to recorded paths (a stream message's `[i]`). A pattern that
 * matches nothing removes nothing: a field absent from one answer is not an error.
 */
export function removeJsonPaths(root: JsonValue, patterns: readonly VolatilePattern[], prefix = ""): Exclusion[] {
  const out: Exclusion[] = [];
  let marked = false;
  for (const p of patterns) walk(root, p, 0, prefix);
  if (marked) compact(root);
  return out;

  function walk(node: JsonValue, p: VolatilePattern, i: number, path: string): void {
    const seg = p.segments[i]!;
    const last = i === p.segments.length - 1;
    if (seg.kind === "field" || seg.kind === "unknown") {
      if (!isObject(node)) return;
      let holder: JsonObject = node;
      let key: string;
      if (seg.kind === "unknown") {
        const u = node.$unknown;
        if (!isObject(u)) return;
        holder = u;
        key = String(seg.no);
      } else {
        key = seg.name;
      }
      if (!Object.hasOwn(holder, key)) return;
      const next = appendSegment(path, seg);
      if (last) {
        out.push({ pattern: p.text, path: next, value: holder[key] });
        delete holder[key];
        if (holder !== node && Object.keys(holder).length === 0) delete node.$unknown;
      } else {
        walk(holder[key]!, p, i + 1, next);
      }
      return;
    }
    if (seg.kind === "any" && isObject(node)) {
      // In a JSON body `[*]` is any key too: getrawmempool's verbose answer is keyed by txid.
      for (const key of Object.keys(node)) {
        const next = appendSegment(path, { kind: "field", name: key });
        if (!last) {
          walk(node[key]!, p, i + 1, next);
          continue;
        }
        out.push({ pattern: p.text, path: next, value: node[key] });
        delete node[key];
      }
      return;
    }
    if (!Array.isArray(node)) return;
    const indexes = seg.kind === "index" ? [seg.index] : node.map((_, k) => k);
    for (const k of indexes) {
      if (k >= node.length || node[k] === REMOVED) continue;
      const next = appendIndex(path, k);
      if (last) {
        out.push({ pattern: p.text, path: next, value: node[k] });
        node[k] = REMOVED;
        marked = true;
      } else {
        walk(node[k]!, p, i + 1, next);
      }
    }
  }
}

function compact(node: JsonValue): void {
  if (Array.isArray(node)) {
    let w = 0;
    for (let r = 0; r < node.length; r++) {
      if (node[r] === REMOVED) continue;
      compact(node[r]!);
      node[w++] = node[r]!;
    }
    node.length = w;
  } else if (isObject(node)) {
    for (const k of Object.keys(node)) compact(node[k]!);
  }
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The key under which a stream-relative pattern is recorded for message `i`. */
export function messagePrefix(streaming: boolean, i: number): string {
  return streaming ? appendIndex("", i) : "";
}
