// A server's text reaches the terminal shown, never obeyed. Servers of our own plant
// escape sequences in every field a run prints: LightdInfo's chain name, version,
// protocol version and node, a gRPC status message, a JSON-RPC error message, an invalid
// JSON body, a value that differs, getblockchaininfo's chain. They carry a window title
// (ESC ] 0 ; … BEL), a screen clear (ESC [ 2 J), an OSC 8 link, a forged "could not
// check" line after CR LF, a bidi override and a C1 control. Whatever the run prints, on
// stdout or stderr, holds none of them raw; each shows as an escape.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { LightdInfoSchema } from "../src/zcash/gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { runCli } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

const FORGED = "could not check nothing: all is well";
const HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\" + `\r\n${FORGED}\u202eevil\u009b2J`;
/** Every character a terminal obeys; a line feed only where zconform puts one. */
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

let fixture: FixtureNetwork;
let dir: TempDir;
let grpc: http2.Http2Server;
let jsonrpc: http.Server;
let oracle: http.Server;

function frame(payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** A gRPC build whose LightdInfo and error messages are hostile. */
function hostileGrpc(): http2.Http2Server {
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const rpc = String(headers[":path"]).split("/").pop();
    if (rpc === "GetLightdInfo") {
      const info = create(LightdInfoSchema, {
        chainName: HOSTILE,
        version: `v1.0.0${HOSTILE}`,
        vendor: HOSTILE,
        lightwalletProtocolVersion: HOSTILE,
        zcashdSubversion: `/Zebra:7.0.0${HOSTILE}/`,
        blockHeight: 10n,
      });
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(frame(toBinary(LightdInfoSchema, info)));
      return;
    }
    // grpc-message is percent-encoded on the wire and decoded by the client: any byte gets through.
    stream.respond(
      { ":status": 200, "content-type": "application/grpc", "grpc-status": "13", "grpc-message": encodeURIComponent(HOSTILE) },
      { endStream: true },
    );
  });
  return server;
}

/** A JSON-RPC server whose body for each call is `answer`'s. */
function jsonRpcServer(answer: (method: string, id: number) => string): http.Server {
  return http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      res.writeHead(200, { "content-type": "application/json" }).end(answer(method, id));
    });
  });
}

/** A JSON-RPC build: an invalid JSON body, a value that differs, an error message. */
const hostileJsonRpc = () =>
  jsonRpcServer((method, id) => {
    if (method === "getblock") return `${HOSTILE}{"id":${id}}`;
    if (method === "getblockcount") return JSON.stringify({ jsonrpc: "2.0", id, result: HOSTILE });
    return JSON.stringify({ jsonrpc: "2.0", id, error: { code: -1, message: HOSTILE } });
  });

/** An oracle on a hostile chain that refuses everything else with a hostile message. */
const hostileOracle = () =>
  jsonRpcServer((method, id) =>
    JSON.stringify(
      method === "getblockchaininfo"
        ? { jsonrpc: "2.0", id, result: { chain: HOSTILE, blocks: 10, bestblockhash: "00".repeat(32) } }
        : { jsonrpc: "2.0", id, error: { code: -8, message: HOSTILE } },
    ),
  );

const urlOf = (s: { address(): AddressInfo | string | null }) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  fixture = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir("zconform-inert-");
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", fixture.anchors));
  grpc = hostileGrpc();
  jsonrpc = hostileJsonRpc();
  oracle = hostileOracle();
  await Promise.all([grpc, jsonrpc, oracle].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()))));
}, 60_000);

afterAll(async () => {
  for (const s of [jsonrpc, oracle]) s?.closeAllConnections();
  for (const s of [grpc, jsonrpc, oracle]) s?.close();
  await fixture?.close();
  dir?.remove();
});

function config(name: string, o: { oracle?: string; hostileBuild: boolean }): string {
  const ref = fixture.jsonrpcProfiles.reference!;
  return dir.write(
    name,
    [
      "chain: fixture",
      `oracle: { jsonrpc: { url: "${o.oracle ?? fixture.jsonrpc}", cookieFile: "${fixture.cookie}" } }`,
      "builds:",
      `  - { name: reference, implementation: other, version: "1", grpc: { url: "${fixture.grpc.reference!}" }, jsonrpc: { url: "${ref.url}", cookieFile: "${ref.cookie}" } }`,
      ...(o.hostileBuild ? [`  - { name: hostile, implementation: other, grpc: { url: "${urlOf(grpc)}" }, jsonrpc: { url: "${urlOf(jsonrpc)}/" } }`] : []),
      "",
    ].join("\n"),
  );
}

function expectInert(output: string): void {
  const obeyed = [...output].map((ch, i) => ({ ch, i })).filter(({ ch }) => OBEYED.test(ch));
  expect(obeyed.map(({ ch, i }) => `${JSON.stringify(ch)} at ${i}: ${JSON.stringify(output.slice(Math.max(0, i - 30), i + 10))}`)).toEqual([]);
  expect(output.split("\n").filter((l) => l.includes(FORGED) && l.trimStart().startsWith(FORGED))).toEqual([]);
}

describe("server text on the terminal", () => {
  test("a build on a hostile chain: the preflight's stop (exit 2) prints the chain name inert", async () => {
    const r = await runCli(["run", "-c", config("stop.yaml", { hostileBuild: true }), "--cases", join(dir.path, "cases")], 90_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('build hostile serves chain "\\x1b]0;pwned\\x07\\x1b[2J');
    expectInert(r.stdout + r.stderr);
  }, 120_000);

  test("a hostile build run to the end (--force): header, preflight, faults, divergences and summary inert", async () => {
    const r = await runCli(["run", "-c", config("force.yaml", { hostileBuild: true }), "--cases", join(dir.path, "cases"), "--force"], 90_000);
    expect(r.code).toBe(3);
    // Each planted field was printed, escaped: the chain name, the protocol version, a
    // value that differs, and the invalid body's fault.
    expect(r.stdout).toContain("preflight hostile: reached over gRPC in");
    expect(r.stdout).toContain('chain "\\x1b]0;pwned\\x07');
    expect(r.stdout).toContain("protocol \\x1b]0;pwned");
    expect(r.stdout.split("\n").find((l) => l.includes("getblockcount/count"))).toContain('hostile="\\\\x1b]0;pwned');
    expect(r.stdout).toMatch(/^could not check hostile: /m);
    expectInert(r.stdout + r.stderr);
  }, 120_000);

  test("an oracle on a hostile chain whose every refusal is hostile: inert", async () => {
    const r = await runCli(
      ["run", "-c", config("oracle.yaml", { oracle: `${urlOf(oracle)}/`, hostileBuild: false }), "--cases", join(dir.path, "cases"), "--force"],
      90_000,
    );
    expect(r.stdout).toContain("preflight oracle: reached over JSON-RPC in");
    expect(r.stdout).toContain('chain "\\x1b]0;pwned\\x07');
    expectInert(r.stdout + r.stderr);
  }, 120_000);
});
