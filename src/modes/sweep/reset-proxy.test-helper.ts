// Test tooling: an h2c pass-through in front of a gRPC server that resets GetBlockRange
// streams mid-way, streaming (not buffering) the upstream answer so that a long range is
// cut after a known number of response bytes. `resets` streams are cut; `Infinity`
// cuts every one. Loopback only.

import http2 from "node:http2";
import type { AddressInfo } from "node:net";

const HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "content-length"]);

export interface ResetProxy {
  url: string;
  /** GetBlockRange streams cut so far. */
  cut(): number;
  close(): Promise<void>;
}

export async function startResetProxy(upstreamUrl: string, o: { afterBytes: number; resets: number }): Promise<ResetProxy> {
  const server = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  const upstream = http2.connect(upstreamUrl);
  upstream.on("error", () => undefined);
  let cut = 0;
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
    s.on("error", () => undefined);
  });
  server.on("stream", (down, headers) => {
    down.on("error", () => undefined);
    const forward: http2.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(headers)) if (!k.startsWith(":") && !HOP.has(k)) forward[k] = v;
    const up = upstream.request({ ...forward, ":method": "POST", ":path": headers[":path"] });
    up.on("error", () => undefined);
    down.pipe(up);
    const cutThis = String(headers[":path"]).endsWith("/GetBlockRange") && cut < o.resets;
    if (cutThis) cut++;
    let sent = 0;
    up.on("response", (h) => {
      const out: http2.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(h)) if (!HOP.has(k) && k !== ":status") out[k] = v;
      if (!down.destroyed) down.respond({ ":status": h[":status"], ...out }, { waitForTrailers: true });
    });
    up.on("data", (chunk: Buffer) => {
      if (down.destroyed || down.closed) return;
      if (cutThis && sent + chunk.length >= o.afterBytes) {
        down.write(chunk.subarray(0, Math.max(0, o.afterBytes - sent)));
        sent = o.afterBytes;
        up.close(http2.constants.NGHTTP2_CANCEL);
        down.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
        return;
      }
      sent += chunk.length;
      down.write(chunk);
    });
    let trailers: http2.IncomingHttpHeaders = {};
    up.on("trailers", (t) => (trailers = t));
    down.on("wantTrailers", () => {
      const t: http2.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(trailers)) if (!k.startsWith(":")) t[k] = v;
      down.sendTrailers(t);
    });
    up.on("end", () => {
      if (!down.destroyed && !down.closed) down.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cut: () => cut,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => {
        if (upstream.closed) return resolve();
        upstream.close(() => resolve());
      });
      upstream.destroy();
      await closed;
    },
  };
}
