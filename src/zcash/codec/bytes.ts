// Byte and hex helpers. Hashes are kept in wire (internal) order everywhere; the
// reversed "display" hex that explorers and JSON-RPC show is produced only at the edges.

/** Thrown for text that is not a hex string; `position` is the 0-based character index. */
export class HexError extends Error {
  readonly position: number;
  constructor(position: number, reason: string) {
    super(`${reason} at character ${position}`);
    this.name = "HexError";
    this.position = position;
  }
}

function firstNonHex(hex: string, from: number): number {
  for (let i = from; i < hex.length; i++) {
    const c = hex.charCodeAt(i);
    const ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
    if (!ok) return i;
  }
  return -1;
}

/** Hex (either case) to bytes. Throws HexError naming the first bad character or the odd length. */
export function hexToBytes(hex: string): Uint8Array {
  // Buffer.from stops silently at the first pair that is not hex (and drops an odd last
  // digit), so a short result locates the problem; the common valid case costs one native pass.
  const buf = Buffer.from(hex, "hex");
  if (buf.length * 2 !== hex.length) {
    const at = firstNonHex(hex, buf.length * 2);
    if (at >= 0) throw new HexError(at, `not hex: ${JSON.stringify(hex[at])}`);
    throw new HexError(hex.length - 1, `odd number of hex digits (${hex.length})`);
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** Lowercase hex of the bytes as they are. */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

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
