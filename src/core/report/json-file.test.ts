import { describe, expect, test, beforeAll, afterAll } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { inputsFromFixture, type RunInputs } from "../../cli/inputs.js";
import { runSession } from "../run/session.js";
import { loadCorpus } from "../corpus/load.js";
import { jsonReporter, jsonReportFrom } from "./json.js";
import { GZIP_REQUEST_CHARS, readJsonReport, type JsonReportFile } from "./json-file.js";
import type { RunEvent } from "../results/events.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

describe("the JSON report file", () => {
  let dir: string;
  let inputs: RunInputs;
  const events: RunEvent[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zconform-json-"));
    inputs = await inputsFromFixture({ cases: join(ROOT, "cases") }, { stdout: () => {}, stderr: () => {} });
    const cases = loadCorpus(join(ROOT, "cases"), lightwalletProtocol).filter((c) =>
      ["GetBlockRange", "GetSubtreeRoots", "getrawtransaction", "GetTransaction", "GetTaddressBalance"].includes(c.method),
    );
    await runSession({
      ...inputs,
      cases,
      protocol: lightwalletProtocol,
      reporters: [jsonReporter(join(dir, "r.json")), { onEvent: (e) => events.push(e), finish: async () => {} }],
    });
  }, 120_000);
  afterAll(async () => {
    await inputs.network?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("validates against schemas/report.schema.json, and every divergence has caseId, method, build, kind, path and quirk", () => {
    const doc = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(schemaErrors("report", doc)).toEqual([]);
    expect(doc.divergences.length).toBeGreaterThan(0);
  });

  test("identical answers are written once, in a case and across cases, long requests compressed; all read back in full", () => {
    const doc = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as JsonReportFile;
    const answers = doc.cases.flatMap((c) => [...(c.oracle ? [c.oracle] : []), ...c.answers].map((a) => ({ caseId: c.caseId, a })));
    expect(answers.filter(({ a }) => "sameAs" in a).length).toBeGreaterThan(doc.cases.length);
    // A body (a block, a transaction) that answers of several cases share is written once.
    const casesOf = new Map<string, Set<string>>();
    for (const { caseId, a } of answers) if ("body" in a) casesOf.set(a.body, (casesOf.get(a.body) ?? new Set()).add(caseId));
    expect([...casesOf.values()].some((ids) => ids.size > 1)).toBe(true);
    expect(Object.keys(doc.bodies!).sort()).toEqual([...casesOf.keys()].sort());
    // GetTaddressBalance/over-10000-addresses sends ten thousand addresses.
    const many = doc.cases.find((c) => c.caseId === "GetTaddressBalance/over-10000-addresses")!;
    expect(many.request).toBeUndefined();
    expect(many.requestGzip!.length).toBeLessThan(GZIP_REQUEST_CHARS / 4);

    const read = readJsonReport(join(dir, "r.json"));
    expect(read).toEqual(JSON.parse(JSON.stringify(jsonReportFrom(events))));
    expect(JSON.stringify(read.cases.find((c) => c.caseId === many.caseId)!.request).length).toBeGreaterThan(GZIP_REQUEST_CHARS);
    const full = JSON.stringify(jsonReportFrom(events), null, 2).length;
    // Every answer written once: well under a third of the same report pretty-printed whole
    // (3.9x smaller on the shipped corpus and profiles; the ratio follows how many answers differ).
    expect(statSync(join(dir, "r.json")).size).toBeLessThan(full / 3);
  });
});
