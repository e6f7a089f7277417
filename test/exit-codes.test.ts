// The exit codes as CI meets them: each path of `zconform run` ends with the code the
// README's table gives it, the JSON report records that same code, and the terminal's
// last line says it and why. Bad input (a config error, servers on another chain) is 2
// and writes no report; a server that cannot be reached is 3 with every report written.
// (A report that cannot be written, 2: test/report-writers.test.ts; interrupted, 130 and
// 143: test/one-backend.test.ts and test/reports-written.test.ts.)

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import { existsSync, readFileSync } from "node:fs";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { BlockIDSchema } from "../src/zcash/gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { freePort } from "../src/zcash/real/process.js";
import { REPO, runCli } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

let fixture: FixtureNetwork;
let dir: TempDir;
/** A build that serves a tip of its own: height 7, whatever the node says. */
let wrongTip: http2.Http2Server;

beforeAll(async () => {
  fixture = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir("zconform-exit-codes-");
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", fixture.anchors));
  dir.write("cases/chains/mainnet.yaml", chainProfileYaml("mainnet", "mainnet", fixture.anchors));
  wrongTip = http2.createServer();
  wrongTip.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const rpc = String(headers[":path"]).split("/").pop();
    if (rpc !== "GetLatestBlock") {
      stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
      return;
    }
    const msg = toBinary(BlockIDSchema, create(BlockIDSchema, { height: 7n, hash: new Uint8Array(32) }));
    const head = Buffer.alloc(5);
    head.writeUInt32BE(msg.length, 1);
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(Buffer.concat([head, msg]));
  });
  await new Promise<void>((r) => wrongTip.listen(0, "127.0.0.1", () => r()));
}, 60_000);

afterAll(async () => {
  wrongTip?.close();
  await fixture?.close();
  dir?.remove();
});

function config(name: string, chain: string, grpcUrl: string): string {
  return dir.write(
    name,
    [
      `chain: ${chain}`,
      `oracle: { jsonrpc: { url: "${fixture.jsonrpc}", cookieFile: "${fixture.cookie}" } }`,
      "builds:",
      `  - { name: mine, implementation: other, version: "1", grpc: { url: "${grpcUrl}" } }`,
      "",
    ].join("\n"),
  );
}

async function run(name: string, cfg: string, extra: string[] = []) {
  const json = join(dir.path, `${name}.json`);
  const r = await runCli(["run", "-c", cfg, "--cases", join(dir.path, "cases"), "--json", json, "--allow-stale", ...extra], 90_000);
  return {
    ...r,
    json,
    report: existsSync(json) ? (JSON.parse(readFileSync(json, "utf8")) as JsonReport) : undefined,
    last: r.stdout.trimEnd().split("\n").at(-1),
  };
}

describe("the exit codes users act on", () => {
  test("0: every case that ran checked, nothing new", async () => {
    const r = await run("ok", config("ok.yaml", "fixture", fixture.grpc.reference!));
    expect(r.code).toBe(0);
    expect(r.report!.exitCode).toBe(0);
    expect(r.last).toBe("exit 0: nothing new");
  }, 120_000);

  test("1: a new divergence, named by method, with where the details are", async () => {
    const r = await run("new", config("new.yaml", "fixture", `http://127.0.0.1:${(wrongTip.address() as AddressInfo).port}`), ["--method", "GetLatestBlock"]);
    expect(r.code).toBe(1);
    expect(r.report!.exitCode).toBe(1);
    expect(r.last).toMatch(
      new RegExp(`^exit 1: \\d+ new divergences? \\(GetLatestBlock ×\\d+\\); see ${r.json.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} for details$`),
    );
  }, 120_000);

  test("2: a config error, and servers on another chain than the config says, write no report", async () => {
    const bad = await run(
      "bad-config",
      dir.write("bad.yaml", 'chain: fixture\nbuilds:\n  - { name: mine, implementation: other, grpc: { url: "x" }, colour: blue }\n'),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml:3/);
    expect(bad.report).toBeUndefined();
    const chain = await run("other-chain", config("mainnet.yaml", "mainnet", fixture.grpc.reference!));
    expect(chain.code).toBe(2);
    expect(chain.stderr).toContain('build mine serves chain "regtest", but the chain profile is mainnet ("main")');
    expect(chain.report).toBeUndefined();
  }, 120_000);

  test("3: a build that cannot be reached, with every report written saying so", async () => {
    const r = await run("down", config("down.yaml", "fixture", `http://127.0.0.1:${await freePort()}`));
    expect(r.code).toBe(3);
    expect(r.report!.exitCode).toBe(3);
    expect(r.report!.summary!.unchecked.map((u) => u.side)).toEqual(["mine"]);
    expect(r.last).toBe('exit 3: could not check mine (3 of 3 cases) — see the "could not check" lines above');
  }, 120_000);

  test("the README's table and --help list the same codes", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const table = [...readme.matchAll(/^\| (\d+) \| /gm)].map((m) => m[1]!);
    const help = (await runCli(["run", "--help"])).stdout;
    const listed = help.slice(help.indexOf("Exit codes:"));
    for (const code of table) expect({ code, listed: new RegExp(`(^ {2}${code} )|(, ${code} by )`, "m").test(listed) }).toEqual({ code, listed: true });
    // Neither calls a server that cannot be reached bad input.
    expect(readme.match(/^\| 2 \| .*$/m)![0]).not.toMatch(/reach/);
    expect(listed.slice(0, listed.indexOf("  3 "))).not.toMatch(/reach/);
  }, 60_000);
});
