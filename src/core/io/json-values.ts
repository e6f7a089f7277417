// What the nodes of a JSON tree (json-tree.ts) hold, read from their text: a string's
// value, a number's exact value, and the two forms a value takes elsewhere. The exact
// key (`valueKey`) tells equal values from different ones without going through a
// double: `300`, `300.0` and `3.00e2` are one value, `300.0000000000000000001` another,
// and `1e999999` is a value like any other. The shown form (`shownValue`) is what reports
// print: a JSON value, whose numbers are numbers when a double spells them exactly and
// their literal text (a string) when it cannot (`1e999999`, 300-digit integers).

import { createHash } from "node:crypto";
import type { JsonValue } from "@bufbuild/protobuf";
import { ARRAY, ESCAPED, FALSE, firstChild, kindOf, membersOf, NULL, NUMBER, OBJECT, STRING, TRUE, type JsonTree } from "./json-tree.js";

/** Nodes a volatile declaration cut (see json-cut.ts); nothing below them is read. */
export type CutNodes = ReadonlySet<number>;
const NONE: CutNodes = new Set();

/** The node's text exactly as sent. */
export function textOf(t: JsonTree, i: number): string {
  return t.bytes.toString("utf8", t.start[i]!, t.end[i]!);
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** A string node's value. A `\ud800` escape stays the lone code unit it names. */
export function stringValue(t: JsonTree, i: number): string {
  const inner = t.bytes.toString("utf8", t.start[i]! + 1, t.end[i]! - 1);
  if ((t.kind[i]! & ESCAPED) === 0) return inner;
  let out = "";
  let from = 0;
  for (let at = inner.indexOf("\\"); at !== -1; at = inner.indexOf("\\", from)) {
    out += inner.slice(from, at);
    const e = inner[at + 1]!;
    if (e === "u") {
      out += String.fromCharCode(parseInt(inner.slice(at + 2, at + 6), 16));
      from = at + 6;
    } else {
      out += ESCAPES[e]!;
      from = at + 2;
    }
  }
  return out + inner.slice(from);
}

/**
 * A number literal's exact value as `[-]digits e exponent`, digits without leading or
 * trailing zeros: 300, 300.0 and 3.00e2 are all "3e2"; 0 and -0 are "0". Exponents of any
 * length are added as decimal text (BigInt parsing is quadratic in the digits).
 */
export function numberKey(text: string): string {
  const plain = plainIntegerKey(text);
  if (plain !== undefined) return plain;
  const m = numberParts(text);
  if (!m) return text;
  const frac = m[3] ?? "";
  const all = m[2]! + frac;
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 0x30) first++;
  if (first === all.length) return "0";
  let last = all.length;
  while (all.charCodeAt(last - 1) === 0x30) last--;
  const exponent = addSmall(m[4] ?? "0", all.length - last - frac.length);
  return `${m[1]}${all.slice(first, last)}e${exponent}`;
}

/**
 * A number literal's sign, integer digits, fraction digits and exponent, as a match of
 * -?\d+(\.\d+)?([eE][+-]?\d+)? would give them; read by a scan, since a regular
 * expression over a literal of millions of digits can run out of its backtracking stack.
 */
function numberParts(text: string): [string, string, string, string | undefined, string | undefined] | undefined {
  let k = 0;
  const digits = () => {
    const from = k;
    while (k < text.length && text.charCodeAt(k) >= 0x30 && text.charCodeAt(k) <= 0x39) k++;
    return k > from ? text.slice(from, k) : undefined;
  };
  const sign = text.charCodeAt(0) === 0x2d ? "-" : "";
  k = sign.length;
  const int = digits();
  if (int === undefined) return undefined;
  let frac: string | undefined;
  if (text.charCodeAt(k) === 0x2e) {
    k++;
    frac = digits();
    if (frac === undefined) return undefined;
  }
  let exp: string | undefined;
  if (text.charCodeAt(k) === 0x65 || text.charCodeAt(k) === 0x45) {
    k++;
    const expSign = text.charCodeAt(k) === 0x2b || text.charCodeAt(k) === 0x2d ? text[k++]! : "";
    const e = digits();
    if (e === undefined) return undefined;
    exp = expSign + e;
  }
  return k === text.length ? [text, sign, int, frac, exp] : undefined;
}

