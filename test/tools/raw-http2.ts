// An HTTP/2 peer written frame by frame over node:net, for servers that break HTTP/2 in
// ways node:http2 itself would never let a server do: a DATA frame on stream 0, a header
// value declared at 1 GiB and fed through CONTINUATION frames, frames of another stream
// inside a header block. It reads the client preface and frames, answers SETTINGS and
// PING, and hands every request (a client HEADERS frame) to the attack, but for the first
// `answerFirst`, which get a plain UNIMPLEMENTED status (so a run's preflight reaches the
// server, and its cases meet the attack). Loopback only.

import type net from "node:net";
import { startTcpServer, type TcpServer } from "./tcp-server.js";

const PREFACE_BYTES = 24;
export const FRAME = { DATA: 0x0, HEADERS: 0x1, RST_STREAM: 0x3, SETTINGS: 0x4, PING: 0x6, GOAWAY: 0x7, CONTINUATION: 0x9 } as const;
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 } as const;

export function frame(type: number, flags: number, streamId: number, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** An HPACK integer with an n-bit prefix (RFC 7541 §5.1), the prefix's other bits set from `first`. */
function hpackInt(value: number, prefixBits: number, first = 0): Buffer {
  const max = (1 << prefixBits) - 1;
  if (value < max) return Buffer.from([first | value]);
  const out = [first | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** A header field literal without indexing, new name, no Huffman coding. */
export function literal(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0]), hpackInt(name.length, 7), Buffer.from(name), hpackInt(value.length, 7), Buffer.from(value)]);
}

/** `:status: 200` (static table index 8) and the gRPC content type. */
export const GRPC_RESPONSE_HEADERS = Buffer.concat([Buffer.from([0x88]), literal("content-type", "application/grpc")]);

/** The start of a literal header whose value is declared `valueBytes` long; the value itself is not included. */
export function longHeaderStart(name: string, valueBytes: number): Buffer {
  return Buffer.concat([Buffer.from([0]), hpackInt(name.length, 7), Buffer.from(name), hpackInt(valueBytes, 7)]);
}

export type Attack = (conn: net.Socket, streamId: number) => void;

export const ATTACKS: Record<string, Attack> = {
  "data-on-stream-0": (conn, id) => {
    conn.write(frame(FRAME.HEADERS, FLAG.END_HEADERS, id, GRPC_RESPONSE_HEADERS));
    conn.write(frame(FRAME.DATA, 0, 0, Buffer.from("not on any stream")));
  },
  "long-continuation": (conn, id) => {
    // A header value declared at 1 GiB, its bytes sent in CONTINUATION frames for as long
    // as the client reads them.
    conn.write(frame(FRAME.HEADERS, 0, id, Buffer.concat([Buffer.from([0x88]), longHeaderStart("x-long", 1 << 30)])));
    const chunk = frame(FRAME.CONTINUATION, 0, id, Buffer.alloc(16_384, 0x61));
    const pump = (): void => {
      while (!conn.destroyed) if (!conn.write(chunk)) return void conn.once("drain", pump);
    };
    pump();
  },
  "interleaved-header-block": (conn, id) => {
    conn.write(frame(FRAME.HEADERS, 0, id, GRPC_RESPONSE_HEADERS));
    conn.write(frame(FRAME.DATA, 0, id + 2, Buffer.from("another stream's frame inside the header block")));
    conn.write(frame(FRAME.CONTINUATION, FLAG.END_HEADERS, id, Buffer.alloc(0)));
  },
};

/** A trailers-only answer: status UNIMPLEMENTED. */
const UNIMPLEMENTED = Buffer.concat([GRPC_RESPONSE_HEADERS, literal("grpc-status", "12")]);

/** `halfOpen`: the client's FIN gets no answer, as from a stopped process (see tcp-server.ts). */
export async function startRawHttp2Peer(attack: Attack, o: { answerFirst?: number; halfOpen?: boolean } = {}): Promise<TcpServer> {
  let requests = 0;
  return startTcpServer(
    (conn) => {
      conn.write(frame(FRAME.SETTINGS, 0, 0));
      let buf = Buffer.alloc(0);
      let skip = PREFACE_BYTES;
      conn.on("data", (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        const n = Math.min(skip, buf.length);
        buf = buf.subarray(n);
        skip -= n;
        while (skip === 0 && buf.length >= 9) {
          const length = buf.readUIntBE(0, 3);
          if (buf.length < 9 + length) return;
          const [type, flags] = [buf[3]!, buf[4]!];
          const id = buf.readUInt32BE(5) & 0x7fffffff;
          const payload = buf.subarray(9, 9 + length);
          buf = buf.subarray(9 + length);
          if (type === FRAME.SETTINGS && !(flags & FLAG.ACK)) conn.write(frame(FRAME.SETTINGS, FLAG.ACK, 0));
          if (type === FRAME.PING && !(flags & FLAG.ACK)) conn.write(frame(FRAME.PING, FLAG.ACK, 0, payload));
          if (type !== FRAME.HEADERS) continue;
          if (++requests <= (o.answerFirst ?? 0)) conn.write(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, UNIMPLEMENTED));
          else attack(conn, id);
        }
      });
    },
    { halfOpen: o.halfOpen === true },
  );
}
