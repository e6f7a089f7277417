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

test("docs/fixture-vs-zebrad.json, generated from a regtest run, conforms to its schema", () => {
  const doc = JSON.parse(readFileSync(new URL("../docs/fixture-vs-zebrad.json", import.meta.url), "utf8")) as unknown;
  expect(schemaErrors("fixture-vs-zebrad", doc)).toEqual([]);
});
