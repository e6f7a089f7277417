// Volatile paths in a JSON-RPC body, cut from its text. A declared path removes the
// members or items it names (a repeated key: every occurrence) and nothing else: the bytes
// around them stay as the server sent them, so what is left is still compared byte for
// byte. A member or item goes with the separator after it (before it, when it was last).

import type { Exclusion, VolatilePattern } from "./volatile.js";
import { appendIndex, appendSegment } from "./paths.js";
import { ARRAY, childrenOf, firstChild, kindOf, membersOf, OBJECT, type JsonTree } from "../io/json-tree.js";
import { keptChildren, shownValue, stringValue, type CutNodes } from "../io/json-values.js";

/** Removed values larger than this are recorded by path alone: a report never needs their text. */
const SHOWN_EXCLUSION_BYTES = 64 * 1024;

export interface Cuts {
  /** Value nodes removed (an object member's key is the node before its value). */
  cut: CutNodes;
  /** Containers holding a removed node, whose text is rebuilt without it. */
  dirty: ReadonlySet<number>;
  excluded: Exclusion[];
}

/** What `patterns` remove from the value at node `root` (paths recorded from `prefix`). */
export function findCuts(t: JsonTree, root: number, patterns: readonly VolatilePattern[], prefix = ""): Cuts {
  const cut = new Set<number>();
  const dirty = new Set<number>();
  const excluded: Exclusion[] = [];
  walkPatterns(t, root, patterns, prefix, cut, (p, node, path, holders) => {
    const shown = t.end[node]! - t.start[node]! <= SHOWN_EXCLUSION_BYTES;
    excluded.push({ pattern: p.text, path, ...(shown ? { value: shownValue(t, node) } : {}) });
    cut.add(node);
    for (const h of holders) dirty.add(h);
  });
  return { cut, dirty, excluded };
}

/**
 * The objects `patterns` name whose members a server sends in no fixed order (see
 * keptText), less those a cut removed, and the containers holding one.
 */
export function findUnorderedKeys(t: JsonTree, root: number, patterns: readonly VolatilePattern[], cut: CutNodes): { objects: CutNodes; holders: CutNodes } {
  const objects = new Set<number>();
  const holders = new Set<number>();
  walkPatterns(t, root, patterns, "", cut, (_p, node, _path, outer) => {
    if (kindOf(t, node) !== OBJECT) return;
    objects.add(node);
    for (const h of outer) holders.add(h);
  });
  return { objects, holders };
}

/** Calls `found` for every node a pattern names under `root`, with its path and the containers above it; `gone` nodes are not entered. */
function walkPatterns(
  t: JsonTree,
  root: number,
  patterns: readonly VolatilePattern[],
  prefix: string,
  gone: CutNodes,
  found: (p: VolatilePattern, node: number, path: string, holders: readonly number[]) => void,
): void {
  const walk = (node: number, p: VolatilePattern, i: number, path: string, holders: number[]): void => {
    if (i === p.segments.length) {
      found(p, node, path, holders);
      return;
    }
    const seg = p.segments[i]!;
    const last = i === p.segments.length - 1;
    const inner = [...holders, node];
    const kind = kindOf(t, node);
    if (kind === OBJECT && seg.kind !== "index") {
      // In a JSON body `[*]` is any key too: getrawmempool's verbose answer is keyed by txid.
      const name = seg.kind === "field" ? seg.name : seg.kind === "unknown" ? "$unknown" : undefined;
      for (const m of membersOf(t, node)) {
        if (gone.has(m.value)) continue;
        const key = stringValue(t, m.key);
        if (name !== undefined && key !== name) continue;
        if (seg.kind === "unknown") {
          const no = String(seg.no);
          for (const u of kindOf(t, m.value) === OBJECT ? membersOf(t, m.value) : []) {
            if (!gone.has(u.value) && stringValue(t, u.key) === no && last) found(p, u.value, appendSegment(path, seg), [...inner, m.value]);
          }
          continue;
        }
        walk(m.value, p, i + 1, appendSegment(path, { kind: "field", name: key }), inner);
      }
      return;
    }
    if (kind !== ARRAY || (seg.kind !== "index" && seg.kind !== "any")) return;
    // Indexes refer to the answer as received, whatever other patterns removed.
    const items = childrenOf(t, node);
    const chosen = seg.kind === "index" ? (seg.index < items.length ? [seg.index] : []) : items.map((_, k) => k);
    for (const k of chosen) {
      const item = items[k]!;
      if (gone.has(item)) continue;
      walk(item, p, i + 1, appendIndex(path, k), inner);
    }
  };
  for (const p of patterns) walk(root, p, 0, prefix, []);
}

