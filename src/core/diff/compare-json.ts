// Comparing two JSON-RPC answers whose bytes differ (canon/jsonrpc.ts says which bytes):
// HTTP status, fault, error vs result and error codes, then the answers value by value as
// read from their text (shape, presence, arrays as sequences, leaves; numbers by their
// exact value, never through a double), and wherever values are equal but text is not,
// what differs in the encoding (json-encoding.ts). Both are reported: a ledger entry that
// explains a value divergence does not hide another encoding beside it.
//
// A key sent more than once is read both ways a parser can: when a first-wins and a
// last-wins reader take the same value on both sides it is an encoding difference,
// otherwise a value divergence that names both readings.

import type { JsonValue } from "@bufbuild/protobuf";
import { bytesEqual } from "../canon/index.js";
import type { AnswerMember, JsonRpcCanonical, JsonRpcOutcome } from "../canon/jsonrpc.js";
import { ARRAY, FALSE, kindOf, NULL, NUMBER, OBJECT, sameRange, STRING, TRUE, type JsonTree } from "../io/json-tree.js";
import { keptChildren, keptMembers, lastMember, numberKey, shownNumber, shownValue, stringValue, textOf, valueKey, type CutNodes } from "../io/json-values.js";
import { appendIndex, appendKey } from "../canon/paths.js";
import type { JsonRpcObservation } from "../targets/observation.js";
import { brief, type Divergence } from "./divergence.js";
import { clip, noteCollector, spellingNote, whitespaceNote } from "./json-encoding.js";
import { classifyLeaf, type Sides } from "./kinds.js";
import { compareSequences, sequenceDivergences } from "./sequence.js";

/** Value divergences listed for one comparison; past this, one more says how the rest was left out. */
export const MAX_JSON_DIVERGENCES = 1000;
/** Values a divergence shows of one side (see shownValue). */
const SHOWN_VALUES = 1000;

export function sameJsonRpcWire(a: JsonRpcObservation, b: JsonRpcObservation): boolean {
  return a.httpStatus === b.httpStatus && a.fault?.kind === b.fault?.kind && bytesEqual(a.body, b.body);
}

const TYPES: Record<number, string> = {
  [NULL]: "null",
  [TRUE]: "boolean",
  [FALSE]: "boolean",
  [NUMBER]: "number",
  [STRING]: "string",
  [ARRAY]: "array",
  [OBJECT]: "object",
};

/** One side of a comparison: its tree and what was cut from it. */
interface Side {
  t: JsonTree;
  cut: CutNodes;
  dirty: CutNodes;
  /** Objects whose key order is not compared. */
  unordered: CutNodes;
}