/** The key of a literal without fraction or exponent and of at most 15 digits (most numbers): no regular expression, no text arithmetic. */
function plainIntegerKey(text: string): string | undefined {
  const from = text.charCodeAt(0) === 0x2d ? 1 : 0;
  if (text.length - from > 15 || text.length === from) return undefined;
  let last = text.length;
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x30 || c > 0x39) return undefined;
    if (c !== 0x30) last = k + 1;
  }
  if (last === text.length && text.charCodeAt(from) !== 0x30) return `${text}e0`;
  if (text.charCodeAt(from) === 0x30) return text.length - from === 1 ? "0" : undefined;
  return `${text.slice(0, last)}e${text.length - last}`;
}

/** a + k for a decimal integer text a of any length and a small integer k. */
function addSmall(a: string, k: number): string {
  const neg = a.startsWith("-");
  let mag = a.replace(/^[+-]/, "").replace(/^0+(?=\d)/, "");
  if (mag.length <= 15) return String((neg ? -1 : 1) * Number(mag) + k);
  // |a| ≥ 10^15 > |k|: the sign stays a's, and only the last 15 digits (and a carry) change.
  const delta = neg ? -k : k;
  let head = mag.slice(0, -15);
  let low = Number(mag.slice(-15)) + delta;
  if (low >= 1e15) {
    low -= 1e15;
    head = stepDecimal(head, 1);
  } else if (low < 0) {
    low += 1e15;
    head = stepDecimal(head, -1);
  }
  mag = `${head}${String(low).padStart(15, "0")}`.replace(/^0+(?=\d)/, "");
  return `${neg ? "-" : ""}${mag}`;
}

/** A non-negative decimal text plus or minus one. */
function stepDecimal(d: string, by: 1 | -1): string {
  const carry = by === 1 ? "9" : "0";
  let i = d.length - 1;
  while (i >= 0 && d[i] === carry) i--;
  if (i < 0) return by === 1 ? `1${"0".repeat(d.length)}` : "0";
  const digit = String(Number(d[i]) + by);
  return `${d.slice(0, i)}${digit}${(by === 1 ? "0" : "9").repeat(d.length - i - 1)}`;
}

/** A number as reports show it: a JavaScript number when it spells the literal's exact value, else the literal. */
export function shownNumber(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) && numberKey(String(n)) === numberKey(text) ? n : text;
}

/** An object's members that were not cut, in the order sent. */
export function keptMembers(t: JsonTree, i: number, cut: CutNodes = NONE): { key: number; value: number }[] {
  return membersOf(t, i).filter((m) => !cut.has(m.value));
}

/**
 * A container's kept children: an array's items, or an object's values (each one's key is
 * the node before it), in the order sent. Four bytes each: an array of millions of items
 * costs no object per item.
 */
export function keptChildren(t: JsonTree, i: number, cut: CutNodes = NONE): Int32Array {
  const object = kindOf(t, i) === OBJECT;
  let n = 0;
  for (let c = firstChild(t, i); c !== -1; c = t.next[c]!) n++;
  const out = new Int32Array(object ? n >> 1 : n);
  let k = 0;
  for (let c = firstChild(t, i); c !== -1; c = t.next[c]!) {
    const value = object ? t.next[c]! : c;
    if (object) c = value;
    if (!cut.has(value)) out[k++] = value;
  }
  return out.subarray(0, k);
}

/** The value a last-wins reader (JSON.parse, serde_json's Value) takes for key `name` of object i, if any. */
export function lastMember(t: JsonTree, i: number, name: string, cut: CutNodes = NONE): number | undefined {
  let found: number | undefined;
  for (let k = firstChild(t, i); k !== -1 && t.next[k]! !== -1; k = t.next[t.next[k]!]!) {
    const v = t.next[k]!;
    if (!cut.has(v) && stringValue(t, k) === name) found = v;
  }
  return found;
}

/** Keys longer than this are replaced by their SHA-256: a key is compared, never shown. */
const HASHED_OVER = 64;

function hashed(text: string | Uint8Array): string {
  return `#${createHash("sha256").update(text).digest("base64")}`;
}

function bounded(text: string): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short texts need no count.
  return text.length * 3 <= HASHED_OVER || Buffer.byteLength(text) <= HASHED_OVER ? text : hashed(text);
}

/**
 * A value's key: equal for two values exactly when they are equal. Its form is RFC 8785's
 * layout (keys sorted by UTF-16 code units, no whitespace, strings as JSON.stringify writes
 * them) with numbers as numberKey writes them, and any part longer than 64 bytes replaced
 * by its SHA-256, so that a key is small and each node is keyed once (`memo`) whatever the
 * nesting: a 16 MiB string 250 arrays deep is hashed once, not copied at every level. A
 * repeated key counts by what parsers read: the first value (a first-wins parser) and the
 * last (a last-wins parser, JSON.parse): `{"a":1,"a":1.0}` is `{"a":1}`, `{"a":1,"a":2}`
 * is neither `{"a":1}` nor `{"a":2}`.
 */
