// In-process servers for the target tests: a well-behaved connect-node gRPC server, raw
// HTTP/2 servers that misbehave on purpose, and helpers that shut them down without
// leaving handles (client sessions must be closed before server.close(), which otherwise
// waits for them).

import type { ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";

export interface TestServer {
  url: string;
  port: number;
  /** HTTP/2 sessions accepted so far. */
  sessionsOpened(): number;
  close(): Promise<void>;
}

type AnyHttp2Server = http2.Http2Server | http2.Http2SecureServer;

function track(server: AnyHttp2Server, scheme: "http" | "https"): Promise<TestServer> {
  const sessions = new Set<http2.ServerHttp2Session>();
  let opened = 0;
  server.on("session", (s) => {
    opened++;
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
    s.on("error", () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `${scheme}://127.0.0.1:${port}`,
        port,
        sessionsOpened: () => opened,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sessions) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** connect-node h2c server implementing part of CompactTxStreamer. */
export function startConnectServer(impl: Partial<ServiceImpl<typeof CompactTxStreamer>>): Promise<TestServer> {
  const handler = connectNodeAdapter({ routes: (r) => r.service(CompactTxStreamer, impl) });
  return track(http2.createServer({}, handler), "http");
}

export type RawHandler = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

/**
 * Raw HTTP/2 server: the handler writes whatever bytes and headers the test wants. The
 * request body is drained so flow control never stalls the client's send.
 */
export function startRawServer(handler: RawHandler, tls?: { key: Buffer; cert: Buffer }): Promise<TestServer> {
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert }) : http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    stream.resume();
    handler(stream, headers);
  });
  return track(server, tls ? "https" : "http");
}

/** A gRPC frame with any flag and any length prefix, for servers that lie. */
export function rawFrame(payload: Uint8Array, opts: { flag?: number; length?: number } = {}): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out[0] = opts.flag ?? 0;
  out.writeUInt32BE(opts.length ?? payload.length, 1);
  Buffer.from(payload).copy(out, 5);
  return out;
}

/** Response headers of a normal gRPC answer; wantTrailers so trailers can follow DATA. */
export function respondGrpc(stream: http2.ServerHttp2Stream, extra: http2.OutgoingHttpHeaders = {}): void {
  stream.respond({ ":status": 200, "content-type": "application/grpc", ...extra }, { waitForTrailers: true });
}

export function endWithStatus(stream: http2.ServerHttp2Stream, code: number, message?: string): void {
  stream.once("wantTrailers", () => {
    stream.sendTrailers(message === undefined ? { "grpc-status": String(code) } : { "grpc-status": String(code), "grpc-message": message });
  });
  stream.end();
}

/** Port with nothing listening: bind, read the port, close. */
export async function closedPort(): Promise<number> {
  const server = http2.createServer();
  const { port } = await new Promise<AddressInfo>((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address() as AddressInfo)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
