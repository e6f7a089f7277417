import { describe, expect, test } from "@jest/globals";
import type { RunEvent } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { renderCharts } from "./html-charts.js";
import { clip, htmlDataFrom, MAX_HEX_CHARS } from "./html-data.js";
import { pageData } from "./html-page-data.test-helper.js";
import { caseStatus, esc, matrixOf } from "./html-render.js";
import { htmlReportFrom } from "./html.js";
import { jsonReportFrom, type JsonReport } from "./json.js";

const EVIL = `</script><script>alert(1)</script><!-- \u2028\u2029 & "'`;

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
const answer = (side: string, hex: string[] = ["0a0b"], json: unknown = { height: "1" }) => ({
  side,
  transport: "grpc" as const,
  status: "OK",
  code: null,
  message: "",
  count: hex.length,
  wireBytes: 2,
  ms: 1,
  hex,
  json: json as never,
});

function report(cases: CaseResult[]): JsonReport {
  const events: RunEvent[] = [
    {
      type: "run-start",
      schemaVersion: 1,
      tool: { name: "zconform", version: "0.0.0" },
      startedAt: "2026-01-01T00:00:00.000Z",
      chain: "fixture",
      oracle: "http://127.0.0.1:1/",
      builds: [
        { name: "a", implementation: "zaino", emulated: true, grpc: "http://127.0.0.1:2" },
        { name: EVIL, implementation: "other", emulated: false },
      ],
      conditions: [],
      cases: cases.length,
    },
    ...cases.map((r, i): RunEvent => ({ type: "case-result", result: r, done: i + 1, total: cases.length, index: i })),
  ];
  return jsonReportFrom(events);
}

describe("older protocol versions", () => {
  test("the oracle's answer under older rules is embedded like any answer, for the drill-down to show", () => {
    const older = answer("oracle@v0.4.0", ["0c0d"], { height: "2" });
    const data = htmlDataFrom(report([result({ answers: [answer("a")], oracle: answer("oracle"), otherOracles: [older] })]));
    const shown = data.cases[0]!.otherOracles![0]!;
    expect(shown.side).toBe("oracle@v0.4.0");
    expect(shown.hex.map((i) => data.blobs[i])).toEqual(["0c0d"]);
    expect(data.blobs[shown.json as number]).toEqual({ height: "2" });
  });
});

