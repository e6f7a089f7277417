// A JSON reader that keeps the text. JSON-RPC answers are compared by their bytes, so a
// parse that turns them into JavaScript values (JSON.parse) loses what matters: `300.0`
// and `3.00e2` become 300, `1e999999` becomes Infinity, the first of two `"result"` keys
// disappears. Here every value is a node that only records where its text is in the body;
// numbers and strings are read from that text when a comparison asks (json-values.ts).
//
// Bounded by construction: the reader is a loop with an explicit stack (no recursion, so
// no nesting exhausts the call stack), nodes live in typed arrays (13 bytes a value: a
// 16 MiB body holds at most 8 Mi values, 109 MB, about 165 MB while the arrays grow), a
// string is crossed by native searches (Buffer.indexOf), and containers nested deeper than
// `treeDepth` are checked for syntax but kept as one opaque DEEP node, so an answer nested
// millions of levels costs one byte per level while it is read and nothing after.
// What it accepts is RFC 8259 JSON, as JSON.parse does: lone surrogate escapes and
// duplicate keys are values the comparison reports, not syntax errors.

import { isUtf8 } from "node:buffer";

export const NULL = 0;
export const FALSE = 1;
export const TRUE = 2;
export const NUMBER = 3;
export const STRING = 4;
export const ARRAY = 5;
export const OBJECT = 6;
/** A container nested deeper than the tree keeps: its text is valid JSON, its insides have no nodes. */
export const DEEP = 7;
/** Flag on a STRING kind: the text holds backslash escapes. */
export const ESCAPED = 0x80;

export interface JsonTree {
  /** The body (a Buffer over the bytes given: ranges are read and compared without copies). */
  readonly bytes: Buffer;
  /** Number of nodes; node 0 is the root, children follow their container (pre-order). */
  readonly size: number;
  readonly kind: Uint8Array;
  /** Byte offset of the value's first byte (a string's opening quote). */
  readonly start: Uint32Array;
  /** One past its last byte. */
  readonly end: Uint32Array;
  /** The next sibling, or -1. An object's children alternate key (a STRING), value. */
  readonly next: Int32Array;
  /** Whether some container was nested deeper than the tree depth (see DEEP). */
  readonly deep: boolean;
}

/** A body that is not JSON: why, and at which byte (-1 when no one byte is to blame). */
export type JsonRead = { ok: true; tree: JsonTree } | { ok: false; offset: number; reason: string };

/** "reason at byte N", for a fault or a note. */
export function readError(r: { offset: number; reason: string }): string {
  return r.offset < 0 ? r.reason : `${r.reason} at byte ${r.offset}`;
}

/** The kind of node i without its flags. */
export function kindOf(t: JsonTree, i: number): number {
  return t.kind[i]! & 0x7f;
}

/** The first child of container i, or -1 when it is empty. */
export function firstChild(t: JsonTree, i: number): number {
  const k = kindOf(t, i);
  if (k !== ARRAY && k !== OBJECT) return -1;
  return i + 1 < t.size && t.start[i + 1]! < t.end[i]! ? i + 1 : -1;
}

/** The children of container i in order (an object's as key, value, key, value …). */
export function childrenOf(t: JsonTree, i: number): number[] {
  const out: number[] = [];
  for (let c = firstChild(t, i); c !== -1; c = t.next[c]!) out.push(c);
  return out;
}

/** An object's members in the order sent, duplicates included. */
export function membersOf(t: JsonTree, i: number): { key: number; value: number }[] {
  const kids = childrenOf(t, i);
  const out: { key: number; value: number }[] = [];
  for (let k = 0; k + 1 < kids.length; k += 2) out.push({ key: kids[k]!, value: kids[k + 1]! });
  return out;
}

