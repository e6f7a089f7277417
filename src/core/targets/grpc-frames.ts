// gRPC length-prefixed framing: 1 flag byte, 4-byte big-endian length, payload.
// The reader is fed DATA chunks as they arrive (chunk boundaries have nothing to do with
// frame boundaries) and hands out each payload as a fresh copy, so a long stream never
// holds more than one partial frame and the caller decides what to keep.

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
      const header = this.take(FRAME_HEADER_BYTES);
      const flag = header[0]!;
      const length = new DataView(header.buffer, header.byteOffset, 5).getUint32(1, false);
      const where = `frame ${this.framesRead}`;
      if (flag === 1) {
        return this.fail("compressed", `${where}: compressed flag set but no compression was negotiated`);
      }
      if (flag !== 0) {
        return this.fail("malformed-frame", `${where}: invalid flag byte 0x${hex2(flag)} (expected 0x00)`);
      }
      if (length > this.maxMessageBytes) {
        return this.fail("too-large", `${where}: length prefix ${length} exceeds maxMessageBytes ${this.maxMessageBytes}`);
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
      return this.fail(
        "malformed-frame",
        `frame ${this.framesRead}: stream ended inside a frame header (${this.size} of ${FRAME_HEADER_BYTES} bytes)`,
      );
    }
    return undefined;
  }

  private fail(kind: FrameError["kind"], detail: string): FrameError {
    this.failed = { kind, detail };
    this.chunks = [];
    this.size = 0;
    return this.failed;
  }

  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = this.chunks[this.head]!;
      const avail = chunk.length - this.offset;
      const want = Math.min(avail, n - filled);
      out.set(chunk.subarray(this.offset, this.offset + want), filled);
      filled += want;
      this.offset += want;
      if (this.offset === chunk.length) {
        this.head++;
        this.offset = 0;
      }
    }
    this.size -= n;
    // Drop consumed chunks now and then rather than shifting on every frame.
    if (this.head > 64 || this.head === this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
    return out;
  }
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, "0");
}
