// The mistakes people make in a config, each met with one plain line that says what
// happened and the fix: a scheme that is not what the server speaks (https:// to an h2c
// server, http:// to a TLS server), credentials the server refuses (JSON-RPC 401, a
// cookie Zebra closes the connection on), and a port where something else answers
// (JSON-RPC where gRPC should be, and the reverse, a web page). Servers of our own on
// loopback; the CLI in a child process, as a user runs it.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { haveOpenssl, selfSignedCert } from "../src/core/targets/self-signed.test-helper.js";
import { runCli } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

let fixture: FixtureNetwork;
let dir: TempDir;
let tlsGrpc: http2.Http2SecureServer | undefined;
let tlsJsonRpc: https.Server | undefined;
let unauthorized: http.Server;
let webPage: http.Server;

const url = (s: { address(): AddressInfo | string | null }, scheme = "http") => `${scheme}://127.0.0.1:${(s.address() as AddressInfo).port}`;
const listen = (s: http.Server | https.Server | http2.Http2SecureServer) => new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));

beforeAll(async () => {
  fixture = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir("zconform-messages-");
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", fixture.anchors));
  dir.write("wrong.cookie", "__cookie__:bm90IHRoZSByaWdodCB0b2tlbiBhdCBhbGwsIHNvcnJ5IQ==");
  unauthorized = http.createServer((_req, res) => res.writeHead(401, { "www-authenticate": "Basic" }).end());
  webPage = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html><body>It works!</body></html>"));
  await Promise.all([listen(unauthorized), listen(webPage)]);
  if (haveOpenssl()) {
    const { keyFile, certFile } = selfSignedCert(dir.path);
    const tls = { key: readFileSync(keyFile), cert: readFileSync(certFile) };
    tlsGrpc = http2.createSecureServer(tls, (_req, res) => res.end());
    tlsJsonRpc = https.createServer(tls, (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await Promise.all([listen(tlsGrpc), listen(tlsJsonRpc)]);
  } else if (process.env.CI === "true") {
    throw new Error("the openssl CLI is needed for the TLS scenarios");
  }
}, 60_000);

afterAll(async () => {
  for (const s of [unauthorized, webPage, tlsJsonRpc]) s?.closeAllConnections();
  for (const s of [unauthorized, webPage, tlsGrpc, tlsJsonRpc]) s?.close();
  await fixture?.close();
  dir?.remove();
});

interface Scenario {
  /** Who could not be checked, the line's words for what happened, and its fix. */
  side: string;
  what: string;
  fix: string;
  name: string;
  /** The build's endpoints as YAML flow mappings; the oracle's, when not the fixture's. */
  grpc?: string;
  jsonrpc?: string;
  oracle?: string;
  needsTls?: boolean;
}

const fixtureOracle = () => `{ url: "${fixture.jsonrpc}", cookieFile: "${fixture.cookie}" }`;

const SCENARIOS: [string, () => Scenario][] = [
  [
    "https:// to an h2c gRPC server",
    () => ({
      name: "tls-to-plain",
      grpc: `{ url: "${fixture.grpc.reference!.replace("http:", "https:")}" }`,
      side: "mine",
      what: "https:// to a server that does not speak TLS on this port",
      fix: "use http:// in the URL, or the server's TLS port",
    }),
  ],
  [
    "http:// to a TLS gRPC server",
    () => ({
      name: "plain-to-tls",
      grpc: `{ url: "${tlsGrpc ? url(tlsGrpc) : ""}" }`,
      needsTls: true,
      side: "mine",
      what: "http:// to a server that speaks TLS",
      fix: "use https:// in the URL",
    }),
  ],
  [
    "http:// to a TLS JSON-RPC oracle",
    () => ({
      name: "plain-to-tls-oracle",
      grpc: `{ url: "${fixture.grpc.reference!}" }`,
      oracle: `{ url: "${tlsJsonRpc ? url(tlsJsonRpc) : ""}/" }`,
      needsTls: true,
      side: "oracle",
      what: "http:// to a server that speaks TLS",
      fix: "use https:// in the URL",
    }),
  ],
  [
    "JSON-RPC credentials refused (401)",
    () => ({
      name: "unauthorized",
      jsonrpc: `{ url: "${url(unauthorized)}/", user: u, password: p }`,
      side: "mine",
      what: "credentials rejected (401)",
      fix: "check user/password, bearerToken or cookieFile",
    }),
  ],
  [
    "a cookie the node closes the connection on",
    () => ({
      name: "wrong-cookie",
      grpc: `{ url: "${fixture.grpc.reference!}" }`,
      oracle: `{ url: "${fixture.jsonrpc}", cookieFile: "${join(dir.path, "wrong.cookie")}" }`,
      side: "oracle",
      what: "connection closed with no reply",
      fix: "check the credentials: Zebra does this for a wrong or missing cookie",
    }),
  ],
  [
    "a gRPC URL at a JSON-RPC port",
    () => ({
      name: "grpc-at-jsonrpc",
      grpc: `{ url: "${fixture.jsonrpc.replace(/\/$/, "")}" }`,
      side: "mine",
      what: "not a gRPC server: it does not speak HTTP/2",
      fix: "check the port: it may be a JSON-RPC or web port",
    }),
  ],
  [
    "a JSON-RPC URL at a gRPC port",
    () => ({
      name: "jsonrpc-at-grpc",
      jsonrpc: `{ url: "${fixture.grpc.reference!}/" }`,
      side: "mine",
      what: "not a JSON-RPC server: it does not answer HTTP/1.1",
      fix: "check the port: it may be a gRPC port",
    }),
  ],
  [
    "a web page where JSON-RPC should be",
    () => ({
      name: "web-page",
      jsonrpc: `{ url: "${url(webPage)}/" }`,
      side: "mine",
      what: "something that is not JSON-RPC answers",
      fix: "check the URL's port and path: another service may be answering",
    }),
  ],
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

describe("a config mistake gets one plain line with the fix", () => {
  test.each(SCENARIOS)(
    "%s",
    async (_title, make) => {
      const s = make();
      if (s.needsTls && !tlsGrpc) return;
      const cfg = dir.write(
        `${s.name}.yaml`,
        [
          "chain: fixture",
          `oracle: { jsonrpc: ${s.oracle ?? fixtureOracle()} }`,
          "builds:",
          "  - name: mine",
          "    implementation: other",
          ...(s.grpc ? [`    grpc: ${s.grpc}`] : []),
          ...(s.jsonrpc ? [`    jsonrpc: ${s.jsonrpc}`] : []),
          "",
        ]
          .join("\n")
          .replace("user: u, password: p", 'user: me, password: "not-my-password"'),
      );
      const r = await runCli(["run", "-c", cfg, "--cases", join(dir.path, "cases")], 90_000);
      expect({ scenario: s.name, code: r.code }).toEqual({ scenario: s.name, code: 3 });
      // One line per side that could not be checked: what happened, on how many cases, the fix.
      const line = new RegExp(`^could not check ${s.side}: ${escapeRegExp(s.what)} on \\d+/\\d+ cases — .*; ${escapeRegExp(s.fix)}`, "m");
      expect(r.stdout).toMatch(line);
      // No OpenSSL internals (addresses, source files) on the terminal: the JSON report keeps them.
      expect(r.stdout + r.stderr).not.toMatch(/SSL routines|deps\/openssl|:error:[0-9A-F]{8}:/);
      // The preflight's line for that server names the same fix.
      const preflight = r.stdout.split("\n").find((l) => l.startsWith(`  preflight ${s.side}:`));
      expect(preflight).toContain(s.fix);
    },
    120_000,
  );
});