/** Whether bytes [sa, ea) of `a` equal bytes [sb, eb) of `b`. Short ranges byte by byte: a call into Buffer.compare costs more than a small number's bytes. */
export function sameRange(a: Buffer, sa: number, ea: number, b: Buffer, sb: number, eb: number): boolean {
  const n = ea - sa;
  if (n !== eb - sb) return false;
  if (n > 16) return a.compare(b, sb, eb, sa, ea) === 0;
  for (let k = 0; k < n; k++) if (a[sa + k] !== b[sb + k]) return false;
  return true;
}

const WS = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

const LITERALS: [number, string, number][] = [
  [0x6e, "null", NULL],
  [0x74, "true", TRUE],
  [0x66, "false", FALSE],
];

// The scanners take a position and return the one after what they read, or -1 with the
// reason in `why` and the place in `whyAt`: the position stays a local of the reading
// loop, which keeps it in a register (a position shared with closures was 3× slower).
let why = "";
let whyAt = 0;
/** Set by scanString: whether the string it read held escapes. */
let escaped = 0;

function failAt(at: number, reason: string): number {
  why = reason;
  whyAt = at;
  return -1;
}

function skipWs(bytes: Uint8Array, pos: number): number {
  while (WS[bytes[pos]!] === 1) pos++;
  return pos;
}

/**
 * Where the next quote, backslash and control byte are at or after some position: found
 * by native searches (Buffer.indexOf, a regular expression over the body as latin1 text),
 * each advancing only forward, so a string of megabytes (a raw block's hex) is crossed at
 * memchr speed rather than byte by byte in JavaScript.
 */
interface Marks {
  body: Buffer;
  latin1?: string;
  quote: number;
  backslash: number;
  control: number;
}

const NONE_AHEAD = Number.MAX_SAFE_INTEGER;
const CONTROL = /[\x00-\x1f]/g;

function refresh(m: Marks, pos: number): void {
  if (m.quote < pos) {
    const q = m.body.indexOf(0x22, pos);
    m.quote = q < 0 ? NONE_AHEAD : q;
  }
  if (m.backslash < pos) {
    const b = m.body.indexOf(0x5c, pos);
    m.backslash = b < 0 ? NONE_AHEAD : b;
  }
  if (m.control < pos) {
    m.latin1 ??= m.body.toString("latin1");
    CONTROL.lastIndex = pos;
    m.control = CONTROL.exec(m.latin1)?.index ?? NONE_AHEAD;
  }
}

/** A string at pos (its opening quote). */
function scanString(m: Marks, pos: number): number {
  const bytes = m.body;
  escaped = 0;
  pos++;
  for (;;) {
    refresh(m, pos);
    const end = Math.min(m.quote, m.backslash);
    if (m.control < end) return failAt(m.control, "control character in a string");
    if (end === NONE_AHEAD) return failAt(bytes.length, "unterminated string");
    if (end === m.quote) return end + 1;
    pos = end;
    escaped = ESCAPED;
    const e = bytes[pos + 1];
    if (e === 0x75) {
      for (let h = 2; h < 6; h++) if (HEX[bytes[pos + h] ?? 0] !== 1) return failAt(pos, "bad \\u escape");
      pos += 6;
    } else if (e !== undefined && SIMPLE_ESCAPE[e] === 1) {
      pos += 2;
    } else {
      return failAt(pos, "bad escape");
    }
  }
}

function digits(bytes: Uint8Array, pos: number): number {
  while (bytes[pos]! >= 0x30 && bytes[pos]! <= 0x39) pos++;
  return pos;
}

/** A number at pos (a digit or "-"). */
function scanNumber(bytes: Uint8Array, pos: number): number {
  if (bytes[pos] === 0x2d) pos++;
  if (bytes[pos] === 0x30) pos++;
  else {
    const d = digits(bytes, pos);
    if (d === pos) return failAt(pos, "bad number");
    pos = d;
  }
  if (bytes[pos] === 0x2e) {
    const d = digits(bytes, pos + 1);
    if (d === pos + 1) return failAt(d, "bad number: no digit after the point");
    pos = d;
  }
  if (bytes[pos] === 0x65 || bytes[pos] === 0x45) {
    pos++;
    if (bytes[pos] === 0x2b || bytes[pos] === 0x2d) pos++;
    const d = digits(bytes, pos);
    if (d === pos) return failAt(d, "bad number: no digit in the exponent");
    pos = d;
  }
  return pos;
}

