// Byte helpers. Hashes are kept in wire (internal) order everywhere; the reversed
// "display" hex that explorers and JSON-RPC show is produced only at the edges. Plain hex
// is the core's (core/io/hex.ts), handed on here so the codec's users find it beside the rest.

import { bytesToHex, hexToBytes } from "../../core/io/hex.js";

export { bytesToHex, HexError, hexToBytes } from "../../core/io/hex.js";

/** A reversed copy. */
export function reverseBytes(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0, j = bytes.length - 1; j >= 0; i++, j--) out[i] = bytes[j]!;
  return out;
}

/** Display hex (as explorers and JSON-RPC show a hash) of wire-order bytes. */
export function displayHex(wire: Uint8Array): string {
  return bytesToHex(reverseBytes(wire));
}

/** Wire-order bytes of a display-order hex hash. */
export function wireFromDisplay(hex: string): Uint8Array {
  return reverseBytes(hexToBytes(hex));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function isAllZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
