// Nothing lost: however a run ends, its reports are written, whole, and say whether they
// are complete. The CLI runs in a child process against the fixture network; a fault
// proxy that slows every GetBlock down keeps the run busy long enough to interrupt it.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { runCli, spawnCli, waitFor } from "./tools/cli.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

let net: FixtureNetwork;
let proxy: FaultProxy;
let dir: TempDir;
let config: string;
const CASES = 12;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  proxy = await startFaultProxy({ grpcUpstream: net.grpc.reference!, jsonrpcUpstream: net.jsonrpcProfiles.reference!.url });
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("small", file), text);
  dir.write("small/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  dir.write(
    "slow/grpc/GetBlock.yaml",
    ["method: GetBlock", "cases:", ...Array.from({ length: CASES }, (_, i) => `  - { id: h${i + 1}, request: { height: ${i + 1} } }`)].join("\n"),
  );
  dir.write("slow/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  // One call at a time, so the cases queue behind each other.
  config = dir.write(
    "zconform.config.yaml",
    [
      "chain: fixture",
      `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
      "builds:",
      `  - { name: slow, implementation: other, concurrency: 1, grpc: { url: "${proxy.grpcUrl}" }, jsonrpc: { url: "${proxy.jsonrpcUrl}", cookieFile: "${net.jsonrpcProfiles.reference!.cookie}" } }`,
    ].join("\n"),
  );
});

afterAll(async () => {
  await proxy?.close();
  await net?.close();
  dir?.remove();
});

const reportPaths = (name: string) => ({ json: join(dir.path, `${name}.json`), junit: join(dir.path, `${name}.xml`), html: join(dir.path, `${name}.html`) });
const reportArgs = (p: ReturnType<typeof reportPaths>) => ["--json", p.json, "--junit", p.junit, "--html", p.html];

/** No temporary file of an atomic write is left beside the reports. */
function noTempFiles(): void {
  expect(readdirSync(dir.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
}

describe("reports are written however the run ends", () => {
  test("a quiet run whose output goes to files exits with its own code and writes every report", async () => {
    // Before the fix, closing the idle HTTP/2 session let the event loop drain with the
    // close still awaited: the CLI exited with 13 and wrote no report at all.
    proxy.rules = [];
    const p = reportPaths("files");
    const r = await runCli(["run", "-c", config, "--cases", join(dir.path, "small"), "-q", ...reportArgs(p)], 60_000, {
      files: { stdout: join(dir.path, "out.txt"), stderr: join(dir.path, "err.txt") },
    });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(readFileSync(p.json, "utf8")) as JsonReport;
    expect(report).toMatchObject({ partial: false, exitCode: 0 });
    expect(report.cases).toHaveLength(Object.keys(SMALL_CORPUS).length);
    expect(readFileSync(p.junit, "utf8")).toContain("<testsuite");
    expect(readFileSync(p.html, "utf8")).toMatch(/<html/i);
    noTempFiles();
  });

  test("SIGINT stops the run, and the reports hold the finished cases, marked partial", async () => {
    proxy.rules = [{ transport: "grpc", rpc: "GetBlock", fault: { kind: "delay", ms: 400 } }];
    const from = proxy.log.length;
    const p = reportPaths("interrupted");
    const run = spawnCli(["run", "-c", config, "--cases", join(dir.path, "slow"), "-q", ...reportArgs(p)]);
    const finished = () => proxy.log.slice(from).filter((e) => e.rpc === "GetBlock" && e.end !== undefined).length;
    await waitFor(() => finished() >= 3, 30_000, "three finished GetBlock calls");
    run.child.kill("SIGINT");
    const r = await run.exited;
    expect({ signal: r.signal, code: r.code }).toEqual({ signal: null, code: 130 });
    expect(r.stderr).toContain("SIGINT: stopping the calls in flight and writing partial reports");
    const report = JSON.parse(readFileSync(p.json, "utf8")) as JsonReport;
    expect(report).toMatchObject({ partial: true, interrupted: "SIGINT", exitCode: 130 });
    expect(report.cases.length).toBeGreaterThanOrEqual(3);
    expect(report.cases.length).toBeLessThan(CASES);
    for (const c of report.cases) expect(c.verdict?.verdict).toBe("agree");
    expect(report.summary?.cases).toBe(report.cases.length);
    // Calls still waiting for the build's slot were not sent after the interruption.
    expect(proxy.log.slice(from).filter((e) => e.rpc === "GetBlock").length).toBeLessThanOrEqual(report.cases.length + 1);
    expect(readFileSync(p.junit, "utf8")).toContain("<testsuite");
    expect(readFileSync(p.html, "utf8")).toMatch(/<html/i);
    noTempFiles();
  });

  test("the first SIGINT cuts a call in flight instead of waiting for it", async () => {
    // Calls that take 20 s: the interruption must not wait for the one in flight.
    proxy.rules = [{ transport: "grpc", rpc: "GetBlock", fault: { kind: "delay", ms: 20_000 } }];
    const from = proxy.log.length;
    const p = reportPaths("cut");
    const run = spawnCli(["run", "-c", config, "--cases", join(dir.path, "slow"), "-q", ...reportArgs(p)]);
    await waitFor(() => proxy.log.slice(from).some((e) => e.rpc === "GetBlock"), 30_000, "a GetBlock call in flight");
    const t0 = Date.now();
    run.child.kill("SIGINT");
    const r = await run.exited;
    // Well inside the call's 20 s (the reports are written on the way out, which a busy machine slows).
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.code).toBe(130);
    // The cut call's case is no result: the report holds only what finished.
    const report = JSON.parse(readFileSync(p.json, "utf8")) as JsonReport;
    expect(report).toMatchObject({ partial: true, interrupted: "SIGINT", exitCode: 130 });
    expect(report.cases.every((c) => c.answers.every((a) => !a.fault))).toBe(true);
    noTempFiles();
  });
});
