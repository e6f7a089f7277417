// The HTTP/2 frames that cross a session's socket, read from their 9-byte headers: which
// side sent each GOAWAY and RST_STREAM. node:http2 does not say. A stream the client's own
// HTTP/2 layer reset (a header over its limits: ENHANCE_YOUR_CALM) ends with the same
// rstCode as one the server reset, and when nghttp2 finds that the server broke HTTP/2
// (a DATA frame on stream 0, a header block interleaved with another stream's frames, a
// header value too long to decode) it sends GOAWAY and tells JavaScript nothing: the
// session stops reading and its streams wait for ever. Seeing the frames on the wire is
// the one way to name who ended what, and to end a broken connection at once.
//
// Only frame headers are parsed; DATA payloads are skipped where they lie, never copied.

import { Duplex } from "node:stream";
import type net from "node:net";

/** The client connection preface (RFC 9113 §3.4) that precedes the client's first frame. */
const CLIENT_PREFACE_BYTES = 24;
const FRAME_HEADER_BYTES = 9;
const TYPE_RST_STREAM = 0x3;
const TYPE_GOAWAY = 0x7;
/** GOAWAY debug data kept, enough for nghttp2's reasons ("DATA: stream_id == 0"). */
const MAX_DEBUG_BYTES = 256;
/** Resets remembered per direction; a long session forgets the oldest. */
const MAX_RESETS = 1024;

export interface GoawayFrame {
  code: number;
  lastStreamId: number;
  /** The debug data as text, control characters dropped. */
  debug: string;
}

export type ControlFrame = { type: "goaway"; goaway: GoawayFrame } | { type: "rst"; streamId: number; code: number };

/** Reads HTTP/2 frame headers from a byte stream fed chunk by chunk; reports GOAWAY and RST_STREAM. */
export class FrameScanner {
  private skip: number;
  private readonly header = Buffer.alloc(FRAME_HEADER_BYTES);
  private headerFill = 0;
  /** A control frame whose payload is being collected. */
  private control: { type: number; streamId: number; keep: number; parts: Buffer[]; kept: number; rest: number } | undefined;

  constructor(
    private readonly onFrame: (f: ControlFrame) => void,
    opts: { clientPreface?: boolean } = {},
  ) {
    this.skip = opts.clientPreface ? CLIENT_PREFACE_BYTES : 0;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.control) {
        at = this.collect(chunk, at);
        continue;
      }
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - at);
        this.skip -= n;
        at += n;
        continue;
      }
      const n = Math.min(FRAME_HEADER_BYTES - this.headerFill, chunk.length - at);
      chunk.copy(this.header, this.headerFill, at, at + n);
      this.headerFill += n;
      at += n;
      if (this.headerFill < FRAME_HEADER_BYTES) return;
      this.headerFill = 0;
      const length = this.header.readUIntBE(0, 3);
      const type = this.header[3]!;
      const streamId = this.header.readUInt32BE(5) & 0x7fffffff;
      if (type === TYPE_RST_STREAM || type === TYPE_GOAWAY) {
        const keep = Math.min(length, type === TYPE_GOAWAY ? 8 + MAX_DEBUG_BYTES : 4);
        this.control = { type, streamId, keep, parts: [], kept: 0, rest: length };
        if (length === 0) this.endControl();
      } else {
        this.skip = length;
      }
    }
  }

  private collect(chunk: Buffer, at: number): number {
    const c = this.control!;
    const n = Math.min(c.rest, chunk.length - at);
    const wanted = Math.min(n, c.keep - c.kept);
    if (wanted > 0) {
      c.parts.push(Buffer.from(chunk.subarray(at, at + wanted)));
      c.kept += wanted;
    }
    c.rest -= n;
    if (c.rest === 0) this.endControl();
    return at + n;
  }

  private endControl(): void {
    const c = this.control!;
    this.control = undefined;
    const p = Buffer.concat(c.parts);
    if (c.type === TYPE_RST_STREAM) {
      if (p.length === 4) this.onFrame({ type: "rst", streamId: c.streamId, code: p.readUInt32BE(0) });
      return;
    }
    if (p.length < 8) return;
    this.onFrame({ type: "goaway", goaway: { code: p.readUInt32BE(4), lastStreamId: p.readUInt32BE(0) & 0x7fffffff, debug: debugText(p.subarray(8)) } });
  }
}

