// Servers that stop answering cannot hold a run. A build that times out on several calls
// in a row is unresponsive: its remaining cases are not sent and are "could not check" at
// once, the run ends, exits 3 and writes every report. The oracle gets the same rule.
// SIGTERM ends a run within 2 s while a peer is frozen, with partial reports. The freezes
// are real: a server that accepts and never answers, and a relay in a child process of
// its own that stops itself with SIGSTOP mid-run (its sockets stay open, nothing moves).

import { afterAll, beforeAll, afterEach, describe, expect, test } from "@jest/globals";
import { spawnCli, waitFor } from "./tools/cli.js";
import { besideHealthy, type BesideHealthy } from "./tools/beside-healthy.js";
import { startRelayProcess, startSilentServer, type RelayProcess } from "./tools/frozen-servers.js";
import { answersOf, faultsOf, validReports } from "./tools/run-reports.js";
import type { TcpServer } from "./tools/tcp-server.js";

const CASES = 40;
let env: BesideHealthy;
let silent: TcpServer;
let relay: RelayProcess | undefined;

beforeAll(async () => {
  env = await besideHealthy(CASES);
  silent = await startSilentServer();
}, 120_000);

afterEach(async () => {
  await relay?.close();
  relay = undefined;
});

afterAll(async () => {
  await silent?.close();
  await env?.close();
});

const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;

/** A relay to the fixture's reference server (gRPC and JSON-RPC) that stops itself after `chunks`, as a build. */
async function stoppingBuild(name: string, chunks: number, limits = ""): Promise<string> {
  const ref = env.net.jsonrpcProfiles.reference!;
  relay = await startRelayProcess([env.net.grpc.reference!, ref.url], { stopAfterChunks: chunks });
  const [grpcUrl, jsonUrl] = relay.urls;
  return `  - { name: ${name}, implementation: other, ${limits}grpc: { url: "${grpcUrl}" }, jsonrpc: { url: "${jsonUrl}", cookieFile: "${ref.cookie}" } }`;
}

describe("a build that stops answering is unresponsive: its remaining cases are not sent", () => {
  test("a server that accepts and never answers, gRPC and JSON-RPC: exit 3, every report, the healthy build intact, the run ends", async () => {
    const r = await env.run("silent", [
      `  - { name: silent, implementation: other, deadlineMs: 1000, grpc: { url: "${silent.url}" }, jsonrpc: { url: "${silent.url}" } }`,
    ]);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(60_000);
    expect(answersOf(r.report, "healthy")).toEqual(env.baseline);
    const faults = faultsOf(r.report, "silent");
    expect(faults).toHaveLength(2 * CASES);
    expect(count(faults, "timeout") + count(faults, "unresponsive")).toBe(2 * CASES);
    // The preflight found gRPC silent (its cases answer that at once). JSON-RPC, not
    // asked at the preflight, timed out only on the calls already sent when the third
    // timeout came: at most concurrency (4) + 2 of them.
    const json = faultsOf(r.report, "silent", "jsonrpc");
    expect(count(json, "timeout")).toBeLessThanOrEqual(6);
    expect(count(json, "unresponsive")).toBeGreaterThanOrEqual(CASES - 6);
    const line = r.report.summary!.unchecked.find((u) => u.side === "silent")!;
    expect(line).toMatchObject({ fault: "unresponsive", detail: "after 3 timeouts in a row (client deadline 1000 ms)", cases: 2 * CASES });
    expect(r.stdout).toContain(
      `could not check silent: unresponsive — after 3 timeouts in a row (client deadline 1000 ms); its remaining ${count(faults, "unresponsive")} cases were not sent`,
    );
  }, 300_000);

  test("a server frozen with SIGSTOP mid-run: it answered until the freeze, then exit 3 with every report, the healthy build intact", async () => {
    const r = await env.run("stopped", [await stoppingBuild("stopped", 60, "deadlineMs: 2000, concurrency: 2, ")]);
    expect(relay!.frozen()).toBe(true);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(120_000);
    expect(answersOf(r.report, "healthy")).toEqual(env.baseline);
    const faults = faultsOf(r.report, "stopped");
    expect(count(faults, "answer")).toBeGreaterThan(0);
    expect(count(faults, "unresponsive")).toBeGreaterThan(0);
    expect(r.report.summary!.unchecked.find((u) => u.side === "stopped")?.fault).toBe("unresponsive");
  }, 300_000);

  test("an oracle frozen with SIGSTOP mid-run: its cases are could-not-check, the run ends with exit 3 and every report", async () => {
    relay = await startRelayProcess([env.net.jsonrpc], { stopAfterChunks: 20 });
    const r = await env.run("oracle-stopped", [], [env.oracleLine(relay.urls[0]), "defaults: { deadlineMs: 2000 }"]);
    expect(relay.frozen()).toBe(true);
    expect(r.code).toBe(3);
    expect(r.ms).toBeLessThan(120_000);
    expect(answersOf(r.report, "healthy")).toEqual(env.baseline);
    const oracle = r.report.summary!.unchecked.find((u) => u.side === "oracle")!;
    expect(oracle.fault).toBe("unresponsive");
    // The oracle's derivation names the method it was asking.
    expect(oracle.detail).toMatch(/^[a-z]+: after 3 timeouts in a row \(client deadline 2000 ms\)$/);
    expect(r.stdout).toContain(`could not check oracle: unresponsive — ${oracle.detail}; its remaining`);
  }, 300_000);
});

describe("SIGTERM ends a run within 2 s while a peer is frozen", () => {
  async function terminate(name: string, whenFrozen: () => boolean) {
    const run = spawnCli(env.args(name));
    await waitFor(whenFrozen, 60_000, `${name}: the frozen peer holding calls`);
    // Calls in flight to the frozen peer, each with the default 30 s deadline.
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    run.child.kill("SIGTERM");
    const r = await run.exited;
    return { ...r, ms: Date.now() - t0 };
  }

  test("during the cases, with a build stopped by SIGSTOP: exit 143 and partial reports within 2 s", async () => {
    env.config("term-stopped", [await stoppingBuild("stopped", 60)]);
    const r = await terminate("term-stopped", () => relay!.frozen());
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 143, signal: null });
    expect(r.ms).toBeLessThan(2000);
    expect(validReports(env.base("term-stopped"))).toMatchObject({ partial: true, interrupted: "SIGTERM", exitCode: 143 });
  }, 120_000);

  test("during the preflight, with a build that never answers: exit 143 and partial reports within 2 s", async () => {
    env.config("term-silent", [`  - { name: silent, implementation: other, grpc: { url: "${silent.url}" } }`]);
    const before = silent.connections();
    const r = await terminate("term-silent", () => silent.connections() > before);
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 143, signal: null });
    expect(r.ms).toBeLessThan(2000);
    expect(validReports(env.base("term-silent"))).toMatchObject({ partial: true, interrupted: "SIGTERM", exitCode: 143 });
  }, 120_000);
});
