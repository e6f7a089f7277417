import { describe, expect, test } from "@jest/globals";
import { join } from "node:path";
import { loadCorpus } from "../corpus/load.js";
import { SHIPPED_CASES } from "../corpus/shipped.js";
import { formatProblem, ProblemsError } from "../io/located-yaml.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { loadScenarios, parseScenarioFile } from "./load.js";

const corpus = loadCorpus(SHIPPED_CASES, lightwalletProtocol);
const ctx = { methods: lightwalletProtocol, corpus };
const FILE = "cases/scenarios/demo.yaml";

function problemsOf(lines: string[]): string[] {
  try {
    parseScenarioFile(lines.join("\n"), FILE, ctx);
  } catch (e) {
    if (e instanceof ProblemsError) return e.problems.map(formatProblem);
    throw e;
  }
  throw new Error("expected problems");
}

describe("scenario files", () => {
  test("a valid file gives its steps, their actions and checks, each with its line", () => {
    const s = parseScenarioFile(
      [
        "id: demo",
        "convergeMs: 2000",
        "steps:",
        "  - send: [t1, t2]",
        "  - mine: 2",
        "    checks:",
        "      - case: GetLatestBlock/tip",
        '      - { id: tip-block, rpc: GetBlock, request: { height: "${tip}" }, deadlineMs: 900 }',
        "  - open: { stream: s1, rpc: GetMempoolStream, pauseAfter: 1 }",
        "  - reorg: { depth: 1, include: [t1] }",
        "  - read: s1",
        "  - wait: { until: tip }",
      ].join("\n"),
      FILE,
      ctx,
    );
    expect(s.steps.map((st) => st.action.kind)).toEqual(["send", "mine", "open", "reorg", "read", "wait-tip"]);
    expect(s.steps[1]!.checks.map((c) => [c.id, c.case.id, c.deadlineMs, c.source.line])).toEqual([
      ["GetLatestBlock/tip", "GetLatestBlock/tip", 2000, 7],
      ["tip-block", "GetBlock/scenario.demo.tip-block", 900, 8],
    ]);
    expect(s.steps[2]!.action).toMatchObject({ kind: "open", stream: "s1", pauseAfter: 1, check: { case: { method: "GetMempoolStream", transport: "grpc" } } });
    expect(s.steps[3]!.action).toEqual({ kind: "reorg", depth: 1, include: ["t1"] });
    expect(s.steps[4]!.action).toEqual({ kind: "read", stream: "s1", deadlineMs: 2000 });
  });

  test("a misspelt field, rpc or corpus case names the line and the nearest known name", () => {
    expect(problemsOf(["id: demo", "steps:", "  - mine: 1", "    check: []"])).toEqual([
      `${FILE}:4: steps[0].check: is not a known field (did you mean checks?)`,
    ]);
    expect(problemsOf(["id: demo", "steps:", "  - mine: 1", "    checks:", "      - case: GetLatestBlock/tpi", "      - { id: b, rpc: GetBlok }"])).toEqual([
      `${FILE}:5: steps[0].checks[0].case: no corpus case "GetLatestBlock/tpi" (did you mean GetLatestBlock/tip?)`,
      `${FILE}:6: steps[0].checks[1].rpc: unknown gRPC rpc "GetBlok" (did you mean GetBlock?)`,
    ]);
  });

  test("names are checked in step order: a transaction before it is sent, a stream that is not open, a stream never read", () => {
    expect(
      problemsOf([
        "id: demo",
        "steps:",
        "  - reorg: { depth: 1, include: [t1] }",
        "  - send: t1",
        "  - read: s2",
        "  - open: { stream: s1, rpc: GetMempoolStream }",
        "  - open: { stream: s3, rpc: GetBlock }",
        "  - close: s3",
      ]),
    ).toEqual([
      `${FILE}:3: steps[0].reorg.include[0]: no transaction "t1" was sent before this step`,
      `${FILE}:5: steps[2].read: no stream "s2" is open at this step`,
      `${FILE}:7: steps[4].open.rpc: GetBlock is not a gRPC server stream: only a stream can be held open`,
      `${FILE}:6: steps[3].open.stream: stream "s1" is never read or closed`,
    ]);
  });

  test("a step has exactly one action, and the file is named after its id", () => {
    expect(problemsOf(["id: other", "steps:", "  - { mine: 1, send: t1 }", "  - checks: []"])).toEqual([
      `${FILE}:1: id: must equal the file name ("demo")`,
      `${FILE}:3: steps[0]: has mine and send: one action per step`,
      `${FILE}:4: steps[1]: needs one action: mine, send, reorg, wait, open, read, close`,
    ]);
  });

  test("the shipped scenarios load", () => {
    const scenarios = loadScenarios(SHIPPED_CASES, ctx);
    expect(scenarios.length).toBeGreaterThan(0);
    expect(loadScenarios(join(SHIPPED_CASES, "grpc"), ctx)).toEqual([]);
  });
});