/** The nodes being written, in arrays that double as they fill (see mostNodes). */
interface Nodes {
  size: number;
  kind: Uint8Array;
  start: Uint32Array;
  end: Uint32Array;
  next: Int32Array;
}

const SEPARATOR = new Uint8Array(256);
for (const c of ",:[{") SEPARATOR[c.charCodeAt(0)] = 1;

/**
 * The most nodes the body can hold: one more than its commas, colons and opening brackets
 * (inside strings too, so never too few). The arrays double as they fill but never past
 * it: a 16 MiB body of 8 million values ends at 109 MB, not at twice that.
 */
function mostNodes(bytes: Uint8Array): number {
  let n = 1;
  for (let k = 0; k < bytes.length; k++) n += SEPARATOR[bytes[k]!]!;
  return n;
}

function grow(x: Nodes, most: number): void {
  const cap = Math.min(x.kind.length * 2, most);
  const copy = <T extends Uint8Array | Uint32Array | Int32Array>(a: T, b: T): T => {
    b.set(a);
    return b;
  };
  x.kind = copy(x.kind, new Uint8Array(cap));
  x.start = copy(x.start, new Uint32Array(cap));
  x.end = copy(x.end, new Uint32Array(cap));
  x.next = copy(x.next, new Int32Array(cap));
}

/**
 * Reads `bytes` as one JSON value (surrounding whitespace allowed). Containers nested more
 * than `treeDepth` levels become DEEP nodes. Never throws on any input.
 */
