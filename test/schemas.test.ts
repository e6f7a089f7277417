// The modes' schema files hold their documents to the shared envelope: a document of
// another kind, or one without the envelope's fields, does not pass.

import { expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { schemaErrors } from "./schemas.test-helper.js";

const wirecost = {
  kind: "wirecost",
  schemaVersion: 1,
  tool: { name: "zconform", version: "0.1.0" },
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z",
  exitCode: 0,
  chain: "fixture",
  builds: [],
  calls: 2,
  rows: [],
  skipped: [],
};

test("a wirecost document conforms; without exitCode, or claiming another kind or version, it does not", () => {
  expect(schemaErrors("wirecost", wirecost)).toEqual([]);
  const { exitCode: _, ...noExit } = wirecost;
  expect(schemaErrors("wirecost", noExit)).toContain("/: must have required property 'exitCode'");
  expect(schemaErrors("wirecost", { ...wirecost, kind: "sweep" }).length).toBeGreaterThan(0);
  expect(schemaErrors("wirecost", { ...wirecost, schemaVersion: 2 }).length).toBeGreaterThan(0);
  expect(schemaErrors("sweep", wirecost).length).toBeGreaterThan(0);
  expect(schemaErrors("latency", wirecost).length).toBeGreaterThan(0);
});

test("a serve-bench document conforms to its schema; a result without its runs' spread, or of another kind, does not", () => {
  const spread = { median: 2, min: 1, max: 3, relative: 1 };
  const run = { wallMs: 5, blocks: 10, calls: 1, failed: 0, bytes: 900, clientCpuMs: 1, serverCpuMs: null, statuses: { OK: 1 } };
  const result = {
    scenario: "download.c1",
    build: "reference",
    runs: [run],
    wallMs: spread,
    blocksPerSecond: spread,
    requestsPerSecond: spread,
    clientCpuMs: spread,
    clientCoreShareMax: 0.2,
    serverCpuMs: null,
    latencyP50Ms: null,
    failedCalls: 0,
  };
  const { calls: _calls, rows: _rows, ...fields } = wirecost;
  const doc = {
    ...fields,
    kind: "serve-bench",
    schemaVersion: 2,
    partial: false,
    machine: { cpus: 2, cpuModel: "x", node: "v20.20.2", loadAverage: { start: 1, end: 1 } },
    runs: 1,
    clients: [1],
    range: { from: 1, to: 10 },
    download: { from: 1, to: 10 },
    scenarios: [
      {
        id: "download.c1",
        label: "wallet download",
        kind: "range",
        rpc: "GetBlockRange",
        clients: 1,
        range: { from: 1, to: 10 },
        blocksPerClient: 10,
        calls: null,
      },
    ],
    startup: [],
    serverTotals: [],
    results: [result],
    unreachable: [],
    skipped: [],
    tipFollowing: null,
    summary: { durationMs: 5, failedCalls: 0 },
  };
  expect(schemaErrors("serve-bench", doc)).toEqual([]);
  const { wallMs: _, ...noWall } = result;
  expect(schemaErrors("serve-bench", { ...doc, results: [noWall] })).toContain("/results/0: must have required property 'wallMs'");
  expect(schemaErrors("serve-bench", { ...doc, kind: "latency" }).length).toBeGreaterThan(0);
});

test("docs/fixture-vs-zebrad.json, generated from a regtest run, conforms to its schema", () => {
  const doc = JSON.parse(readFileSync(new URL("../docs/fixture-vs-zebrad.json", import.meta.url), "utf8")) as unknown;
  expect(schemaErrors("fixture-vs-zebrad", doc)).toEqual([]);
});

test("a scenario document conforms to its schema; a check without its builds' outcomes, or a reorganization without its fork point, does not", () => {
  const { calls: _calls, rows: _rows, ...fields } = wirecost;
  const tip = { height: 302, hash: "ab".repeat(32) };
  const check = {
    id: "tip",
    caseId: "GetLatestBlock/tip",
    method: "GetLatestBlock",
    deadlineMs: 5000,
    verdict: "agree",
    builds: [{ build: "reference", ms: 12, outcome: "pass" }],
    divergences: [],
  };
  const reorg = { kind: "reorg", depth: 1, include: [], forkPoint: 300, orphaned: ["cd".repeat(32)], tip };
  const doc = {
    ...fields,
    kind: "scenario",
    network: { kind: "fixture", timingScale: 0.1 },
    oracle: "http://127.0.0.1:1/",
    scenarios: [
      {
        id: "reorg-depth-1",
        source: "cases/scenarios/reorg-depth-1.yaml:1",
        durationMs: 500,
        steps: [{ index: 1, source: "cases/scenarios/reorg-depth-1.yaml:9", atMs: 0, actionMs: 3, action: reorg, checks: [check] }],
        tips: [{ kind: "reorg", ...tip, forkPoint: 300, atMs: 3, served: { reference: 12 } }],
      },
    ],
    tipFollowing: [
      {
        build: "reference",
        blocks: { events: 0, served: 0, p50Ms: null, p99Ms: null, maxMs: null },
        reorgs: { events: 1, served: 1, p50Ms: 12, p99Ms: 12, maxMs: 12 },
      },
    ],
    summary: {
      scenarios: 1,
      checks: 1,
      outcomes: { pass: 1, known: 0, new: 0, unchecked: 0, unjudged: 0 },
      newDivergences: 0,
      knownDivergences: 0,
      notAtTip: 0,
      stopped: 0,
      durationMs: 500,
    },
  };
  expect(schemaErrors("scenario", doc)).toEqual([]);
  const { builds: _b, ...noBuilds } = check;
  expect(schemaErrors("scenario", { ...doc, scenarios: [{ ...doc.scenarios[0], steps: [{ ...doc.scenarios[0]!.steps[0], checks: [noBuilds] }] }] })).toContain(
    "/scenarios/0/steps/0/checks/0: must have required property 'builds'",
  );
  const { forkPoint: _f, ...noFork } = reorg;
  expect(schemaErrors("scenario", { ...doc, scenarios: [{ ...doc.scenarios[0], steps: [{ ...doc.scenarios[0]!.steps[0], action: noFork }] }] })).toContain(
    "/scenarios/0/steps/0/action: must have required property 'forkPoint'",
  );
  expect(schemaErrors("scenario", { ...doc, kind: "latency" }).length).toBeGreaterThan(0);
});
