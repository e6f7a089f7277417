// The tip-following phase on the fixture network: its node moved through its JSON-RPC
// alone, the emulations following in real time (timing scale 1). The reference reads its
// node's state at once; zaino-0.10.1's emulation serves a block once its chain head has
// polled (every 1 s), so the reference serves blocks sooner: an ordering, never a time.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { displayHex } from "../../zcash/codec/index.js";
import { startFixtureNetwork, type FixtureNetwork } from "../../zcash/fixture/network.js";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { serveBenchHtml, serveBenchLines, serveBenchReport } from "./report.js";
import { planScenarios } from "./scenarios.js";
import type { BenchBuild } from "./runner.js";
import { runTipFollowing, tipFigures, type TipFollowing } from "./tip-following.js";

const benchBuilds = (net: FixtureNetwork): BenchBuild[] =>
  net.builds().map((b) => ({ name: b.name, grpc: b.grpc!, deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes }));
const oracle = (net: FixtureNetwork) => ({ url: net.jsonrpc, auth: { kind: "cookie" as const, cookieFile: net.cookie } });

test("figures: nearest-rank p50 and p99 and the maximum of the blocks served; a block never served counts against served only", () => {
  const f = tipFigures("b", [30, null, 10, 20]);
  expect(f).toEqual({ build: "b", events: 4, served: 3, p50Ms: 20, p99Ms: 30, maxMs: 30, ms: [30, null, 10, 20] });
  expect(tipFigures("none", [null, null])).toMatchObject({ events: 2, served: 0, p50Ms: null, p99Ms: null, maxMs: null });
});

describe("on a moving fixture chain, emulations in real time", () => {
  let net: FixtureNetwork;
  let start: number;
  let phase: TipFollowing;
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference", "zaino-0.10.1"], moving: { timingScale: 1 } });
    start = net.moving!.model.tipHeight;
    phase = await runTipFollowing({ builds: benchBuilds(net), node: oracle(net), blocks: 6, everyMs: 300 });
  }, 60_000);
  afterAll(() => net.close());

  test("the node mined every block asked for, on its tip, and the phase names them as the node's chain holds them", () => {
    expect([phase.skipped, phase.error]).toEqual([null, null]);
    const chain = net.moving!.model;
    expect(phase.mined.map((m) => m.height)).toEqual([1, 2, 3, 4, 5, 6].map((i) => start + i));
    expect(phase.mined.map((m) => m.hash)).toEqual(phase.mined.map((m) => displayHex(chain.blockAt(m.height)!.block.hash)));
    // One block in each 300 ms interval, at some point of it.
    phase.mined.forEach((m, i) => expect(m.atMs).toBeGreaterThanOrEqual(i * 300));
  });

  test("every build served every block, and the reference served them sooner than zaino-0.10.1's polling chain head", () => {
    const [reference, zaino] = ["reference", "zaino-0.10.1"].map((n) => phase.builds.find((b) => b.build === n)!);
    for (const b of [reference!, zaino!]) {
      expect([b.events, b.served, b.ms.length]).toEqual([6, 6, 6]);
      expect(b.p50Ms!).toBeLessThanOrEqual(b.p99Ms!);
      expect(b.p99Ms!).toBeLessThanOrEqual(b.maxMs!);
    }
    expect(reference!.p50Ms!).toBeLessThan(zaino!.p50Ms!);
    expect(reference!.maxMs!).toBeLessThan(zaino!.maxMs!);
  });

  test("the report keeps the phase to its schema, with a table row per figure and the chart on the page", () => {
    const plan = planScenarios({ anchors: net.anchors, clients: [1], blockRequests: 1, latencyRpcs: [], latencyCalls: 1 });
    const report = serveBenchReport([], {
      startedAt: new Date(),
      machine: { cpus: 2, cpuModel: "test", node: process.version, loadAverage: { start: 0, end: 0 } },
      chain: "fixture",
      builds: net.builds().map((b) => ({ name: b.name, implementation: b.implementation, emulated: b.emulated === true })),
      runs: 1,
      clients: [1],
      range: plan.range,
      download: plan.download,
      scenarios: [],
      startup: [],
      serverTotals: [],
      unreachable: [],
      skipped: [],
      tipFollowing: phase,
      timingScale: 1,
      partial: false,
    });
    expect(schemaErrors("serve-bench", report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    const lines = serveBenchLines(report);
    expect(lines.find((l) => l.startsWith("| tip following: blocks served, of 6 mined one per 300 ms"))).toMatch(/\| +6\/6 \| +6\/6 \|$/);
    expect(lines).toContain("emulated profiles followed the chain in real time (timing scale 1): their figures compare with real servers'");
    const page = serveBenchHtml(report);
    expect(page).toContain('<figure class="chart" id="bench-tip-following">');
    expect(page).toContain(`<tr><th scope="row">zaino-0.10.1</th><td>6/6</td>`);
  });
});

