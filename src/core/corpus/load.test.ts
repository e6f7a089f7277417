import { describe, expect, test } from "@jest/globals";
import { MAX_ALIASES, ProblemsError, formatProblem } from "../io/located-yaml.js";
import { parseCaseFile } from "./load.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

function problemsOf(text: string, name = "cases/grpc/GetBlock.yaml"): string[] {
  try {
    parseCaseFile(text, name, "grpc", lightwalletProtocol);
  } catch (e) {
    if (e instanceof ProblemsError) return e.problems.map(formatProblem);
    throw e;
  }
  throw new Error("expected problems");
}

describe("case files", () => {
  test("a valid file gives cases with ids, defaults applied and source lines", () => {
    const cases = parseCaseFile(
      [
        "method: GetBlock",
        "defaults:",
        "  tags: [happy]",
        "cases:",
        "  - id: genesis",
        '    request: { height: "${genesis}" }',
        "  - id: no-height",
        "    request: {}",
        "    expect: { error: [INVALID_ARGUMENT] }",
        "    tags: [invalid]",
      ].join("\n"),
      "cases/grpc/GetBlock.yaml",
      "grpc",
      lightwalletProtocol,
    );
    expect(cases.map((c) => [c.id, c.expect.kind, c.tags, c.source.line])).toEqual([
      ["GetBlock/genesis", "oracle", ["happy"], 5],
      ["GetBlock/no-height", "error", ["happy", "invalid"], 7],
    ]);
    expect(cases[1]?.expect).toEqual({ kind: "error", codes: ["INVALID_ARGUMENT"] });
  });

  test("a wrong field type names file, line and field", () => {
    const problems = problemsOf(["method: GetBlock", "cases:", "  - id: genesis", "    request: {}", "    unordered: maybe"].join("\n"));
    expect(problems).toEqual(["cases/grpc/GetBlock.yaml:5: cases[0].unordered: must be true or false"]);
  });

  test("a missing request and an unknown field are both reported", () => {
    const problems = problemsOf(["method: GetBlock", "cases:", "  - id: genesis", "    requets: {}"].join("\n"));
    expect(problems).toEqual(
      expect.arrayContaining([
        "cases/grpc/GetBlock.yaml:3: cases[0].request: is required",
        "cases/grpc/GetBlock.yaml:4: cases[0].requets: is not a known field",
      ]),
    );
  });

  test("a misspelt field gets the closest known name", () => {
    expect(problemsOf("method: GetBlock\ncases:\n  - id: genesis\n    request: {}\n    tag: [happy]\n")).toEqual([
      "cases/grpc/GetBlock.yaml:5: cases[0].tag: is not a known field (did you mean tags?)",
    ]);
  });

  test("a bad expectation says what is allowed", () => {
    const problems = problemsOf(["method: GetBlock", "cases:", "  - id: genesis", "    request: {}", "    expect: { error: INVALID_ARGUMENT }"].join("\n"));
    expect(problems.join("\n")).toMatch(/^cases\/grpc\/GetBlock\.yaml:5: cases\[0\]\.expect/m);
  });

  test("duplicate ids, unknown methods and a file name that does not match", () => {
    const problems = problemsOf(["method: GetBlok", "cases:", "  - id: a", "    request: {}", "  - id: a", "    request: {}"].join("\n"));
    expect(problems).toEqual([
      'cases/grpc/GetBlock.yaml:1: method: unknown grpc method "GetBlok"',
      'cases/grpc/GetBlock.yaml:1: method: must equal the file name ("GetBlock")',
      'cases/grpc/GetBlock.yaml:5: cases[1].id: duplicate id "a" (first at line 3)',
    ]);
  });

  test("YAML syntax errors carry their line", () => {
    const problems = problemsOf("method: GetBlock\ncases:\n  - id: a\n    request: {\n");
    expect(problems[0]).toMatch(/^cases\/grpc\/GetBlock\.yaml:\d+: YAML syntax: /);
  });

  test("a protocol range that is not a semver range is reported where it stands", () => {
    const problems = problemsOf(["method: GetBlock", "cases:", "  - id: a", "    request: {}", "    protocol: v0.4.1 or later"].join("\n"));
    expect(problems).toEqual(['cases/grpc/GetBlock.yaml:5: cases[0].protocol: not a semver range of protocol versions: "v0.4.1 or later" (e.g. ">=0.4.1")']);
  });

  test("openEnded is for server streams only, and says where it was declared", () => {
    expect(problemsOf(["method: GetBlock", "cases:", "  - id: a", "    request: {}", "    openEnded: { quietMs: 1000 }"].join("\n"))).toEqual([
      "cases/grpc/GetBlock.yaml:5: cases[0].openEnded: only a server-streaming rpc can be open-ended; GetBlock is unary",
    ]);
    const [c] = parseCaseFile(
      "method: GetMempoolStream\ndefaults:\n  openEnded: { quietMs: 1500 }\ncases:\n  - id: a\n    request: {}\n",
      "cases/grpc/GetMempoolStream.yaml",
      "grpc",
      lightwalletProtocol,
    );
    expect(c!.openEnded).toEqual({ quietMs: 1500 });
  });

  test("cancelAfter is for server streams only; sameAnswerAs names another case of the file", () => {
    expect(
      problemsOf(
        [
          "method: GetBlock",
          "cases:",
          "  - id: a",
          "    request: {}",
          "    cancelAfter: 1",
          "  - id: b",
          "    request: { height: 1 }",
          '    sameAnswerAs: { case: c, why: "no such case here" }',
        ].join("\n"),
      ),
    ).toEqual([
      "cases/grpc/GetBlock.yaml:5: cases[0].cancelAfter: only a gRPC server stream can be cancelled mid-way; GetBlock is unary",
      'cases/grpc/GetBlock.yaml:8: cases[1].sameAnswerAs.case: no case "c" in this file',
    ]);
    const [c, d] = parseCaseFile(
      [
        "method: GetBlockRange",
        "cases:",
        "  - id: a",
        "    request: {}",
        "    cancelAfter: 2",
        "  - id: b",
        "    request: { start: { height: 1 } }",
        '    sameAnswerAs: { case: a, why: "the same first two blocks" }',
      ].join("\n"),
      "cases/grpc/GetBlockRange.yaml",
      "grpc",
      lightwalletProtocol,
    );
    expect(c!.cancelAfter).toBe(2);
    expect(d!.sameAnswerAs).toEqual({ case: "GetBlockRange/a", why: "the same first two blocks" });
  });

  test("deadlineMs is for gRPC calls, within 10 ms .. 60 s", () => {
    const [c] = parseCaseFile(
      "method: GetMempoolStream\ncases:\n  - id: a\n    request: {}\n    deadlineMs: 100\n",
      "cases/grpc/GetMempoolStream.yaml",
      "grpc",
      lightwalletProtocol,
    );
    expect(c!.deadlineMs).toBe(100);
    expect(() =>
      parseCaseFile("method: getinfo\ncases:\n  - id: a\n    request: []\n    deadlineMs: 100\n", "cases/jsonrpc/getinfo.yaml", "jsonrpc", lightwalletProtocol),
    ).toThrow("cases/jsonrpc/getinfo.yaml:5: cases[0].deadlineMs: only a gRPC call carries a deadline (grpc-timeout)");
    expect(problemsOf("method: GetMempoolStream\ncases:\n  - id: a\n    request: {}\n    deadlineMs: 5\n", "cases/grpc/GetMempoolStream.yaml")).toEqual([
      "cases/grpc/GetMempoolStream.yaml:5: cases[0].deadlineMs: must be >= 10",
    ]);
  });

  test("unorderedKeys is for JSON-RPC answers, and is kept on the case", () => {
    expect(problemsOf(["method: GetBlock", "cases:", "  - id: genesis", "    request: {}", "    unorderedKeys: [vtx]"].join("\n"))).toEqual([
      "cases/grpc/GetBlock.yaml:5: cases[0].unorderedKeys: unorderedKeys names objects of a JSON-RPC answer; a gRPC message has no key order (use unordered for a stream's messages)",
    ]);
    const [c] = parseCaseFile(
      "method: getrawmempool\ncases:\n  - id: verbose\n    request: [true]\n    unorderedKeys: [result]\n",
      "cases/jsonrpc/getrawmempool.yaml",
      "jsonrpc",
      lightwalletProtocol,
    );
    expect(c?.unorderedKeys).toEqual(["result"]);
  });

  test("JSON-RPC requests must be params arrays", () => {
    expect(() =>
      parseCaseFile("method: getblock\ncases:\n  - id: a\n    request: {x: 1}\n", "cases/jsonrpc/getblock.yaml", "jsonrpc", lightwalletProtocol),
    ).toThrow("cases/jsonrpc/getblock.yaml:4: cases[0].request: must be the positional params array");
  });

  // Found by fuzzing (test/fuzz/case-loader.test.ts): the yaml library reports these only
  // as a bare ReferenceError from toJS, which escaped the loader.
  test("an alias to an anchor defined later, and an alias bomb, are problems with a line", () => {
    expect(problemsOf("method: GetBlock\ncases:\n  - id: a\n    request: *later\n  - id: b\n    request: &later {}\n")).toEqual([
      "cases/grpc/GetBlock.yaml:4: cases[0].request: YAML alias *later has no anchor &later before it",
    ]);
    const bomb = ["x:", "  - &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
    for (let i = 1; i < 9; i++) bomb.push(`  - &b${i} [${Array.from({ length: 10 }, () => `*b${i - 1}`).join(", ")}]`);
    const t0 = performance.now();
    const problems = problemsOf(`method: GetBlock\ncases:\n  - { id: a, request: {} }\n${bomb.join("\n")}\n`);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(problems).toEqual([`cases/grpc/GetBlock.yaml:6: x[2][8][1]: more than ${MAX_ALIASES} YAML aliases (*name); write the values out`]);
  });
});