export function readJson(bytes: Uint8Array, treeDepth: number): JsonRead {
  const n = bytes.length;
  if (!isUtf8(bytes)) return { ok: false, offset: -1, reason: "the body is not valid UTF-8" };
  const body = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const marks: Marks = { body, quote: -1, backslash: -1, control: -1 };
  const most = mostNodes(bytes);
  const cap = Math.min(64, most);
  const x: Nodes = { size: 0, kind: new Uint8Array(cap), start: new Uint32Array(cap), end: new Uint32Array(cap), next: new Int32Array(cap) };
  // Open containers that have nodes (a DEEP one last, while below the tree depth), and the
  // last child of each, to link the next one to.
  const open: number[] = [];
  const lastChild: number[] = [];
  // Below the tree depth, only whether each open container is an object (1) or an array (0).
  let opaque: Uint8Array = new Uint8Array(64);
  let opaqueDepth = 0;
  let deep = false;
  const add = (k: number, s: number, e: number): number => {
    if (x.size === x.kind.length) grow(x, most);
    const i = x.size++;
    x.kind[i] = k;
    x.start[i] = s;
    x.end[i] = e;
    x.next[i] = -1;
    const top = lastChild.length - 1;
    if (top >= 0) {
      if (lastChild[top]! >= 0) x.next[lastChild[top]!] = i;
      lastChild[top] = i;
    }
    return i;
  };
  const fail = (at: number, reason: string): JsonRead => ({ ok: false, offset: Math.min(at, n), reason });
  const failed = (): JsonRead => fail(whyAt, why);

  let pos = 0;
  // One iteration reads one value (after its key, in an object), then what closes after it
  // and the comma before the next.
  let expectKey = false;
  for (;;) {
    pos = skipWs(bytes, pos);
    if (expectKey) {
      if (bytes[pos] !== 0x22) return fail(pos, "expected a string key");
      const s = pos;
      pos = scanString(marks, pos);
      if (pos < 0) return failed();
      if (opaqueDepth === 0) add(STRING | escaped, s, pos);
      pos = skipWs(bytes, pos);
      if (bytes[pos] !== 0x3a) return fail(pos, 'expected ":" after a key');
      pos = skipWs(bytes, pos + 1);
      expectKey = false;
    }
    if (pos >= n) return fail(pos, "unexpected end of the body");
    const c = bytes[pos]!;
    const s = pos;
    if (c === 0x7b || c === 0x5b) {
      const isObject = c === 0x7b;
      if (opaqueDepth === 0 && open.length < treeDepth) {
        open.push(add(isObject ? OBJECT : ARRAY, pos, pos));
        lastChild.push(-1);
      } else {
        if (opaqueDepth === 0) {
          deep = true;
          open.push(add(DEEP, pos, pos));
          lastChild.push(-1);
        }
        opaque = room(opaque, opaqueDepth);
        opaque[opaqueDepth++] = isObject ? 1 : 0;
        // A run of "[" (the shape of a nesting attack) is taken in one tight loop.
        while (!isObject && bytes[pos + 1] === 0x5b) {
          opaque = room(opaque, opaqueDepth);
          opaque[opaqueDepth++] = 0;
          pos++;
        }
      }
      pos = skipWs(bytes, pos + 1);
      if (bytes[pos] !== (isObject ? 0x7d : 0x5d)) {
        expectKey = isObject;
        continue;
      }
      // An empty container: closed below, as any other.
    } else if (c === 0x22) {
      pos = scanString(marks, pos);
      if (pos < 0) return failed();
      if (opaqueDepth === 0) add(STRING | escaped, s, pos);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      pos = scanNumber(bytes, pos);
      if (pos < 0) return failed();
      if (opaqueDepth === 0) add(NUMBER, s, pos);
    } else {
      const lit = LITERALS.find(([first]) => first === c);
      if (!lit || !matches(bytes, pos, lit[1])) return fail(pos, `unexpected ${describe(c)}`);
      pos += lit[1].length;
      if (opaqueDepth === 0) add(lit[2], s, pos);
    }
    // After a value (or at an empty container's closing bracket): close what ends here,
    // then a comma or the end of the body.
    for (;;) {
      pos = skipWs(bytes, pos);
      if (open.length === 0) {
        if (pos < n) return fail(pos, "unexpected data after the JSON value");
        const size = x.size;
        return {
          ok: true,
          tree: {
            bytes: body,
            size,
            kind: x.kind.subarray(0, size),
            start: x.start.subarray(0, size),
            end: x.end.subarray(0, size),
            next: x.next.subarray(0, size),
            deep,
          },
        };
      }
      const isObject = opaqueDepth > 0 ? opaque[opaqueDepth - 1] === 1 : x.kind[open[open.length - 1]!] === OBJECT;
      const b = bytes[pos];
      if (b === 0x2c) {
        pos++;
        expectKey = isObject;
        break;
      }
      if (b !== (isObject ? 0x7d : 0x5d)) return fail(pos, pos >= n ? "unexpected end of the body" : `expected "," or "${isObject ? "}" : "]"}"`);
      pos++;
      if (opaqueDepth > 0) {
        opaqueDepth--;
        // And a run of "]" closing arrays below the tree depth.
        while (opaqueDepth > 0 && bytes[pos] === 0x5d && opaque[opaqueDepth - 1] === 0) {
          opaqueDepth--;
          pos++;
        }
      }
      if (opaqueDepth === 0) {
        x.end[open.pop()!] = pos;
        lastChild.pop();
      }
    }
  }
}

/** `a`, or a copy twice its length when all `used` bytes of it are taken. */
function room(a: Uint8Array, used: number): Uint8Array {
  if (used < a.length) return a;
  const o = new Uint8Array(a.length * 2);
  o.set(a);
  return o;
}

function matches(bytes: Uint8Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

function describe(c: number): string {
  return c >= 0x21 && c < 0x7f ? JSON.stringify(String.fromCharCode(c)) : `byte 0x${c.toString(16).padStart(2, "0")}`;
}
