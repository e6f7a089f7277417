// A cursor over bytes for decoding Zcash serializations. Slices are views (subarray),
// never copies. The "where" context (transaction index, part, item) is stored as plain
// fields and only turned into text when an error is thrown, so the hot path allocates
// nothing for error reporting.

/** Malformed input: `offset` is the byte position (from the start of the decoded buffer). */
export class DecodeError extends Error {
  readonly offset: number;
  readonly reason: string;
  constructor(offset: number, reason: string) {
    super(`offset ${offset}: ${reason}`);
    this.name = "DecodeError";
    this.offset = offset;
    this.reason = reason;
  }
}

/** Largest CompactSize zcashd accepts (MAX_SIZE, 32 MiB). */
export const MAX_COMPACT_SIZE = 0x02000000;

export class ByteReader {
  readonly buf: Uint8Array;
  pos: number;
  private readonly view: DataView;
  /** Index of the transaction being read, -1 outside transactions. */
  tx = -1;
  /** Part being read, e.g. "vin", "header", "orchard.actions". */
  part = "";
  /** Item index within the part, -1 when not in a list. */
  item = -1;

  constructor(buf: Uint8Array, pos = 0) {
    this.buf = buf;
    this.pos = pos;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  /** Sets the error-message context; cheap (no allocation). */
  at(part: string, item = -1): this {
    this.part = part;
    this.item = item;
    return this;
  }

  describe(field: string): string {
    let s = this.tx >= 0 ? `tx ${this.tx}` : "";
    if (this.part) s += (s ? " " : "") + this.part + (this.item >= 0 ? `[${this.item}]` : "");
    if (field) s += (s ? (this.part ? "." : " ") : "") + field;
    return s;
  }

  fail(reason: string, offset = this.pos): never {
    throw new DecodeError(offset, reason);
  }

  private need(n: number, field: string): void {
    if (this.pos + n > this.buf.length) {
      this.fail(`truncated reading ${this.describe(field)} (need ${n} bytes, ${this.buf.length - this.pos} left)`);
    }
  }

  u8(field: string): number {
    this.need(1, field);
    return this.buf[this.pos++]!;
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i32(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  i64(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** A view of the next n bytes. */
  bytes(n: number, field: string): Uint8Array {
    this.need(n, field);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  /** Bitcoin CompactSize; non-canonical encodings and values above MAX_COMPACT_SIZE are rejected. */
  compactSize(field: string): number {
    const start = this.pos;
    const first = this.u8(field);
    let v: number;
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      v = this.u16(field);
      if (v < 0xfd) this.fail(`non-canonical CompactSize ${v} reading ${this.describe(field)}`, start);
    } else if (first === 0xfe) {
      v = this.u32(field);
      if (v <= 0xffff) this.fail(`non-canonical CompactSize ${v} reading ${this.describe(field)}`, start);
    } else {
      const big = this.u64(field);
      if (big <= 0xffffffffn) this.fail(`non-canonical CompactSize ${big} reading ${this.describe(field)}`, start);
      this.fail(`CompactSize ${big} too large reading ${this.describe(field)}`, start);
    }
    if (v > MAX_COMPACT_SIZE) this.fail(`CompactSize ${v} too large reading ${this.describe(field)}`, start);
    return v;
  }

  /**
   * A CompactSize item count, checked against the bytes left so that a corrupt count
   * fails at once instead of allocating millions of entries.
   */
  count(field: string, minItemSize: number): number {
    const start = this.pos;
    const n = this.compactSize(field);
    if (n * minItemSize > this.buf.length - this.pos) {
      this.fail(`${this.describe(field)} is ${n} but only ${this.buf.length - this.pos} bytes are left (each item takes at least ${minItemSize})`, start);
    }
    return n;
  }

  /** CompactSize length followed by that many bytes (a script, a proof). */
  varBytes(field: string): Uint8Array {
    const start = this.pos;
    const n = this.compactSize(field);
    if (n > this.buf.length - this.pos) {
      this.fail(`truncated reading ${this.describe(field)} (length ${n}, ${this.buf.length - this.pos} bytes left)`, start);
    }
    return this.bytes(n, field);
  }
}
