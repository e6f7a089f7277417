// The JSON-RPC half of the fault proxy (see fault-proxy.ts): an HTTP/1.1 server that
// forwards each POST to the upstream JSON-RPC server and relays or rewrites the answer.

import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { flatHeaders, type RuleBook } from "./fault-proxy.js";

interface Upstream {
  status: number;
  contentType: string;
  body: Buffer;
}

const HTML = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>";

export async function startJsonRpcProxy(upstreamUrl: string, book: RuleBook): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  // No keep-alive upstream: nothing of ours outlives a request.
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks)));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => undefined);
  });

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    let parsed: { method?: unknown; id?: unknown } = {};
    try {
      parsed = JSON.parse(body.toString("utf8")) as typeof parsed;
    } catch {
      // forwarded as it is; the upstream answers the parse error
    }
    const rpc = typeof parsed.method === "string" ? parsed.method : "";
    const headers = flatHeaders(req.headers);
    const rule = book.pick("jsonrpc", rpc, headers);
    const fault = rule?.transport === "jsonrpc" ? rule.fault : undefined;
    const entry = book.record({ transport: "jsonrpc", rpc, headers, ...(fault ? { fault: fault.kind } : {}), start: performance.now() });
    res.once("close", () => {
      entry.end = performance.now();
    });
    const json = (status: number, text: string | Buffer, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    switch (fault?.kind) {
      case "hang":
        return; // the client's deadline (or close()) ends it
      case "close-no-reply":
        req.socket.destroy();
        return;
      case "empty-200":
        return json(200, "");
      case "html-error-page":
        return json(fault.status, HTML, "text/html; charset=utf-8");
      case "html-200":
        return json(200, HTML, "text/html; charset=utf-8");
      case "invalid-json":
        return json(200, `{"jsonrpc":"2.0","id":${JSON.stringify(parsed.id ?? null)},"result":{"height":`);
      case "reset-mid-body": {
        const whole = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: parsed.id ?? null, result: "x".repeat(4096) }));
        res.writeHead(200, { "content-type": "application/json", "content-length": whole.length });
        res.write(whole.subarray(0, whole.length >> 1), () => {
          const t = setTimeout(() => {
            timers.delete(t);
            req.socket.destroy();
          }, 30);
          timers.add(t);
        });
        return;
      }
      case "oversized":
        return json(200, JSON.stringify({ jsonrpc: "2.0", id: parsed.id ?? null, result: "0".repeat(fault.bytes) }));
      case "deep-json":
        return json(200, `{"jsonrpc":"2.0","id":${JSON.stringify(parsed.id ?? null)},"result":${"[".repeat(fault.depth)}${"]".repeat(fault.depth)}}`);
      case "reflect-auth":
        return json(
          200,
          JSON.stringify({
            jsonrpc: "2.0",
            id: parsed.id ?? null,
            error: { code: -32600, message: `who are you? you sent authorization=${headers.authorization ?? ""}; headers ${JSON.stringify(headers)}` },
          }),
        );
      default:
        break;
    }
    const go = () => {
      forward(upstreamUrl, req, body, agent).then(
        (up) => {
          if (res.destroyed) return;
          if (fault?.kind === "wrong-id") return json(up.status, rewriteId(up.body), up.contentType);
          json(up.status, up.body, up.contentType);
        },
        () => req.socket.destroy(),
      );
    };
    if (fault?.kind === "delay") {
      const t = setTimeout(() => {
        timers.delete(t);
        go();
      }, fault.ms);
      timers.add(t);
    } else go();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

function forward(upstreamUrl: string, req: IncomingMessage, body: Buffer, agent: http.Agent): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(flatHeaders(req.headers))) {
      if (!["host", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(k)) headers[k] = v;
    }
    headers["content-length"] = String(body.length);
    const u = new URL(upstreamUrl);
    const out = http.request({ host: u.hostname, port: u.port, path: req.url ?? "/", method: "POST", headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    // Zebra's answer to a bad cookie is a closed connection: that reaches the client too.
    out.on("error", reject);
    out.end(body);
  });
}

/** The same answer for another request: only the id changes. */
function rewriteId(body: Buffer): Buffer {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { id?: unknown };
    parsed.id = typeof parsed.id === "number" ? parsed.id + 1000 : "not-your-request";
    return Buffer.from(JSON.stringify(parsed));
  } catch {
    return body;
  }
}