export function compareJsonRpc(a: JsonRpcCanonical, b: JsonRpcCanonical, s: Sides): Divergence[] {
  const out: Divergence[] = [];
  const d = (kind: Divergence["kind"], path: string, detail: string, leftValue?: JsonValue, rightValue?: JsonValue): void => {
    const x: Divergence = { kind, path, left: s.left, right: s.right, detail };
    if (leftValue !== undefined) x.leftValue = leftValue;
    if (rightValue !== undefined) x.rightValue = rightValue;
    out.push(x);
  };
  if (a.httpStatus !== b.httpStatus) {
    const okA = a.httpStatus >= 200 && a.httpStatus < 300;
    const okB = b.httpStatus >= 200 && b.httpStatus < 300;
    d(okA === okB ? (okA ? "value" : "error-code") : "error-vs-ok", "http.status", `HTTP ${a.httpStatus} vs ${b.httpStatus}`, a.httpStatus, b.httpStatus);
  }
  if (a.fault?.kind !== b.fault?.kind)
    d("value", "fault", `fault ${a.fault?.kind ?? "none"} vs ${b.fault?.kind ?? "none"}`, a.fault?.kind ?? null, b.fault?.kind ?? null);
  if (!a.tree || !b.tree) {
    if (!a.tree && !b.tree) {
      if (!bytesEqual(a.raw, b.raw)) d("value", "", `bodies are not JSON and differ (${a.raw.length} vs ${b.raw.length} bytes)`);
    } else {
      const side = a.tree ? "right" : "left";
      d("json-shape", "", `${side} body is not JSON (${(a.notJson ?? b.notJson)!})`);
    }
    return out;
  }
  const skip = new Set<string>();
  const oa = a.outcome;
  const ob = b.outcome;
  const code = (o: JsonRpcOutcome): JsonValue | undefined => (o.kind === "error" ? o.code : undefined);
  if ((oa.kind === "error") !== (ob.kind === "error")) {
    d("error-vs-ok", "error.code", `${outcomeText(oa)} vs ${outcomeText(ob)}`, code(oa), code(ob));
    skip.add("error").add("result");
  } else if (oa.kind === "error" && ob.kind === "error" && codeKey(a) !== codeKey(b)) {
    d("error-code", "error.code", `${outcomeText(oa)} vs ${outcomeText(ob)}`, oa.code, ob.code);
    skip.add("error.code");
  }
  const notes = noteCollector();
  const w = walker(
    { t: a.tree, cut: a.cut, dirty: a.dirty, unordered: a.unorderedKeys },
    { t: b.tree, cut: b.cut, dirty: b.dirty, unordered: b.unorderedKeys },
    s,
    out,
    notes,
    skip,
  );
  if (a.members && b.members) w.members(a.members, b.members, "", false);
  else if (!a.members && !b.members) w.node(0, 0, "");
  else d("json-shape", "", `${a.members ? "object" : TYPES[kindOf(a.tree, 0)]} vs ${b.members ? "object" : TYPES[kindOf(b.tree, 0)]}`);
  // The walk stops once past the limit: what is left is not looked at, let alone counted.
  if (out.length > MAX_JSON_DIVERGENCES) {
    out.length = MAX_JSON_DIVERGENCES;
    d("value", "", `more differences, not listed: a comparison lists at most ${MAX_JSON_DIVERGENCES}`);
  }
  out.push(...notes.divergences(s));
  return out;
}

/** The exact value of the error code both sides are judged by (the last `error` member's last `code`). */
function codeKey(c: JsonRpcCanonical): string | undefined {
  const t = c.tree!;
  const err = [...(c.members ?? [])].reverse().find((m) => m.name === "error");
  if (!err || kindOf(t, err.value) !== OBJECT) return undefined;
  const code = lastMember(t, err.value, "code", c.cut);
  return code === undefined ? undefined : valueKey(t, code, c.cut);
}

function outcomeText(o: JsonRpcOutcome): string {
  return o.kind === "error" ? `error ${brief(o.code)} ${brief(o.message, 60)}` : o.kind === "result" ? "a result" : "neither result nor error";
}