// Container i's own text (brackets, commas, colons and the whitespace between them) as
// the cut text keeps it: its head (up to its first child as sent), before each kept item
// but the first the separator that followed the previous kept item as sent, in an object
// the colon between each kept key and value, and its tail (after its last child as sent).
// Read from the kept children (keptChildren) and the tree's links: nothing is stored per item.

export function headOf(t: JsonTree, i: number): [number, number] {
  const first = firstChild(t, i);
  return [t.start[i]!, first === -1 ? t.end[i]! : t.start[first]!];
}

export function tailOf(t: JsonTree, i: number): [number, number] {
  let last = firstChild(t, i);
  if (last === -1) return [t.end[i]!, t.end[i]!];
  while (t.next[last]! !== -1) last = t.next[last]!;
  return [t.end[last]!, t.end[i]!];
}

/** The separator before kept item k ≥ 1: the one that followed kept item k - 1 as sent. */
export function separatorBefore(t: JsonTree, kept: Int32Array, k: number): [number, number] {
  const previous = kept[k - 1]!;
  return [t.end[previous]!, t.start[t.next[previous]!]!];
}

/** The colon (and whitespace) between an object member's key and its value `v`. */
export function colonOf(t: JsonTree, v: number): [number, number] {
  return [t.end[v - 1]!, t.start[v]!];
}

/**
 * The text of node i without what was cut, as byte ranges of the body (appended to `out`).
 * An object in `unordered` keeps its members' bytes in the order of their names (a
 * repeated name in the order sent), joined by plain commas: the order a server sent them
 * in, and the whitespace between them, are not part of the text.
 */
export function keptText(t: JsonTree, i: number, cuts: Pick<Cuts, "cut" | "dirty"> & { unordered?: CutNodes }, out: Uint8Array[] = []): Uint8Array[] {
  const slice = (r: readonly [number, number]) => t.bytes.subarray(r[0], r[1]);
  if (!cuts.dirty.has(i)) {
    out.push(slice([t.start[i]!, t.end[i]!]));
    return out;
  }
  const object = kindOf(t, i) === OBJECT;
  const sorted = object && cuts.unordered?.has(i) === true;
  const kept = sorted ? byName(t, keptChildren(t, i, cuts.cut)) : keptChildren(t, i, cuts.cut);
  out.push(slice(headOf(t, i)));
  kept.forEach((v, k) => {
    if (k > 0) out.push(sorted ? COMMA : slice(separatorBefore(t, kept, k)));
    // An object member: its key (the node before its value) and the colon.
    if (object) out.push(slice([t.start[v - 1]!, t.end[v - 1]!]), slice(colonOf(t, v)));
    keptText(t, v, cuts, out);
  });
  out.push(slice(tailOf(t, i)));
  return out;
}

const COMMA = new Uint8Array([0x2c]);

/** An object's member values in the order of their names; stable, so a repeated name keeps the order sent. */
function byName(t: JsonTree, values: Int32Array): Int32Array {
  const named = Array.from(values, (v) => ({ v, name: stringValue(t, v - 1) }));
  named.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return Int32Array.from(named, (x) => x.v);
}
