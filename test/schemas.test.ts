// The modes' schema files hold their documents to the shared envelope: a document of
// another kind, or one without the envelope's fields, does not pass.

import { expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { schemaErrors } from "./schemas.test-helper.js";

const wirecost = {
  kind: "wirecost", schemaVersion: 1, tool: { name: "zconform", version: "0.1.0" }, startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z", exitCode: 0, chain: "fixture", builds: [], calls: 2, rows: [], skipped: [],
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
    scenario: "download.c1", build: "reference", runs: [run], wallMs: spread, blocksPerSecond: spread, requestsPerSecond: spread,
    clientCpuMs: spread, clientCoreShareMax: 0.2, serverCpuMs: null, latencyP50Ms: null, failedCalls: 0,
  };
  const { calls: _calls, rows: _rows, ...fields } = wirecost;
  const doc = {
    ...fields, kind: "serve-bench", partial: false, machine: { cpus: 2, cpuModel: "x", node: "v20.20.2", loadAverage: { start: 1, end: 1 } }, runs: 1, clients: [1], range: { from: 1, to: 10 }, download: { from: 1, to: 10 },
    scenarios: [{ id: "download.c1", label: "wallet download", kind: "range", rpc: "GetBlockRange", clients: 1, range: { from: 1, to: 10 }, blocksPerClient: 10, calls: null }],
    startup: [], serverTotals: [], results: [result], unreachable: [], skipped: [], summary: { durationMs: 5, failedCalls: 0 },
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