/** The walk over two answers: value divergences into `out`, encoding notes into `notes`. */
function walker(a: Side, b: Side, s: Sides, out: Divergence[], notes: ReturnType<typeof noteCollector>, skip: ReadonlySet<string>) {
  // Each node keyed once per comparison, however deep it sits.
  const memoA = new Map<number, string>();
  const memoB = new Map<number, string>();
  const keyA = (i: number) => valueKey(a.t, i, a.cut, memoA);
  const keyB = (j: number) => valueKey(b.t, j, b.cut, memoB);
  // A divergence shows at most SHOWN_VALUES values of each side: an answer of millions of items is not copied into it.
  const shownA = (i: number) => shownValue(a.t, i, a.cut, { left: SHOWN_VALUES });
  const shownB = (i: number) => shownValue(b.t, i, b.cut, { left: SHOWN_VALUES });
  const full = () => out.length > MAX_JSON_DIVERGENCES;
  const sameText = (i: number, j: number): boolean =>
    !a.dirty.has(i) && !b.dirty.has(j) && sameRange(a.t.bytes, a.t.start[i]!, a.t.end[i]!, b.t.bytes, b.t.start[j]!, b.t.end[j]!);

  function node(i: number, j: number, path: string): void {
    if (skip.has(path) || full() || sameText(i, j)) return;
    const ka = kindOf(a.t, i);
    const kb = kindOf(b.t, j);
    if (TYPES[ka] !== TYPES[kb]) {
      out.push({ kind: "json-shape", path, left: s.left, right: s.right, leftValue: shownA(i), rightValue: shownB(j), detail: `${TYPES[ka]} vs ${TYPES[kb]}` });
      return;
    }
    if (ka === OBJECT) {
      layout(i, j, path);
      const named = (t: JsonTree, k: number, cut: CutNodes) => keptMembers(t, k, cut).map((m) => ({ name: stringValue(t, m.key), ...m }));
      members(named(a.t, i, a.cut), named(b.t, j, b.cut), path, true, !a.unordered.has(i) && !b.unordered.has(j));
    } else if (ka === ARRAY) {
      array(i, j, path);
    } else if (ka === NUMBER) {
      const ta = textOf(a.t, i);
      const tb = textOf(b.t, j);
      if (numberKey(ta) !== numberKey(tb)) out.push(classifyLeaf(path, s, ...leafNumbers(ta, tb)));
      else notes.add(spellingNote("number", path, ta, tb));
    } else if (ka === STRING) {
      const va = stringValue(a.t, i);
      const vb = stringValue(b.t, j);
      if (va !== vb) out.push(classifyLeaf(path, s, va, vb));
      else notes.add(spellingNote("string-escapes", path, textOf(a.t, i), textOf(b.t, j)));
    } else if (ka !== kb) {
      out.push(classifyLeaf(path, s, ka === TRUE, kb === TRUE));
    }
  }

  function layout(i: number, j: number, path: string): void {
    const n = whitespaceNote(path, a.t, i, a.cut, b.t, j, b.cut);
    if (n) notes.add(n);
  }

  /**
   * Two objects' members (`inObject`), or the answers' top-level members: no key order or
   * key escapes there, they are the envelope's. `ordered`: the objects' key order is compared.
   */
  function members(ma: readonly AnswerMember[], mb: readonly AnswerMember[], path: string, inObject: boolean, ordered = inObject): void {
    const ga = byName(ma);
    const gb = byName(mb);
    const names = [...new Set([...ga.keys(), ...gb.keys()])].sort();
    for (const name of names) {
      const p = appendKey(path, name);
      if (skip.has(p) || full()) continue;
      const xa = ga.get(name);
      const xb = gb.get(name);
      if (!xb) {
        const v = shownA(xa!.at(-1)!.value);
        out.push({ kind: "missing-field", path: p, left: s.left, right: s.right, leftValue: v, detail: `right lacks ${p}, left has ${brief(v)}` });
        continue;
      }
      if (!xa) {
        const v = shownB(xb.at(-1)!.value);
        out.push({ kind: "extra-field", path: p, left: s.left, right: s.right, rightValue: v, detail: `right has ${p} = ${brief(v)}, left has none` });
        continue;
      }
      if (inObject) {
        const ka = textOf(a.t, xa[0]!.key);
        const kb = textOf(b.t, xb[0]!.key);
        if (ka !== kb) notes.add(spellingNote("key-escapes", p, ka, kb));
      }
      if (xa.length === 1 && xb.length === 1) {
        node(xa[0]!.value, xb[0]!.value, p);
        continue;
      }
      repeated(xa, xb, p);
    }
    if (!ordered) return;
    const common = (m: readonly AnswerMember[], other: Map<string, AnswerMember[]>) => [...new Set(m.map((x) => x.name))].filter((n) => other.has(n));
    const oa = common(ma, gb);
    const ob = common(mb, ga);
    if (oa.some((n, k) => n !== ob[k])) {
      const list = (ns: string[]) => ns.map((n) => JSON.stringify(n)).join(",");
      notes.add({ aspect: "key-order", path, left: list(oa), right: list(ob), detail: `keys in another order: ${clip(list(oa))} vs ${clip(list(ob))}` });
    }
  }

  /** A key sent more than once by either side. */
  function repeated(xa: AnswerMember[], xb: AnswerMember[], p: string): void {
    const fa = xa[0]!.value;
    const fb = xb[0]!.value;
    const la = xa.at(-1)!.value;
    const lb = xb.at(-1)!.value;
    const sameFirst = keyA(fa) === keyB(fb);
    const sameLast = keyA(la) === keyB(lb);
    const times = `sent ${xa.length} time${xa.length > 1 ? "s" : ""} on the left, ${xb.length} on the right`;
    if (sameFirst && sameLast) {
      const reading = brief(shownB(lb), 60);
      notes.add({
        aspect: "duplicate-key",
        path: p,
        left: String(xa.length),
        right: String(xb.length),
        detail: `key ${times}; a first-wins and a last-wins parser both read ${reading}`,
      });
      node(la, lb, p);
      return;
    }
    out.push({
      kind: "value",
      path: p,
      left: s.left,
      right: s.right,
      leftValue: shownA(la),
      rightValue: shownB(lb),
      detail: `key ${times}: a first-wins parser reads ${brief(shownA(fa))} on the left and ${brief(shownB(fb))} on the right, a last-wins parser ${brief(shownA(la))} and ${brief(shownB(lb))}`,
    });
  }

  function array(i: number, j: number, path: string): void {
    layout(i, j, path);
    const ia = keptChildren(a.t, i, a.cut);
    const ib = keptChildren(b.t, j, b.cut);
    const keysA = Array.from(ia, keyA);
    const keysB = Array.from(ib, keyB);
    const o = compareSequences(keysA, keysB);
    out.push(...sequenceDivergences(path, s, o, ia.length, ib.length, "item"));
    // Equal items can still differ in their text: those in the same place are paired first,
    // the others occurrence by occurrence (an array in another order).
    const takenB = new Uint8Array(ib.length);
    const leftA: number[] = [];
    for (let x = 0; x < ia.length; x++) {
      if (x < ib.length && keysA[x] === keysB[x]) {
        takenB[x] = 1;
        item(ia[x]!, ib[x]!, path, x);
      } else {
        leftA.push(x);
      }
    }
    const occurrences = new Map<string, { at: number[]; taken: number }>();
    if (leftA.length > 0) {
      keysB.forEach((k, y) => {
        if (takenB[y]) return;
        const seen = occurrences.get(k);
        if (seen) seen.at.push(y);
        else occurrences.set(k, { at: [y], taken: 0 });
      });
    }
    for (const x of leftA) {
      const seen = occurrences.get(keysA[x]!);
      if (seen && seen.taken < seen.at.length) item(ia[x]!, ib[seen.at[seen.taken++]!]!, path, x);
    }
    if (o.kind !== "differ") return;
    for (const [x, y] of o.pairs) {
      const before = out.length;
      item(ia[x]!, ib[y]!, path, x);
      if (x !== y) for (let k = before; k < out.length; k++) out[k]!.detail += ` (right item [${y}])`;
    }
  }

  /** Items of the same text are passed by before any path is made: a wide array costs no string per item. */
  function item(i: number, j: number, path: string, x: number): void {
    if (!sameText(i, j)) node(i, j, appendIndex(path, x));
  }

  return { node, members };
}

function byName(ms: readonly AnswerMember[]): Map<string, AnswerMember[]> {
  const m = new Map<string, AnswerMember[]>();
  for (const x of ms) {
    const list = m.get(x.name);
    if (list) list.push(x);
    else m.set(x.name, [x]);
  }
  return m;
}

const INTEGER = /^-?\d+$/;

/**
 * Two differing numbers as the leaf classifier reads them: integers of any size as bigints,
 * so that a factor between them is exact; otherwise as shown. BigInt parsing is quadratic,
 * so an integer of more than 400 digits is classified by its text.
 */
function leafNumbers(a: string, b: string): [number | bigint | string, number | bigint | string] {
  const shown: [number | string, number | string] = [shownNumber(a), shownNumber(b)];
  if (shown.every((x) => Number.isSafeInteger(x))) return shown;
  if (a.length <= 400 && b.length <= 400 && INTEGER.test(a) && INTEGER.test(b)) return [BigInt(a), BigInt(b)];
  return shown;
}
