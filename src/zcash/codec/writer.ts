// Growable little-endian byte writer, the inverse of ByteReader.

export class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  private len = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(initialCapacity);
    this.dv = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.len;
  }

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.dv.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.dv.setUint32(this.len, v >>> 0, true);
    this.len += 4;
    return this;
  }

  i32(v: number): this {
    this.ensure(4);
    this.dv.setInt32(this.len, v, true);
    this.len += 4;
    return this;
  }

  u64(v: bigint): this {
    this.ensure(8);
    this.dv.setBigUint64(this.len, v, true);
    this.len += 8;
    return this;
  }

  i64(v: bigint): this {
    this.ensure(8);
    this.dv.setBigInt64(this.len, v, true);
    this.len += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  /** Writes exactly n bytes, throwing if b has another length (fixed-size fields). */
  fixed(b: Uint8Array, n: number, what: string): this {
    if (b.length !== n) throw new RangeError(`${what} must be ${n} bytes, got ${b.length}`);
    return this.bytes(b);
  }

  compactSize(n: number): this {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`CompactSize must be a non-negative integer, got ${n}`);
    if (n < 0xfd) return this.u8(n);
    if (n <= 0xffff) return this.u8(0xfd).u16(n);
    if (n <= 0xffffffff) return this.u8(0xfe).u32(n);
    return this.u8(0xff).u64(BigInt(n));
  }

  varBytes(b: Uint8Array): this {
    return this.compactSize(b.length).bytes(b);
  }

  /** The written bytes without copying (valid until the next write). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  /** The written bytes (a copy trimmed to length). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
