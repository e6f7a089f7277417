// One case through runCase with stand-in targets: what a build is measured against
// decides whether it can be judged at all.

import { describe, expect, test } from "@jest/globals";
import type { Case } from "../corpus/case.js";
import type { Build } from "../targets/config.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Fault, JsonRpcObservation } from "../targets/observation.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { limiter } from "./limit.js";
import { runCase, type Classifier, type OracleSource } from "./runner.js";

const body = (result: unknown) => new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result }));

function obs(result: unknown, fault?: Fault): JsonRpcObservation {
  return {
    transport: "jsonrpc",
    method: "getblockcount",
    httpStatus: fault ? 0 : 200,
    body: fault ? new Uint8Array(0) : body(result),
    wireBytes: 0,
    timing: { startedAt: 0, totalMs: 1 },
    ...(fault ? { fault } : {}),
  };
}

const target = (answer: JsonRpcObservation): JsonRpcTarget => ({
  url: "http://x",
  endpoint: { url: "http://x" },
  call: async () => answer,
  batch: async () => answer,
  close: async () => {},
  abort: async () => {},
});

const build = (name: string): Build => ({
  name,
  implementation: "other",
  emulated: false,
  jsonrpc: { url: "http://x" },
  concurrency: 1,
  deadlineMs: 1000,
  maxMessageBytes: 1000,
  maxStreamMessages: 10,
  maxCallBytes: 1_000_000,
  source: { file: "t", line: 1 },
});

const aCase = (expect: Case["expect"]): Case => ({
  id: "getblockcount/count",
  transport: "jsonrpc",
  method: "getblockcount",
  request: [],
  expect,
  volatile: [],
  unordered: false,
  tags: [],
  source: { file: "t", line: 1 },
});

/** `nodes`: builds backed by a node of their own (build → [node name, its answer]). */
async function run(
  c: Case,
  answers: Record<string, JsonRpcObservation>,
  oracle?: JsonRpcObservation,
  nodes: Record<string, [string, JsonRpcObservation | undefined]> = {},
  classify?: Classifier,
) {
  const builds = Object.keys(answers).map((n) => ({ ...build(n), ...(nodes[n] ? { oracle: nodes[n]![0] } : {}) }));
  const source: OracleSource | undefined = oracle ? { label: "oracle", answer: async () => oracle } : undefined;
  const nodeOracles = new Map(Object.values(nodes).map(([name, answer]): [string, OracleSource] => [name, { label: name, answer: async () => answer }]));
  return runCase(
    { case: c, request: [] },
    {
      protocol: lightwalletProtocol,
      builds,
      connections: { grpc: new Map(), jsonrpc: new Map(builds.map((b) => [b.name, target(answers[b.name]!)])) },
      ...(source ? { oracle: source } : {}),
      ...(nodeOracles.size > 0 ? { nodeOracles } : {}),
      ...(classify ? { classify } : {}),
    },
    new Map(builds.map((b) => [b.name, limiter(1)])),
  );
}

const refused: Fault = { kind: "unreachable", detail: "connect ECONNREFUSED 127.0.0.1:1" };

describe("runCase outcomes", () => {
  test("the oracle down: no build can be checked, and builds that differ show no divergence from a missing answer", async () => {
    const r = (await run(aCase({ kind: "oracle" }), { a: obs(5), b: obs(6) }, obs(undefined, refused)))!;
    expect(r.divergences).toEqual([]);
    expect(r.patches).toEqual([]);
    expect(r.outcomes).toEqual([
      expect.objectContaining({ build: "a", outcome: "unchecked", cause: "oracle" }),
      expect.objectContaining({ build: "b", outcome: "unchecked", cause: "oracle" }),
    ]);
  });

  test("a build that did not answer is unchecked, not a divergence; the one that answered is judged", async () => {
    const r = (await run(aCase({ kind: "oracle" }), { a: obs(5), b: obs(undefined, refused) }, obs(5)))!;
    expect(r.divergences).toEqual([]);
    expect(r.outcomes).toEqual([{ build: "a", outcome: "pass" }, expect.objectContaining({ build: "b", outcome: "unchecked", cause: "b", fault: refused })]);
  });

  test("one build: an agree case is unjudged; without an oracle, so is an oracle case", async () => {
    expect((await run(aCase({ kind: "agree" }), { a: obs(5) }, obs(5)))!.outcomes).toEqual([expect.objectContaining({ build: "a", outcome: "unjudged" })]);
    expect((await run(aCase({ kind: "oracle" }), { a: obs(5) }))!.outcomes).toEqual([{ build: "a", outcome: "unjudged", reason: "no oracle configured" }]);
    expect((await run(aCase({ kind: "oracle" }), { a: obs(5) }, obs(5)))!.outcomes).toEqual([{ build: "a", outcome: "pass" }]);
  });

  test("a divergence from the oracle is new without a ledger", async () => {
    const r = (await run(aCase({ kind: "oracle" }), { a: obs(6) }, obs(5)))!;
    expect(r.outcomes).toEqual([{ build: "a", outcome: "new" }]);
    expect(r.divergences.length).toBeGreaterThan(0);
  });
});

