import { describe, expect, test, beforeAll, afterAll } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { inputsFromFixture, type RunInputs } from "../../cli/inputs.js";
import { runSession } from "../run/session.js";
import { loadCorpus } from "../corpus/load.js";
import { jsonReporter, jsonReportFrom } from "./json.js";
import { readJsonReport } from "./json-file.js";
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
    const cases = loadCorpus(join(ROOT, "cases"), lightwalletProtocol).filter((c) => ["GetBlockRange", "GetSubtreeRoots", "getrawtransaction", "GetTransaction"].includes(c.method));
    await runSession({
      ...inputs, cases, protocol: lightwalletProtocol,
      reporters: [jsonReporter(join(dir, "r.json")), { onEvent: (e) => events.push(e), finish: async () => {} }],
    });
  }, 120_000);
  afterAll(async () => {
    await inputs.network?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("validates against schemas/report.schema.json, and every divergence has caseId, method, build, kind, path and quirk", () => {
    const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "report.schema.json"), "utf8"));
    const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
    const doc = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc.divergences.length).toBeGreaterThan(0);
  });

  test("identical answers are written once and read back in full", () => {
    const doc = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { cases: { answers: { sameAs?: string }[] }[] };
    const shared = doc.cases.flatMap((c) => c.answers).filter((a) => a.sameAs !== undefined).length;
    expect(shared).toBeGreaterThan(doc.cases.length);
    expect(readJsonReport(join(dir, "r.json"))).toEqual(JSON.parse(JSON.stringify(jsonReportFrom(events))));
    const full = JSON.stringify(jsonReportFrom(events), null, 2).length;
    expect(statSync(join(dir, "r.json")).size).toBeLessThan(full / 3);
  });
});
