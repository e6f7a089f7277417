// Hex text and bytes, the one pair of converters every layer uses: the core for anchors and
// unknown fields, the Zcash wing for blocks, transactions and hashes. Byte order is the
// caller's: this module never reverses (display-order hashes live in zcash/codec/bytes.ts).

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