describe("builds backed by a node of their own", () => {
  test("each is measured against its node's answer, the others against the run's oracle; both answers are in the result", async () => {
    const r = (await run(aCase({ kind: "oracle" }), { real: obs(5), emulated: obs(7), wrong: obs(8) }, obs(5), {
      emulated: ["fixture", obs(7)],
      wrong: ["fixture", obs(7)],
    }))!;
    expect(r.outcomes).toEqual([
      { build: "real", outcome: "pass" },
      { build: "emulated", outcome: "pass" },
      { build: "wrong", outcome: "new" },
    ]);
    expect(r.divergences.map((d) => d.build)).toEqual(expect.arrayContaining(["wrong"]));
    expect(new Set(r.divergences.map((d) => d.build))).toEqual(new Set(["wrong"]));
    expect(r.patches.map((p) => [p.left, p.right])).toEqual([["oracle:fixture", "wrong"]]);
    expect(r.otherOracles?.map((a) => a.side)).toEqual(["oracle:fixture"]);
    expect(r.verdict?.verdict).toBe("deviant");
  });

  test("its node down leaves the case unchecked; a node that cannot derive the answer leaves the builds to each other", async () => {
    const down = (await run(aCase({ kind: "oracle" }), { real: obs(5), emulated: obs(7) }, obs(5), { emulated: ["fixture", obs(undefined, refused)] }))!;
    expect(down.outcomes?.map((x) => x.outcome)).toEqual(["unchecked", "unchecked"]);
    const silent = (await run(aCase({ kind: "oracle" }), { real: obs(5), emulated: obs(5) }, obs(5), { emulated: ["fixture", undefined] }))!;
    expect([silent.verdict?.verdict, silent.verdict?.reference, silent.outcomes?.map((x) => x.outcome)]).toEqual(["agree", "none", ["pass", "pass"]]);
  });
});

describe("a divergence between two builds, with nothing to say who is right", () => {
  // The ledger knows the answer of one build (it counts 6 where the other counts 5): the
  // divergence is that build's, whichever of the two the comparison was made from.
  const knows =
    (quirkOf: string): Classifier =>
    (d, b) =>
      b.name === quirkOf && d.right === quirkOf && d.rightValue === 6 ? "counts-one-more" : null;

  test.each([["a"], ["b"]])("the known quirk of %s is classified as that build's, seen from its side", async (quirkOf) => {
    const answers = quirkOf === "a" ? { a: obs(6), b: obs(5) } : { a: obs(5), b: obs(6) };
    const r = (await run(aCase({ kind: "agree" }), answers, undefined, {}, knows(quirkOf)))!;
    const other = quirkOf === "a" ? "b" : "a";
    expect(r.divergences.map((d) => [d.build, d.quirk, d.left, d.right, d.leftValue, d.rightValue])).toEqual([
      [quirkOf, "counts-one-more", other, quirkOf, 5, 6],
    ]);
    expect(r.outcomes!.find((x) => x.build === quirkOf)?.outcome).toBe("known");
  });

  test("a quirk neither side's ledger entry knows stays new, on the build it was found on", async () => {
    const r = (await run(aCase({ kind: "agree" }), { a: obs(5), b: obs(7) }, undefined, {}, knows("a")))!;
    expect(r.divergences.every((d) => d.quirk === null)).toBe(true);
    expect(r.outcomes!.some((x) => x.outcome === "new")).toBe(true);
  });
});
