// The preflight as a user meets it: `zconform run` against servers that are down or on
// another chain stops before the cases with one clear message and exit 2; `--force` goes
// on and says so, and the JSON report records what each server said.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
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
    return dir.write(name, [
      `chain: ${chain}`,
      `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
      "builds:",
      "  - name: mine",
      "    implementation: other",
      `    grpc: { url: "${grpcUrl}" }`,
      "",
    ].join("\n"));
  }

  test("a regtest server against a mainnet chain profile: exit 2 before any case, naming both", async () => {
    const r = await runCli(["run", "-c", config("mainnet.yaml", "mainnet", net.grpc.reference!), "--cases", cases]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('build mine serves chain "regtest", but the chain profile is mainnet ("main")');
    expect(r.stderr).toContain('the oracle serves chain "regtest", but the chain profile is mainnet ("main")');
    expect(r.stderr).toContain("--force");
    expect(r.stdout).not.toMatch(/GetBlock/);
  }, 120_000);

  test("no build reachable: exit 2 with the connection error", async () => {
    const port = await closedPort();
    const r = await runCli(["run", "-c", config("down.yaml", "regtest", `http://127.0.0.1:${port}`), "--cases", cases]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`no build could be reached: mine \\(.*ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  }, 120_000);

  test("--force runs anyway, says so, and the JSON report keeps the preflight", async () => {
    const report = join(dir.path, "forced.json");
    const r = await runCli(["run", "-c", config("forced.yaml", "mainnet", net.grpc.reference!), "--cases", cases, "--force", "--json", report, "--allow-stale"]);
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