/** A node in front of `target` whose generate fails from its `failFrom`-th call on (counted from 1). */
async function failingNode(target: string, failFrom: number): Promise<{ url: string; server: Server }> {
  let generated = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const call = JSON.parse(body.toString("utf8")) as { id: unknown; method: string };
      if (call.method === "generate" && ++generated >= failFrom) {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code: -1, message: "mining stopped" } }));
        return;
      }
      void fetch(target, { method: "POST", headers: { "content-type": "application/json", authorization: req.headers.authorization ?? "" }, body }).then(
        async (r) => res.writeHead(r.status, { "content-type": "application/json" }).end(Buffer.from(await r.arrayBuffer())),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

test("a node that stops mining mid-phase: the blocks it mined keep their figures, the phase says where it stopped, and the bench exits 3", async () => {
  const net = await startFixtureNetwork({ profiles: ["reference"], moving: { timingScale: 1 } });
  const proxy = await failingNode(net.jsonrpc, 3);
  try {
    const phase = await runTipFollowing({ builds: benchBuilds(net), node: { ...oracle(net), url: proxy.url }, blocks: 5, everyMs: 100 });
    expect(phase.skipped).toBeNull();
    expect(phase.error).toMatch(/^the node stopped mining after 2 of 5 blocks: the node generate: error -1: mining stopped/);
    expect(phase.mined.map((m) => m.height)).toEqual([1, 2].map((i) => (net.anchors.tip as number) + i));
    expect(phase.builds.map((b) => [b.build, b.served, b.ms.length])).toEqual([["reference", 2, 2]]);
    const plan = planScenarios({ anchors: net.anchors, clients: [1], blockRequests: 1, latencyRpcs: [], latencyCalls: 1 });
    const report = serveBenchReport([], {
      startedAt: new Date(),
      machine: { cpus: 2, cpuModel: "test", node: process.version, loadAverage: { start: 0, end: 0 } },
      chain: "fixture",
      builds: [{ name: "reference", implementation: "other", emulated: false }],
      runs: 1,
      clients: [1],
      range: plan.range,
      download: plan.download,
      scenarios: [],
      startup: [],
      serverTotals: [],
      unreachable: [],
      skipped: [],
      tipFollowing: phase,
      timingScale: null,
      partial: false,
    });
    expect(schemaErrors("serve-bench", report)).toEqual([]);
    expect(report.exitCode).toBe(3);
    expect(serveBenchLines(report)).toContain(`tip following stopped: ${phase.error}`);
  } finally {
    proxy.server.close();
    await net.close();
  }
}, 60_000);

test("a node that answers no generate (a fixture chain standing still) cannot be moved: the phase is skipped saying so, with no figure", async () => {
  const still = await startFixtureNetwork({ profiles: ["reference"] });
  try {
    const phase = await runTipFollowing({ builds: benchBuilds(still), node: oracle(still), blocks: 3, everyMs: 100 });
    expect(phase.skipped).toMatch(/^the node cannot be moved: it answers no generate \(the node generate: error -32601/);
    expect([phase.error, phase.mined, phase.builds]).toEqual([null, [], []]);
    expect(still.model.tipHeight).toBe(still.anchors.tip);
  } finally {
    await still.close();
  }
}, 60_000);
