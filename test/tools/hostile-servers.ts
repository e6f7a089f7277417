// Servers that answer as an attacker would, to configure as builds beside a healthy one:
// gRPC streams that never end, a length prefix of 4 GiB, and JSON-RPC bodies of any size.
// Each writes only as fast as the client reads (HTTP/2 and TCP flow control), so the
// test process itself stays small while the client under test is flooded.

import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

export type GrpcHostility =
  /** Every rpc answers an endless stream of messages of `messageBytes`. */
  | { kind: "endless"; messageBytes: number; onlyRpc?: string }
  /** Every rpc answers a frame header claiming 4 GiB - 1 bytes, then bytes forever. */
  | { kind: "huge-prefix" };

export type JsonRpcHostility =
  /** Every call answers a well-formed reply whose body is `bodyBytes` long. */
  { kind: "large-body"; bodyBytes: number };

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

/** Sends `chunk` over and over until the peer goes away; honours backpressure. */
function flood(write: (b: Buffer) => boolean, onDrain: (f: () => void) => void, gone: () => boolean, chunk: Buffer): void {
  const pump = (): void => {
    while (!gone()) {
      if (!write(chunk)) return onDrain(pump);
    }
  };
  pump();
}

function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

export async function startHostileGrpc(h: GrpcHostility): Promise<HostileServer> {
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const rpc = String(headers[":path"] ?? "")
      .split("/")
      .pop();
    if (h.kind === "endless" && h.onlyRpc !== undefined && rpc !== h.onlyRpc) {
      stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
      return;
    }
    stream.respond({ ":status": 200, "content-type": "application/grpc" });
    const gone = () => stream.destroyed || stream.closed;
    const onDrain = (f: () => void) => stream.once("drain", f);
    if (h.kind === "huge-prefix") {
      const header = Buffer.from([0, 0xff, 0xff, 0xff, 0xff]);
      stream.write(header);
      flood((b) => stream.write(b), onDrain, gone, Buffer.alloc(64 * 1024, 0xab));
      return;
    }
    // A field-1 bytes value fills the message, so it is a valid protobuf of that size.
    const payload = Buffer.alloc(h.messageBytes, 0x5a);
    const chunk = frame(payload);
    flood((b) => stream.write(b), onDrain, gone, h.messageBytes < 4096 ? Buffer.concat(Array.from({ length: 64 }, () => chunk)) : chunk);
  });
  server.on("sessionError", () => undefined);
  const open = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    open.add(s);
    s.on("close", () => open.delete(s));
    s.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // Open sessions would keep close() waiting for ever.
        for (const s of open) s.destroy();
      }),
  };
}

export async function startHostileJsonRpc(h: JsonRpcHostility): Promise<HostileServer> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (s: string) => (body += s));
    req.on("end", () => {
      let id: unknown = 1;
      try {
        id = (JSON.parse(body) as { id: unknown }).id;
      } catch {
        // answer anyway
      }
      const prefix = Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":"`);
      const suffix = Buffer.from(`"}`);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(h.bodyBytes) });
      res.on("error", () => undefined);
      res.write(prefix);
      let left = h.bodyBytes - prefix.length - suffix.length;
      const block = Buffer.alloc(1024 * 1024, 0x61);
      const pump = (): void => {
        while (left > 0) {
          if (res.destroyed) return;
          const n = Math.min(left, block.length);
          left -= n;
          if (!res.write(block.subarray(0, n))) return void res.once("drain", pump);
        }
        res.end(suffix);
      };
      pump();
    });
  });
  server.on("clientError", () => undefined);
  return listening(server);
}

/** An HTTP server on a free loopback port; closing it ends the connections it still holds. */
export async function listening(server: http.Server): Promise<HostileServer> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** `\u`-escapes every character: JSON that decodes to `s` without containing it. */
export function unicodeEscaped(s: string): string {
  return s
    .split("")
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("");
}

/** Everything secret-looking a request carried: header values, credentials, query values. */
function carried(req: http.IncomingMessage): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value !== "string" || ["host", "content-type", "content-length", "accept", "connection"].includes(name)) continue;
    out.push(value);
    const [scheme, token] = value.split(" ");
    if (scheme === "Basic" && token) {
      const [user, ...password] = Buffer.from(token, "base64").toString("utf8").split(":");
      out.push(user!, password.join(":"));
    }
    if (scheme === "Bearer" && token) out.push(token);
  }
  for (const [, v] of new URL(req.url ?? "/", "http://x").searchParams) out.push(v);
  return out;
}

/**
 * A JSON-RPC server that answers every call with what the request carried, in every
 * spelling a leak could take: as sent, `\u`-escaped in the raw body, percent-encoded,
 * upper-case hex, and base64 at byte offsets 0, 1 and 2.
 */
export async function startEchoJsonRpc(): Promise<HostileServer> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (s: string) => (body += s));
    req.on("end", () => {
      let id: unknown = 1;
      try {
        id = (JSON.parse(body) as { id: unknown }).id;
      } catch {
        // answer anyway
      }
      const members = carried(req).flatMap((v) => [
        JSON.stringify(`plain ${v}`),
        `"escaped ${unicodeEscaped(v)}"`,
        JSON.stringify(`url ${encodeURIComponent(v)}`),
        JSON.stringify(`HEX ${Buffer.from(v).toString("hex").toUpperCase()}`),
        ...["", "x", "xy"].map((pre) => JSON.stringify(`b64 ${Buffer.from(`${pre}${v}!`).toString("base64")}`)),
      ]);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":[${members.join(",")}]}`);
    });
  });
  return listening(server);
}