describe("embedding data in the page", () => {
  test("no run data reaches the markup unescaped, and the embedded data unpacks to what the run said", () => {
    const html = htmlReportFrom(report([result({ caseId: EVIL, title: EVIL, tags: [EVIL], answers: [answer("a")], request: { evil: EVIL } })]));
    expect(html).not.toContain("<script>alert(1)");
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(esc(`<a href="x">'`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;");
    const data = pageData(html);
    expect(data.cases[0]!.caseId).toBe(EVIL);
    expect(data.cases[0]!.request).toEqual({ evil: EVIL });
  });

  test("self-contained: no external resource, a policy that forbids fetching any", () => {
    const html = htmlReportFrom(report([result({ answers: [answer("a")] })]));
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;`);
    // url(#…) names a pattern of the page's own charts; any other url( would fetch.
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=|@import|url\((?!#chart-)/i);
    expect(html).toContain("url(#chart-outcomes-");
  });

  test("identical messages are stored once, across answers and cases; large answers are cut with a note", () => {
    const big = "ab".repeat(MAX_HEX_CHARS);
    const data = htmlDataFrom(
      report([
        result({ answers: [answer("a"), answer(EVIL), answer("c", [big])], oracle: answer("oracle") }),
        result({ caseId: "GetBlock/y", answers: [answer("a", ["0a0b", "0c0d"], [{ height: "1" }, { height: "2" }])] }),
      ]),
    );
    const [a, b, c] = data.cases[0]!.answers;
    expect(a!.hex).toEqual(b!.hex);
    expect(data.cases[0]!.oracle!.json).toBe(a!.json);
    // The second case's first message is the first case's answer: one blob each for its hex and its JSON.
    const [two] = data.cases[1]!.answers;
    expect(two!.hex[0]).toBe(a!.hex[0]);
    expect((two!.json as number[])[0]).toBe(a!.json);
    expect((two!.json as number[]).map((i) => data.blobs[i])).toEqual([{ height: "1" }, { height: "2" }]);
    expect(data.blobs[c!.hex[0]!]).toHaveLength(MAX_HEX_CHARS);
    expect(c!.truncated).toMatch(/of 262144 bytes shown/);
    expect(clip("x".repeat(5000))).toMatch(/… \(2952 more characters\)$/);
  });

  test("reproduce commands per build from its endpoint, none for a build without one", () => {
    const data = htmlDataFrom(report([result({ answers: [answer("a"), answer(EVIL)], request: { height: "1" } })]));
    expect(data.cases[0]!.reproduce.a!.map((c) => c.tool)).toEqual(["grpcurl", "buf curl"]);
    expect(data.cases[0]!.reproduce[EVIL]).toEqual([]);
  });
});

describe("matrix and statuses", () => {
  const d = { path: "p", left: "oracle", detail: "", caseId: "c", method: "GetBlock", transport: "grpc" as const, kind: "value" as const };
  const cases = [
    result({
      caseId: "c1",
      answers: [answer("a"), answer("b")],
      divergences: [
        { ...d, right: "a", build: "a", quirk: null },
        { ...d, right: "b", build: "b", quirk: "q" },
      ],
    }),
    result({ caseId: "c2", answers: [answer("a"), answer("b")], divergences: [{ ...d, right: "b", build: "b", quirk: "q" }] }),
    result({ caseId: "c3", method: "getinfo", transport: "jsonrpc", answers: [answer("b")] }),
  ];
  const builds = [
    { name: "a", implementation: "x", emulated: true },
    { name: "b", implementation: "y", emulated: false },
  ];

  test("per method and build: new, known and answered counts; undefined where not served", () => {
    const m = matrixOf(builds, cases);
    expect(m.map((r) => r.method)).toEqual(["GetBlock", "getinfo"]);
    expect(m[0]!.cells).toEqual([
      { ran: 2, fresh: 1, known: 0, unchecked: 0, unjudged: 0 },
      { ran: 2, fresh: 0, known: 2, unchecked: 0, unjudged: 0 },
    ]);
    expect(m[1]!.cells[0]).toBeUndefined();
  });

  test("per case and build", () => {
    expect(caseStatus(cases[0]!, "a")).toBe("new");
    expect(caseStatus(cases[0]!, "b")).toBe("known");
    expect(caseStatus(cases[1]!, "a")).toBe("ok");
    expect(caseStatus(cases[2]!, "a")).toBe("none");
    expect(caseStatus(result({ skipped: "no anchor" }), "a")).toBe("skipped");
  });

  test("the outcome chart counts each build's cases by the statuses the matrix shows, and the time chart has a row per build", () => {
    const charts = renderCharts(builds, cases);
    const rows = (id: string) => {
      const fig = new RegExp(`<figure class="chart" id="${id}">[\\s\\S]*?</figure>`).exec(charts)![0];
      return [...fig.matchAll(/<tr><th scope="row">([^<]*)<\/th>((?:<td>[^<]*<\/td>)*)<\/tr>/g)].map((m) => [
        m[1],
        ...[...m[2]!.matchAll(/<td>([^<]*)<\/td>/g)].map((c) => c[1]),
      ]);
    };
    // pass, known, new, could not check, unjudged, total: a is new on c1 and passes c2; b is known on c1 and c2 and passes c3.
    expect(rows("chart-outcomes")).toEqual([
      ["a (EMU)", "1 (50%)", "0 (0%)", "1 (50%)", "0 (0%)", "0 (0%)", "2"],
      ["b", "1 (33%)", "2 (67%)", "0 (0%)", "0 (0%)", "0 (0%)", "3"],
    ]);
    expect(rows("chart-times").map((r) => r.slice(0, 2))).toEqual([
      ["a", "2"],
      ["b", "3"],
    ]);
    expect(charts).toContain("Answer times by method (2 methods, one chart each)");
  });

  test("a build that could not be checked, or had nothing to be measured against, is never ok", () => {
    const down = result({
      caseId: "c4",
      answers: [{ ...answer("a"), status: "fault:unreachable", fault: { kind: "unreachable", detail: "connect ECONNREFUSED" } }],
      outcomes: [{ build: "a", outcome: "unchecked", cause: "a", fault: { kind: "unreachable", detail: "connect ECONNREFUSED" } }],
    });
    const alone = result({
      caseId: "c5",
      answers: [answer("a")],
      outcomes: [{ build: "a", outcome: "unjudged", reason: "an agree case needs a second build" }],
    });
    expect(caseStatus(down, "a")).toBe("unchecked");
    expect(caseStatus(alone, "a")).toBe("unjudged");
    expect(matrixOf(builds, [down, alone])[0]!.cells[0]).toEqual({ ran: 2, fresh: 0, known: 0, unchecked: 1, unjudged: 1 });
  });
});
