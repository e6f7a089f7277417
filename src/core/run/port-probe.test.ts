import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { haveOpenssl, selfSignedCert } from "../targets/self-signed.test-helper.js";
import { whatSpeaks } from "./port-probe.js";

type Closable = { close(): unknown; address(): AddressInfo | string | null; listen(port: number, host: string, cb: () => void): unknown };
const servers: Closable[] = [];
const sockets = new Set<net.Socket>();
let dir: string;

async function serve<T extends Closable>(s: T): Promise<URL> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  return new URL(`http://127.0.0.1:${(s.address() as AddressInfo).port}`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "zconform-port-probe-"));
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("what speaks on a port", () => {
  test("TLS, whatever it serves behind it", async () => {
    if (!haveOpenssl()) return;
    const { keyFile, certFile } = selfSignedCert(dir);
    const url = await serve(http2.createSecureServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }));
    expect(await whatSpeaks(url, { h2c: true })).toBe("tls");
  });

  test("an h2c server is what a gRPC call asks for: nothing to say", async () => {
    const url = await serve(http2.createServer());
    expect(await whatSpeaks(url, { h2c: true })).toBeUndefined();
  });

  test("HTTP/1.1 where gRPC was asked: not h2c, whether it answers a 400 or closes as Zebra does", async () => {
    const answers = await serve(http.createServer((_q, r) => r.end()));
    const closes = await serve(net.createServer((s) => s.destroy()));
    expect(await whatSpeaks(answers, { h2c: true })).toBe("not-h2c");
    expect(await whatSpeaks(closes, { h2c: true })).toBe("not-h2c");
    // A JSON-RPC call asked for HTTP/1.1: only TLS would be news.
    expect(await whatSpeaks(answers, { h2c: false })).toBeUndefined();
  });

  test("a port that says nothing tells nothing, and the look ends", async () => {
    const url = await serve(
      net.createServer((s) => {
        sockets.add(s);
        s.on("error", () => undefined);
      }),
    );
    expect(await whatSpeaks(url, { h2c: true })).toBeUndefined();
  }, 15_000);
});
