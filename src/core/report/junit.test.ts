import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { RunEvent } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { reportContext } from "./context.js";
import { fixtureRun, type FixtureRun } from "../../../test/tools/fixture-run.js";
import { jsonReportFrom, jsonReporter, type JsonReport } from "./json.js";
import { junitReporter, junitXmlFrom, xmlAttr, xmlText } from "./junit.js";

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => ["testsuite", "testcase", "property"].includes(name) });

interface XmlCase {
  classname: string;
  name: string;
  time: string;
  failure?: { message: string; "#text"?: string };
  error?: { message: string; type: string; "#text"?: string };
  skipped?: unknown;
  "system-out"?: string;
}
interface XmlSuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  time: string;
  testcase: XmlCase[];
}

function parse(xml: string): { testsuites: XmlSuite[]; root: Record<string, string> } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = parser.parse(xml) as { testsuites: Record<string, string> & { testsuite: XmlSuite[] } };
  return { testsuites: doc.testsuites.testsuite, root: doc.testsuites };
}

function result(over: Partial<CaseResult>): CaseResult {
  return {
    caseId: "GetBlock/x",
    method: "GetBlock",
    transport: "grpc",
    expect: "oracle",
    tags: [],
    source: "cases/grpc/GetBlock.yaml:1",
    answers: [],
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
    ...over,
  };
}

function report(cases: CaseResult[]): JsonReport {
  const events: RunEvent[] = [
    {
      type: "run-start",
      schemaVersion: 1,
      tool: { name: "zconform", version: "0.0.0" },
      startedAt: "2026-01-01T00:00:00.000Z",
      chain: "fixture",
      builds: [
        { name: "a", implementation: "zaino", emulated: true },
        { name: "b", implementation: "other", emulated: false },
      ],
      conditions: [],
      cases: cases.length,
    },
    ...cases.map((r, i): RunEvent => ({ type: "case-result", result: r, done: i + 1, total: cases.length, index: i })),
    {
      type: "run-end",
      summary: {
        cases: cases.length,
        skipped: 0,
        verdicts: {},
        outcomes: { pass: 0, known: 0, new: 0, unchecked: 0, unjudged: 0 },
        unchecked: [],
        divergences: 0,
        newDivergences: 0,
        known: 0,
        stale: [],
        expired: [],
        durationMs: 1234,
      },
      partial: false,
      finishedAt: "2026-01-01T00:00:01.000Z",
      exitCode: 0,
    },
  ];
  return jsonReportFrom(events);
}

const answer = (side: string, ms = 12) => ({
  side,
  transport: "grpc" as const,
  status: "OK",
  code: null,
  message: "",
  count: 1,
  wireBytes: 3,
  ms,
  hex: ["0a0b0c"],
});

