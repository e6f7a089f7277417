// gRPC length-prefixed framing: 1 flag byte, 4-byte big-endian length, payload.
// The reader is fed DATA chunks as they arrive (chunk boundaries have nothing to do with
// frame boundaries) and reads each frame where it lies: a payload inside one chunk is
// handed out as a view of that chunk (nothing copied), one that spans chunks as a fresh
// copy. A long stream never holds more than one partial frame. Views are safe because
// nothing writes to a chunk once it was pushed (node:http2 gives every socket read its
// own memory); a view keeps its chunk's memory alive, so a caller that keeps payloads
// for long copies them (see grpc-stream.ts).

import type { FaultKind } from "./observation.js";

export const FRAME_HEADER_BYTES = 5;

export interface FrameError {
  kind: Extract<FaultKind, "malformed-frame" | "compressed" | "too-large">;
  detail: string;
}

export function isFrameError(x: Uint8Array | FrameError | undefined): x is FrameError {
  return x !== undefined && !(x instanceof Uint8Array);
}

/** One uncompressed frame around a payload. */
export function encodeFrame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER_BYTES + payload.length);
  new DataView(out.buffer).setUint32(1, payload.length, false);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

export class FrameReader {
  private chunks: Uint8Array[] = [];
  private head = 0; // index into chunks of the first unread chunk
  private offset = 0; // read position inside chunks[head]
  private size = 0; // unread bytes in total
  private pendingLength = -1; // payload length of the frame whose header was consumed
  private framesRead = 0;
  private failed: FrameError | undefined;

  constructor(private readonly maxMessageBytes: number) {}

  /** Bytes received but not yet handed out (a partial frame). */
  get buffered(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0 || this.failed) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  /**
   * The next complete payload, an error that ends the stream, or undefined when more
   * bytes are needed. After an error every call returns the same error.
   */
  next(): Uint8Array | FrameError | undefined {
    if (this.failed) return this.failed;
    if (this.pendingLength < 0) {
      if (this.size < FRAME_HEADER_BYTES) return undefined;
      // The header is read where it lies; only a header split across chunks is walked
      // byte by byte.
      const chunk = this.chunks[this.head]!;
      const at = this.offset;
      let flag: number;
      let length: number;
      if (chunk.length - at >= FRAME_HEADER_BYTES) {
        flag = chunk[at]!;
        length = ((chunk[at + 1]! << 24) | (chunk[at + 2]! << 16) | (chunk[at + 3]! << 8) | chunk[at + 4]!) >>> 0;
        this.skip(FRAME_HEADER_BYTES);
      } else {
        flag = this.byte();
        length = ((this.byte() << 24) | (this.byte() << 16) | (this.byte() << 8) | this.byte()) >>> 0;
      }
      if (flag === 1) {
        return this.fail("compressed", `frame ${this.framesRead}: compressed flag set but no compression was negotiated`);
      }
      if (flag !== 0) {
        return this.fail("malformed-frame", `frame ${this.framesRead}: invalid flag byte 0x${hex2(flag)} (expected 0x00)`);
      }
      if (length > this.maxMessageBytes) {
        return this.fail("too-large", `frame ${this.framesRead}: length prefix ${length} exceeds maxMessageBytes ${this.maxMessageBytes}`);
      }
      this.pendingLength = length;
    }
    if (this.size < this.pendingLength) return undefined;
    const payload = this.take(this.pendingLength);
    this.pendingLength = -1;
    this.framesRead++;
    return payload;
  }

  /** Call once the stream has ended: leftover bytes mean the last frame was cut short. */
  finish(): FrameError | undefined {
    if (this.failed) return this.failed;
    if (this.pendingLength >= 0) {
      return this.fail(
        "malformed-frame",
        `frame ${this.framesRead}: stream ended after ${this.size} of ${this.pendingLength} payload bytes (length prefix lies or frame truncated)`,
      );
    }
    if (this.size > 0) {
      return this.fail("malformed-frame", `frame ${this.framesRead}: stream ended inside a frame header (${this.size} of ${FRAME_HEADER_BYTES} bytes)`);
    }
    return undefined;
  }

  private fail(kind: FrameError["kind"], detail: string): FrameError {
    this.failed = { kind, detail };
    this.chunks = [];
    this.head = 0;
    this.offset = 0;
    this.size = 0;
    return this.failed;
  }

  /** One byte; the caller made sure it is there. */
  private byte(): number {
    const b = this.chunks[this.head]![this.offset]!;
    this.skip(1);
    return b;
  }

  /** Consumes n bytes that lie inside the current chunk. */
  private skip(n: number): void {
    this.offset += n;
    this.size -= n;
    if (this.offset === this.chunks[this.head]!.length) this.advance();
  }

  private advance(): void {
    this.head++;
    this.offset = 0;
    // Drop consumed chunks now and then rather than shifting on every frame.
    if (this.head > 64 || this.head === this.chunks.length) {
      this.chunks = this.head === this.chunks.length ? [] : this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  private take(n: number): Uint8Array {
    const chunk = this.chunks[this.head];
    if (n === 0 || chunk === undefined) return new Uint8Array(0);
    if (chunk.length - this.offset >= n) {
      const view = chunk.subarray(this.offset, this.offset + n);
      this.skip(n);
      return view;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const c = this.chunks[this.head]!;
      const want = Math.min(c.length - this.offset, n - filled);
      out.set(c.subarray(this.offset, this.offset + want), filled);
      filled += want;
      this.offset += want;
      this.size -= want;
      if (this.offset === c.length) this.advance();
    }
    return out;
  }
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}
