// Naming a difference between two leaf values: the patterns that have a cause worth a
// name (a hash in the other byte order, an amount counted twice) before plain `value`.

import { brief, shown, type Divergence } from "./divergence.js";

export interface Sides {
  left: string;
  right: string;
}

/** b is a reversed a (and the reversal actually changes something). */
export function isReversed(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n < 2 || b.length !== n) return false;
  let palindrome = true;
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[n - 1 - i]) return false;
    if (a[i] !== a[n - 1 - i]) palindrome = false;
  }
  return !palindrome;
}

// A character class and a length check rather than a repeated group: JSON-RPC answers
// carry hex strings of megabytes (raw blocks), and a group repeated that often exhausts
// the regex engine's backtracking stack.
const HEX = /^[0-9a-fA-F]+$/;

/** Two hex strings that spell the same bytes in opposite order (display-order hashes). */
export function isReversedHex(a: string, b: string): boolean {
  if (a.length < 4 || a.length % 2 !== 0 || a.length !== b.length || !HEX.test(a) || !HEX.test(b)) return false;
  return isReversed(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}

/** k when b = k·a, 1/k when a = k·b, for an integer k ≥ 2; undefined otherwise. */
export function multiplicityFactor(a: number | bigint, b: number | bigint): number | undefined {
  if (typeof a === "bigint" || typeof b === "bigint" || (Number.isInteger(a) && Number.isInteger(b))) {
    const x = BigInt(a);
    const y = BigInt(b);
    if (x === 0n || y === 0n || x < 0n !== y < 0n) return undefined;
    const [big, small] = (x < 0n ? -x : x) > (y < 0n ? -y : y) ? [x, y] : [y, x];
    if (big % small !== 0n) return undefined;
    const k = Number(big / small);
    if (k < 2) return undefined;
    return big === y ? k : 1 / k;
  }
  if (a === 0 || b === 0 || !Number.isFinite(a) || !Number.isFinite(b)) return undefined;
  const [big, small] = Math.abs(a) > Math.abs(b) ? [a, b] : [b, a];
  const k = big / small;
  if (!Number.isInteger(k) || k < 2 || small * k !== big) return undefined;
  return big === b ? k : 1 / k;
}

export function factorText(f: number): string {
  return f >= 1 ? `right is ${f} × left` : `left is ${Math.round(1 / f)} × right`;
}

/**
 * The divergence for two differing leaf values of the same type: bytes, strings,
 * numbers, 64-bit integers, booleans, enum numbers.
 */
export function classifyLeaf(path: string, s: Sides, a: unknown, b: unknown, what = "value"): Divergence {
  const base = { path, left: s.left, right: s.right, leftValue: shown(a), rightValue: shown(b) };
  if (a instanceof Uint8Array && b instanceof Uint8Array && isReversed(a, b)) {
    return { ...base, kind: "byte-order", detail: `${a.length}-byte ${what} in reversed byte order` };
  }
  if (typeof a === "string" && typeof b === "string" && isReversedHex(a, b)) {
    return { ...base, kind: "byte-order", detail: `hex string of ${a.length / 2} bytes in reversed byte order` };
  }
  if ((typeof a === "number" || typeof a === "bigint") && (typeof b === "number" || typeof b === "bigint")) {
    const f = multiplicityFactor(a, b);
    if (f !== undefined) return { ...base, kind: "multiplicity", factor: f, detail: `${factorText(f)} (${brief(a)} vs ${brief(b)})` };
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array && a.length !== b.length) {
    return { ...base, kind: "value", detail: `${what} of ${a.length} vs ${b.length} bytes` };
  }
  return { ...base, kind: "value", detail: `${brief(a)} vs ${brief(b)}` };
}