export function valueKey(t: JsonTree, i: number, cut: CutNodes = NONE, memo: Map<number, string> = new Map()): string {
  // Only containers are remembered: a leaf's key costs no more to make than to look up.
  const kind = kindOf(t, i);
  if (kind !== ARRAY && kind !== OBJECT) return keyOf(t, i, cut, memo);
  const known = memo.get(i);
  if (known !== undefined) return known;
  const key = keyOf(t, i, cut, memo);
  memo.set(i, key);
  return key;
}

const DIGIT_KEYS = Array.from({ length: 10 }, (_, d) => numberKey(String(d)));

function keyOf(t: JsonTree, i: number, cut: CutNodes, memo: Map<number, string>): string {
  switch (kindOf(t, i)) {
    case NULL:
      return "null";
    case TRUE:
      return "true";
    case FALSE:
      return "false";
    case NUMBER: {
      // A one-digit number (the shape of an array of millions of them) without making its text.
      if (t.end[i]! - t.start[i]! === 1) return DIGIT_KEYS[t.bytes[t.start[i]!]! - 0x30]!;
      return bounded(numberKey(t.bytes.toString("latin1", t.start[i]!, t.end[i]!)));
    }
    case STRING: {
      // Without escapes the text is what JSON.stringify writes for the value.
      if ((t.kind[i]! & ESCAPED) === 0) return t.end[i]! - t.start[i]! <= HASHED_OVER ? textOf(t, i) : hashed(t.bytes.subarray(t.start[i]!, t.end[i]!));
      return bounded(JSON.stringify(stringValue(t, i)));
    }
    case ARRAY:
      return bounded(`[${Array.from(keptChildren(t, i, cut), (c) => valueKey(t, c, cut, memo)).join(",")}]`);
    case OBJECT: {
      const readings = new Map<string, { first: string; last: string }>();
      for (const m of keptMembers(t, i, cut)) {
        const k = valueKey(t, m.value, cut, memo);
        const name = stringValue(t, m.key);
        const seen = readings.get(name);
        if (seen) seen.last = k;
        else readings.set(name, { first: k, last: k });
      }
      const names = [...readings.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      // "|" cannot stand outside a string in a key: "1|2" reads 1 first and 2 last.
      return bounded(
        `{${names
          .map((n) => {
            const r = readings.get(n)!;
            return `${bounded(JSON.stringify(n))}:${r.first === r.last ? r.first : `${r.first}|${r.last}`}`;
          })
          .join(",")}}`,
      );
    }
    default:
      return bounded(textOf(t, i));
  }
}

/**
 * The value as reports show it (a repeated key shows its last value, as JSON.parse reads
 * it). With `budget`, at most that many values are shown: a container past it ends with
 * a string saying how many items (or, in an object, a "…" key saying how many members)
 * were left out, so that a divergence can show a value of any size.
 */
export function shownValue(t: JsonTree, i: number, cut: CutNodes = NONE, budget: { left: number } = { left: Infinity }): JsonValue {
  budget.left--;
  switch (kindOf(t, i)) {
    case NULL:
      return null;
    case TRUE:
      return true;
    case FALSE:
      return false;
    case NUMBER:
      return shownNumber(textOf(t, i));
    case STRING:
      return stringValue(t, i);
    case ARRAY: {
      const shown: JsonValue[] = [];
      let more = 0;
      for (let c = firstChild(t, i); c !== -1; c = t.next[c]!) {
        if (cut.has(c)) continue;
        if (budget.left > 0) shown.push(shownValue(t, c, cut, budget));
        else more++;
      }
      return more > 0 ? [...shown, `… ${more} more items`] : shown;
    }
    case OBJECT: {
      const shown: [string, JsonValue][] = [];
      let more = 0;
      // Children alternate key, value.
      for (let k = firstChild(t, i); k !== -1 && t.next[k]! !== -1; k = t.next[t.next[k]!]!) {
        const v = t.next[k]!;
        if (cut.has(v)) continue;
        if (budget.left > 0) shown.push([stringValue(t, k), shownValue(t, v, cut, budget)]);
        else more++;
      }
      if (more > 0) shown.push(["…", `${more} more members`]);
      // fromEntries defines each key as its own property, "__proto__" included.
      return Object.fromEntries(shown);
    }
    default:
      return textOf(t, i);
  }
}
