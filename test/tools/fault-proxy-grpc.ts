// The gRPC half of the fault proxy (see fault-proxy.ts): an h2c server that forwards each
// call to the upstream gRPC server, reads the whole answer, and then either relays it as
// it came or rewrites it into the fault its rule names. Reading the answer first keeps
// every fault built from real messages (a cut stream carries the real first blocks).

import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { flatHeaders, type GrpcFault, type RuleBook } from "./fault-proxy.js";

const { NGHTTP2_INTERNAL_ERROR } = http2.constants;

/** Hop-by-hop headers HTTP/2 forbids or that describe the other connection. */
const HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "content-length"]);

interface Upstream {
  headers: http2.IncomingHttpHeaders;
  /** The answer was headers only (status in the HEADERS frame). */
  trailersOnly: boolean;
  data: Buffer;
  trailers?: http2.IncomingHttpHeaders;
}

export async function startGrpcProxy(upstreamUrl: string, book: RuleBook): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  let upstream: http2.ClientHttp2Session | undefined;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      f();
    }, ms);
    timers.add(t);
  };
  const upstreamSession = (): http2.ClientHttp2Session => {
    if (!upstream || upstream.destroyed || upstream.closed) {
      upstream = http2.connect(upstreamUrl);
      upstream.on("error", () => undefined);
    }
    return upstream;
  };

  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
    s.on("error", () => undefined);
  });
  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const path = String(headers[":path"] ?? "");
    const rpc = path.slice(path.lastIndexOf("/") + 1);
    const flat = flatHeaders(headers);
    const rule = book.pick("grpc", rpc, flat);
    const fault = rule?.transport === "grpc" ? rule.fault : undefined;
    const entry = book.record({ transport: "grpc", rpc, headers: flat, ...(fault ? { fault: fault.kind } : {}), start: performance.now() });
    stream.once("close", () => {
      entry.end = performance.now();
    });
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.once("end", () => {
      const body = Buffer.concat(chunks);
      if (fault?.kind === "hang") return; // the client's deadline (or close()) ends it
      if (fault?.kind === "reflect-auth") return reflect(stream, flat);
      const go = () => {
        forward(upstreamSession(), path, flat, body).then(
          (up) => {
            if (!stream.closed && !stream.destroyed) answer(stream, up, fault, later);
          },
          () => {
            if (!stream.closed) stream.close(NGHTTP2_INTERNAL_ERROR);
          },
        );
      };
      if (fault?.kind === "delay") later(fault.ms, go);
      else go();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sessions) s.destroy();
        upstream?.destroy();
        server.close(() => resolve());
      }),
  };
}

function forward(session: http2.ClientHttp2Session, path: string, headers: Record<string, string>, body: Buffer): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const out: http2.OutgoingHttpHeaders = { ":method": "POST", ":path": path };
    for (const [k, v] of Object.entries(headers)) if (!HOP.has(k)) out[k] = v;
    const req = session.request(out);
    const up: Upstream = { headers: {}, trailersOnly: false, data: Buffer.alloc(0) };
    const chunks: Buffer[] = [];
    req.on("response", (h, flags) => {
      up.headers = h;
      up.trailersOnly = (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0;
    });
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("trailers", (t) => {
      up.trailers = t;
    });
    req.on("error", reject);
    req.on("close", () => {
      if (req.rstCode && req.rstCode !== http2.constants.NGHTTP2_NO_ERROR) return reject(new Error(`upstream reset ${req.rstCode}`));
      up.data = Buffer.concat(chunks);
      resolve(up);
    });
    req.end(body);
  });
}

/** The payloads of a buffer of gRPC frames (the upstream's, which are well formed). */
function payloads(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at + 5 <= data.length; ) {
    const n = data.readUInt32BE(at + 1);
    out.push(data.subarray(at + 5, at + 5 + n));
    at += 5 + n;
  }
  return out;
}

function frame(payload: Uint8Array, flag = 0, length = payload.length): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out[0] = flag;
  out.writeUInt32BE(length, 1);
  Buffer.from(payload).copy(out, 5);
  return out;
}

function responseHeaders(h: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && (k === ":status" || !k.startsWith(":")) && !HOP.has(k)) out[k] = v;
  return out;
}