describe("junitXmlFrom", () => {
  test("escapes markup, quotes and characters XML 1.0 cannot carry", () => {
    expect(xmlText("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
    expect(xmlAttr(`"x'\n\t`)).toBe("&quot;x'&#10;&#9;");
    expect(xmlText("bell\u0007 nul\u0000 oké \ud83d\ude00 lone\ud800")).toBe("bell\\u0007 nul\\u0000 oké \ud83d\ude00 lone\\ud800");
    const nasty = ']]></failure><x a="1">\u0001</script>';
    const xml = junitXmlFrom(
      report([
        result({
          caseId: nasty,
          answers: [answer("a")],
          divergences: [
            {
              kind: "value",
              path: "vtx[0].fee",
              left: "oracle",
              right: "a",
              leftValue: nasty,
              rightValue: "</system-out>",
              detail: "d\u0002",
              caseId: nasty,
              method: "GetBlock",
              transport: "grpc",
              build: "a",
              quirk: null,
            },
          ],
        }),
      ]),
    );
    const { testsuites } = parse(xml);
    const tc = testsuites[0]!.testcase[0]!;
    expect(tc.name).toBe(`${nasty.replace("\u0001", "\\u0001")} [a]`);
    expect(tc.failure!.message).toBe("value vtx[0].fee");
    expect(tc.failure!["#text"]).toContain("</system-out>");
  });

  test("failure for new divergences, system-out for known ones, skipped, error for faults", () => {
    const d = { path: "vtx", left: "oracle", detail: "", caseId: "GetBlock/x", method: "GetBlock", transport: "grpc" as const };
    const xml = junitXmlFrom(
      report([
        result({
          answers: [answer("a"), answer("b")],
          divergences: [
            { ...d, kind: "count", right: "a", build: "a", quirk: null, leftValue: 2, rightValue: 1 },
            { ...d, kind: "missing-field", right: "b", build: "b", quirk: "zaino-no-vin" },
          ],
          patches: [{ left: "oracle", right: "a", ops: [{ op: "remove", path: "/vtx/1", old: 1 }] }],
        }),
        result({ caseId: "GetBlock/skipped", skipped: 'chain "fixture" has no anchor "x"' }),
        result({
          caseId: "GetBlock/down",
          answers: [{ ...answer("a"), status: "fault:timeout", fault: { kind: "timeout", detail: "30 s" } }],
          divergences: [{ ...d, caseId: "GetBlock/down", kind: "error-vs-ok", right: "a", build: "a", quirk: null }],
        }),
      ]),
      { context: { quirks: [{ id: "zaino-no-vin", title: "No transparent inputs", kind: "missing-field", reference: "spec §3", status: "open" }] } },
    );
    const { testsuites, root } = parse(xml);
    const grpc = testsuites.find((s) => s.name === "grpc.GetBlock")!;
    expect([grpc.tests, grpc.failures, grpc.errors, grpc.skipped]).toEqual(["4", "1", "1", "1"]);
    expect(root.tests).toBe("5"); // 4 + the ledger testcase
    const [a, b, skipped, down] = grpc.testcase;
    expect(a!.classname).toBe("GetBlock");
    expect(a!.failure!["#text"]).toContain("JSON Patch oracle → a");
    expect(a!.failure!["#text"]).toContain("remove  /vtx/1");
    expect(b!.failure).toBeUndefined();
    expect(b!["system-out"]).toContain("known quirk zaino-no-vin (No transparent inputs; spec §3)");
    expect(skipped!.skipped).toBeDefined();
    expect(down!.error).toBeDefined();
    expect(Number(root.time)).toBeCloseTo(1.234);
  });

  test("a case the chain moved through on every attempt is an error naming why, with the differences it kept aside", () => {
    const d = { path: "height", left: "oracle", detail: "", caseId: "GetLatestBlock/tip", method: "GetLatestBlock", transport: "grpc" as const };
    const moved = { ...d, kind: "value" as const, right: "a", build: "a", quirk: null, leftValue: 301, rightValue: 300 };
    const reason = "the chain moved during each of its 6 attempts: no answer was taken at one tip to compare";
    const xml = junitXmlFrom(
      report([
        result({
          caseId: "GetLatestBlock/tip",
          method: "GetLatestBlock",
          answers: [answer("a")],
          outcomes: [{ build: "a", outcome: "unchecked", cause: "chain", reason }],
          reasked: { because: "the chain moved", attempts: 6, firstDivergences: 1, stillMoving: true, unsettled: [moved] },
        }),
      ]),
    );
    const grpc = parse(xml).testsuites.find((s) => s.name === "grpc.GetLatestBlock")!;
    expect([grpc.tests, grpc.failures, grpc.errors]).toEqual(["1", "0", "1"]);
    const error = grpc.testcase[0]!.error!;
    expect(error.message).toBe(`could not check: a: ${reason}`);
    expect(error.type).toBe("unchecked:chain");
    expect(error["#text"]).toContain("height");
  });

  test("the ledger testcase fails on expired entries and, unless allowed, stale ones", () => {
    const r = report([]);
    r.summary = { ...r.summary!, stale: [{ quirk: "q1", reason: "never showed" }] };
    const failing = parse(junitXmlFrom(r)).testsuites.find((s) => s.name === "ledger")!;
    expect(failing.failures).toBe("1");
    const allowed = parse(junitXmlFrom(r, { allowStale: true })).testsuites.find((s) => s.name === "ledger")!;
    expect(allowed.failures).toBe("0");
    expect(allowed.testcase[0]!["system-out"]).toContain("stale: q1");
  });
});

describe("junitReporter on a real run", () => {
  let run: FixtureRun;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zconform-junit-"));
    // Reporters need the context of the run they write, so they are made after a first look at the config.
    run = await fixtureRun({
      profiles: ["reference", "zaino-0.10.1", "ztreamer-v0.1.0"],
      filter: { method: ["GetBlock", "GetLightdInfo", "GetSubtreeRoots", "getblockcount", "getblock"] },
    });
    const reporters = [jsonReporter(join(dir, "r.json")), junitReporter(join(dir, "r.xml"), { context: reportContext(run.ledger, run.config) })];
    for (const e of run.events) for (const r of reporters) r.onEvent(e);
    for (const r of reporters) await r.finish();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("counts the same cases, answers and new divergences as the JSON report", () => {
    const json = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as JsonReport;
    const { testsuites, root } = parse(readFileSync(join(dir, "r.xml"), "utf8"));
    const cases = testsuites.filter((s) => s.name !== "ledger").flatMap((s) => s.testcase);
    const ran = json.cases.filter((c) => !c.skipped);
    expect(cases.filter((c) => c.skipped === undefined)).toHaveLength(ran.reduce((n, c) => n + c.answers.length, 0));
    expect(cases.filter((c) => c.skipped !== undefined)).toHaveLength(json.cases.length - ran.length);
    const ids = new Set(cases.map((c) => c.name.replace(/ \[[^\]]+\]$/, "")));
    expect(ids.size).toBe(json.cases.length);
    const failing = new Set(json.divergences.filter((d) => d.quirk === null).map((d) => `${d.caseId} [${d.build}]`));
    expect(
      cases
        .filter((c) => c.failure || c.error)
        .map((c) => c.name)
        .sort(),
    ).toEqual([...failing].sort());
    expect(Number(root.tests)).toBe(cases.length + 1);
    for (const s of testsuites) expect(Number(s.tests)).toBe(s.testcase.length);
  });
});