/** What each side of one connection sent: GOAWAY and the RST_STREAM of each stream. */
export interface WireLog {
  readonly client: SideLog;
  readonly server: SideLog;
}

export interface SideLog {
  goaway?: GoawayFrame;
  /** RST_STREAM code by stream id (the most recent MAX_RESETS). */
  readonly resets: Map<number, number>;
}

/**
 * A socket seen through a FrameScanner each way: hand it to http2.connect as
 * `createConnection`. `onClientGoaway` hears every GOAWAY the client's HTTP/2 layer sends.
 */
export class WireWatch extends Duplex implements WireLog {
  readonly client: SideLog = { resets: new Map() };
  readonly server: SideLog = { resets: new Map() };
  private readonly out: FrameScanner;
  private readonly in: FrameScanner;

  constructor(
    private readonly socket: net.Socket,
    onClientGoaway: (g: GoawayFrame) => void,
  ) {
    super({ allowHalfOpen: false });
    this.out = new FrameScanner(
      (f) => {
        record(this.client, f);
        if (f.type === "goaway") onClientGoaway(f.goaway);
      },
      { clientPreface: true },
    );
    this.in = new FrameScanner((f) => record(this.server, f));
    socket.on("data", (chunk: Buffer) => {
      this.in.push(chunk);
      if (!this.push(chunk)) socket.pause();
    });
    socket.on("end", () => this.push(null));
    socket.on("error", (e) => this.destroy(e));
    socket.on("close", () => this.destroy());
  }

  /** The socket under the watch, for its connection state. */
  get underlying(): net.Socket {
    return this.socket;
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (e?: Error | null) => void): void {
    this.out.push(chunk);
    if (this.socket.write(chunk)) done();
    else this.socket.once("drain", () => done());
  }

  override _final(done: (e?: Error | null) => void): void {
    this.socket.end();
    done();
  }

  override _destroy(err: Error | null, done: (e?: Error | null) => void): void {
    this.socket.destroy();
    done(err);
  }
}

function record(side: SideLog, f: ControlFrame): void {
  if (f.type === "goaway") {
    side.goaway = f.goaway;
    return;
  }
  if (side.resets.size >= MAX_RESETS) side.resets.delete(side.resets.keys().next().value!);
  side.resets.set(f.streamId, f.code);
}

const H2_ERRORS: Record<number, string> = {
  0x0: "NO_ERROR",
  0x1: "PROTOCOL_ERROR",
  0x2: "INTERNAL_ERROR",
  0x3: "FLOW_CONTROL_ERROR",
  0x4: "SETTINGS_TIMEOUT",
  0x5: "STREAM_CLOSED",
  0x6: "FRAME_SIZE_ERROR",
  0x7: "REFUSED_STREAM",
  0x8: "CANCEL",
  0x9: "COMPRESSION_ERROR",
  0xa: "CONNECT_ERROR",
  0xb: "ENHANCE_YOUR_CALM",
  0xc: "INADEQUATE_SECURITY",
  0xd: "HTTP_1_1_REQUIRED",
};

/** RFC 9113 §7's name of an HTTP/2 error code. */
export function h2ErrorName(code: number): string {
  return H2_ERRORS[code] ?? `0x${code.toString(16)}`;
}

/** GOAWAY debug data as text: its first MAX_DEBUG_BYTES, control characters dropped. */
export function debugText(data: Uint8Array): string {
  // eslint-disable-next-line no-control-regex
  return Buffer.from(data.subarray(0, MAX_DEBUG_BYTES))
    .toString("latin1")
    .replace(/[\x00-\x1f\x7f-\x9f]/g, "");
}

/** "GOAWAY PROTOCOL_ERROR (DATA: stream_id == 0)" */
export function describeGoaway(g: GoawayFrame): string {
  return `GOAWAY ${h2ErrorName(g.code)}${g.debug ? ` (${g.debug})` : ""}`;
}

/** Why a connection is broken when node could not send one of its frames ('frameError'). */
/** How every frameNotSent reason begins. */
export const FRAME_NOT_SENT = "the client could not send an HTTP/2 frame";

export function frameNotSent(type: number, code: number): string {
  return `${FRAME_NOT_SENT} (type ${type}, error ${code}) to the server`;
}
