// A JSON-RPC server that answers with another server's answers, some of them rewritten:
// the same values in another encoding, a made-up value before the real one, numbers and
// strings no JavaScript value holds, bodies nested millions of levels. Every request is
// forwarded (with its credentials) to the upstream; `rewrite` sees the call and the
// upstream's body and returns the body to send instead, or undefined to relay it.

import http from "node:http";
import { listening, type HostileServer } from "./hostile-servers.js";

export interface Call {
  method: string;
  /** The params as the request spelled them (JSON text), to match a case exactly. */
  params: string;
  id: unknown;
}

export type Rewrite = (call: Call, upstreamBody: string) => string | Buffer | undefined;

export async function startJsonRewriter(upstream: string, rewrite: Rewrite): Promise<HostileServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = Buffer.concat(chunks);
      const parsed = JSON.parse(request.toString("utf8")) as { method: string; params?: unknown; id: unknown };
      const call = { method: parsed.method, params: JSON.stringify(parsed.params ?? []), id: parsed.id };
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      fetch(upstream, { method: "POST", headers, body: request }).then(
        async (up) => {
          const text = await up.text();
          const body = up.status === 200 ? (rewrite(call, text) ?? text) : text;
          res.writeHead(up.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
          res.end(body);
        },
        () => req.socket.destroy(),
      );
    });
  });
  server.on("clientError", () => undefined);
  return listening(server);
}

/** The upstream's body with its result's text replaced: `"result":<text>` (an envelope's own order kept). */
export function withResult(body: string, replace: (resultText: string) => string): string {
  const at = body.indexOf('"result":');
  if (at < 0) throw new Error(`no result member in ${body.slice(0, 200)}`);
  const start = at + '"result":'.length;
  // The fixture writes the result last: everything up to the body's closing brace.
  const end = body.lastIndexOf("}");
  return `${body.slice(0, start)}${replace(body.slice(start, end))}${body.slice(end)}`;
}
