// --strict as CI meets it: an answer measured against nothing (an oracle case with no
// oracle, an agree case only one build answered) and a run without an oracle are exit 1
// with --strict, and not a failure without it. (The jest suite's `strict`: src/jest/jest.test.ts.)

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { runCli } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

let fixture: FixtureNetwork;
let dir: TempDir;

beforeAll(async () => {
  fixture = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir("zconform-strict-");
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write(
    "cases/grpc/GetLatestBlock.yaml",
    ["method: GetLatestBlock", "cases:", "  - id: tip", "    request: {}", "  - id: tip-agree", "    request: {}", "    expect: agree"].join("\n"),
  );
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", fixture.anchors));
}, 180_000);

afterAll(async () => {
  await fixture?.close();
  dir?.remove();
});

function config(name: string, withOracle: boolean): string {
  return dir.write(
    name,
    [
      "chain: fixture",
      ...(withOracle ? [`oracle: { jsonrpc: { url: "${fixture.jsonrpc}", cookieFile: "${fixture.cookie}" } }`] : []),
      "builds:",
      `  - { name: mine, implementation: other, version: "1", grpc: { url: "${fixture.grpc.reference!}" } }`,
      "",
    ].join("\n"),
  );
}

async function run(name: string, cfg: string, extra: string[]) {
  const json = join(dir.path, `${name}.json`);
  const r = await runCli(["run", "-c", cfg, "--cases", join(dir.path, "cases"), "--json", json, "-q", ...extra], 90_000);
  return { code: r.code, stderr: r.stderr, report: existsSync(json) ? (JSON.parse(readFileSync(json, "utf8")) as JsonReport) : undefined };
}

describe("--strict", () => {
  test("a run without an oracle: exit 0, and 1 with --strict, which the JSON report records", async () => {
    const cfg = config("no-oracle.yaml", false);
    const lax = await run("no-oracle", cfg, ["--case", "GetLatestBlock/tip"]);
    expect({ code: lax.code, stderr: lax.code === 0 ? "" : lax.stderr }).toEqual({ code: 0, stderr: "" });
    expect(lax.report!.summary!.outcomes).toMatchObject({ unjudged: 1, pass: 0 });
    const strict = await run("no-oracle-strict", cfg, ["--case", "GetLatestBlock/tip", "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.report!.exitCode).toBe(1);
  }, 120_000);

  test("an oracle and one build: judged oracle cases are exit 0 with --strict; an agree case it alone answers is exit 1", async () => {
    const cfg = config("oracle.yaml", true);
    const judged = await run("judged", cfg, ["--case", "GetLatestBlock/tip", "--case", "GetBlock/at-5", "--strict"]);
    expect({ code: judged.code, stderr: judged.code === 0 ? "" : judged.stderr }).toEqual({ code: 0, stderr: "" });
    expect(judged.report!.summary!.outcomes).toMatchObject({ pass: 2, unjudged: 0 });
    const agree = await run("agree", cfg, ["--case", "GetLatestBlock/tip-agree", "--strict"]);
    expect(agree.code).toBe(1);
    expect(agree.report!.summary!.outcomes).toMatchObject({ unjudged: 1 });
    expect((await run("agree-lax", cfg, ["--case", "GetLatestBlock/tip-agree"])).code).toBe(0);
  }, 120_000);

  test("demo --strict: an agree case one profile alone answers is exit 1", async () => {
    const args = ["demo", "-q", "--profile", "reference", "--case", "GetBlock/hash-and-other-height"];
    expect((await runCli(args, 240_000)).code).toBe(0);
    expect((await runCli([...args, "--strict"], 240_000)).code).toBe(1);
  }, 600_000);
});