function trailerHeaders(h: http2.IncomingHttpHeaders | undefined): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined && !k.startsWith(":")) out[k] = v;
  return out;
}

const OK_HEADERS = { ":status": 200, "content-type": "application/grpc" };

/** Sends `data`, then the trailers (or nothing more when `trailers` is undefined). */
function send(stream: http2.ServerHttp2Stream, headers: http2.OutgoingHttpHeaders, data: Buffer, trailers: http2.OutgoingHttpHeaders | undefined): void {
  if (trailers && Object.keys(trailers).length > 0) {
    stream.respond(headers, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers(trailers));
  } else {
    stream.respond(headers);
  }
  stream.end(data);
}

function answer(stream: http2.ServerHttp2Stream, up: Upstream, fault: GrpcFault | undefined, later: (ms: number, f: () => void) => void): void {
  const messages = payloads(up.data);
  const first = messages[0] ?? Buffer.alloc(0);
  const status = { "grpc-status": "0" };
  switch (fault?.kind) {
    case undefined:
    case "delay":
      if (up.trailersOnly) return stream.respond(responseHeaders(up.headers), { endStream: true });
      return send(stream, responseHeaders(up.headers), up.data, trailerHeaders(up.trailers));
    case "reset-mid-stream":
    case "close-mid-stream": {
      // waitForTrailers: ending the stream must not send END_STREAM before the break.
      stream.respond(OK_HEADERS, { waitForTrailers: true });
      const sent = Buffer.concat(messages.slice(0, fault.afterMessages).map((m) => frame(m)));
      // Let the messages reach the client before the break, so it is a break mid-stream.
      stream.write(sent, () =>
        later(30, () => {
          if (fault.kind === "reset-mid-stream") stream.close(NGHTTP2_INTERNAL_ERROR);
          else stream.session?.destroy();
        }),
      );
      return;
    }
    case "malformed-frame":
      return send(stream, OK_HEADERS, frame(first, 0x80), status);
    case "lying-length":
      return send(stream, OK_HEADERS, frame(first, 0, first.length + 1000), status);
    case "compressed":
      return send(stream, OK_HEADERS, frame(first, 1), status);
    case "content-type":
      return send(stream, { ":status": 200, "content-type": fault.value }, Buffer.from("<html><body>Welcome to nginx!</body></html>"), undefined);
    case "http-status":
      return send(stream, { ":status": fault.status, "content-type": "text/html" }, Buffer.from("<html><body>502 Bad Gateway</body></html>"), undefined);
    case "oversized":
      return send(stream, OK_HEADERS, frame(Buffer.alloc(fault.bytes, 0x5a)), status);
    case "no-status":
      return send(stream, OK_HEADERS, up.data, undefined);
    case "garbage":
      // 0xff…: field 31, wire type 7, which no protobuf parser accepts.
      return send(stream, OK_HEADERS, frame(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f])), status);
    case "endless":
      return endless(stream, frame(first));
    case "hang":
    case "reflect-auth":
      return; // handled before forwarding
  }
}

/** The same frame again and again, as fast as the client reads, until it cancels. */
function endless(stream: http2.ServerHttp2Stream, f: Buffer): void {
  stream.respond(OK_HEADERS);
  const batch = Buffer.concat(Array.from({ length: 64 }, () => f));
  const pump = (): void => {
    while (!stream.closed && !stream.destroyed) {
      if (!stream.write(batch)) {
        stream.once("drain", pump);
        return;
      }
    }
  };
  pump();
}

/** A hostile server: the credentials it was sent come back in the status message. */
function reflect(stream: http2.ServerHttp2Stream, headers: Record<string, string>): void {
  const echoed = Object.entries(headers)
    .filter(([k]) => !["content-type", "te", "grpc-timeout", "user-agent", "grpc-accept-encoding"].includes(k))
    .map(([k, v]) => `${k}=${v}`)
    .join("; ");
  stream.respond(
    { ":status": 200, "content-type": "application/grpc", "grpc-status": "16", "grpc-message": encodeURIComponent(`who are you? you sent ${echoed}`) },
    { endStream: true },
  );
}
