// The preflight as a user meets it: `zconform run` against servers on another chain
// stops before the cases with one clear message and exit 2 (a config problem); `--force`
// goes on and says so, and the JSON report records what each server said. A build or an
// oracle the preflight cannot reach is no config problem: nothing more is sent to it,
// every one of its cases could not be checked for the preflight's reason, every report
// is written saying so, and the run exits 3.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http2 from "node:http2";
import { createServer, type AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { haveOpenssl, selfSignedCert } from "../src/core/targets/self-signed.test-helper.js";
import type { JsonReport } from "../src/core/report/json.js";
import { runCli } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const addr = s.address();
  await new Promise((r) => s.close(r));
  return typeof addr === "object" && addr ? addr.port : 1;
}

describe("preflight", () => {
  let net: FixtureNetwork;
  let dir: TempDir;
  let cases: string;

  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference"] });
    dir = tempDir();
    for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
    // The fixture's anchors under a profile that claims mainnet: the servers say "regtest".
    dir.write("cases/chains/mainnet.yaml", chainProfileYaml("mainnet", "mainnet", net.anchors));
    dir.write("cases/chains/regtest.yaml", chainProfileYaml("regtest", "regtest", net.anchors));
    cases = join(dir.path, "cases");
  });
  afterAll(async () => {
    dir.remove();
    await net.close();
  });

  function config(name: string, chain: string, grpcUrl: string): string {
    return dir.write(
      name,
      [
        `chain: ${chain}`,
        `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
        "builds:",
        "  - name: mine",
        "    implementation: other",
        `    grpc: { url: "${grpcUrl}" }`,
        "",
      ].join("\n"),
    );
  }

  test("a regtest server against a mainnet chain profile: exit 2 before any case, naming both", async () => {
    const r = await runCli(["run", "-c", config("mainnet.yaml", "mainnet", net.grpc.reference!), "--cases", cases]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('build mine serves chain "regtest", but the chain profile is mainnet ("main")');
    expect(r.stderr).toContain('the oracle serves chain "regtest", but the chain profile is mainnet ("main")');
    expect(r.stderr).toContain("--force");
    expect(r.stdout).not.toMatch(/GetBlock/);
  }, 120_000);

  test("no build reachable: exit 3, and every report says each case could not be checked, and why", async () => {
    const port = await closedPort();
    const out = join(dir.path, "down");
    const r = await runCli([
      "run",
      "-c",
      config("down.yaml", "regtest", `http://127.0.0.1:${port}`),
      "--cases",
      cases,
      "--json",
      `${out}.json`,
      "--junit",
      `${out}.xml`,
      "--html",
      `${out}.html`,
    ]);
    expect(r.code).toBe(3);
    const refused = `ECONNREFUSED 127.0.0.1:${port}`;
    expect(r.stdout).toMatch(new RegExp(`preflight mine: NOT reached over gRPC in \\d+ ms — unreachable: .*${refused}; is the server running\\?`));
    expect(r.stdout).toMatch(
      new RegExp(
        `^could not check mine: unreachable on 3/3 cases — .*${refused} \\(at the preflight, so no case was sent to it\\); is the server running\\?$`,
        "m",
      ),
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe('exit 3: could not check mine (3 of 3 cases) — see the "could not check" lines above');

    const json = JSON.parse(readFileSync(`${out}.json`, "utf8")) as JsonReport;
    expect(json.exitCode).toBe(3);
    const grpcCases = json.cases.filter((c) => c.transport === "grpc");
    expect(grpcCases.length).toBe(3);
    for (const c of grpcCases) {
      expect(c.outcomes).toEqual([expect.objectContaining({ build: "mine", outcome: "unchecked", reason: expect.stringContaining(refused) })]);
    }
    const junit = readFileSync(`${out}.xml`, "utf8");
    expect(junit.match(/<error [^>]*ECONNREFUSED/g)?.length).toBe(3);
    expect(readFileSync(`${out}.html`, "utf8")).toContain(`${refused} (at the preflight, so no case was sent to it)`);
  }, 120_000);

  test("a build the preflight cannot reach is asked nothing more: plaintext to a TLS port", async () => {
    if (!haveOpenssl()) return;
    const { keyFile, certFile } = selfSignedCert(dir.path);
    const tls = http2.createSecureServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) });
    let connections = 0;
    tls.on("connection", () => connections++);
    await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
    try {
      const r = await runCli(["run", "-c", config("tls-port.yaml", "regtest", `http://127.0.0.1:${(tls.address() as AddressInfo).port}`), "--cases", cases]);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(
        /^could not check mine: http:\/\/ to a server that speaks TLS on 3\/3 cases — .*\(at the preflight, so no case was sent to it\); use https:\/\/ in the URL$/m,
      );
      // The preflight's GetLightdInfo and its two looks at the port (TLS? HTTP/2?); no case after them.
      expect(connections).toBe(3);
    } finally {
      tls.close();
    }
  }, 120_000);

  test("the oracle unreachable: exit 3, its cases could not be checked, and nothing more is sent to it", async () => {
    const port = await closedPort();
    const json = join(dir.path, "oracle-down.json");
    const cfg = dir.write(
      "oracle-down.yaml",
      readFileSync(config("oracle-base.yaml", "regtest", net.grpc.reference!), "utf8").replace(
        /oracle: .*/,
        `oracle: { jsonrpc: { url: "http://127.0.0.1:${port}/" } }`,
      ),
    );
    const r = await runCli(["run", "-c", cfg, "--cases", cases, "--json", json, "--allow-stale"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(new RegExp(`preflight oracle: NOT reached over JSON-RPC in \\d+ ms — unreachable: .*ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(r.stdout).toMatch(
      /^could not check oracle: unreachable on \d+\/\d+ cases — .*\(at the preflight, so no case was sent to it\); is the server running\?$/m,
    );
    const report = JSON.parse(readFileSync(json, "utf8")) as JsonReport;
    expect(report.exitCode).toBe(3);
    expect(report.summary!.unchecked.map((u) => u.side)).toEqual(["oracle"]);
  }, 120_000);

  test("--force runs anyway, says so, and the JSON report keeps the preflight", async () => {
    const report = join(dir.path, "forced.json");
    const r = await runCli([
      "run",
      "-c",
      config("forced.yaml", "mainnet", net.grpc.reference!),
      "--cases",
      cases,
      "--force",
      "--json",
      report,
      "--allow-stale",
    ]);
    expect(r.code).not.toBe(2);
    expect(r.stdout).toMatch(/preflight mine: reached over gRPC in \d+ ms, chain "regtest"/);
    expect(r.stdout).toContain("preflight problems ignored (--force)");
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect(json.preflight).toMatchObject({
      forced: true,
      builds: [{ name: "mine", transport: "grpc", reached: true, chainName: "regtest" }],
      oracle: { name: "oracle", transport: "jsonrpc", reached: true, chainName: "regtest" },
    });
    expect(json.preflight.problems).toHaveLength(2);
  }, 120_000);

  test("servers on the profile's chain: the run goes on, one preflight line per server", async () => {
    const r = await runCli(["run", "-c", config("regtest.yaml", "regtest", net.grpc.reference!), "--cases", cases, "--allow-stale"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/preflight mine: reached over gRPC in \d+ ms, chain "regtest"/);
    expect(r.stdout).toMatch(/preflight oracle: reached over JSON-RPC in \d+ ms, chain "regtest"/);
  }, 120_000);
});
