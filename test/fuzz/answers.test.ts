// Fuzzing what happens to answers after they arrive: canonical forms, comparisons,
// verdicts and the report form (judgeCase, as the runner calls it), for every output
// schema of CompactTxStreamer and for JSON-RPC bodies. Inputs: valid messages of the
// schema (random field values), the same mutated byte by byte, random bytes, and for
// JSON-RPC random JSON, mutated real-shaped bodies and hostile nesting; and random JSON
// values written two ways (number spellings, escapes, key order, repeated keys,
// whitespace), which must compare as encoding-only and never pass.
//
// An answer is data, not an error: whatever the bytes, these functions must return.
// "Clear" here means that what could not be read says where: a gRPC message that does
// not decode becomes `{"$undecodable": {offset, reason, bytes}}` with the offset inside
// the message, and a JSON-RPC body that is not (comparable) JSON keeps its bytes with a
// `notJson` reason. The judgement must serialize as the JSON report does.

import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { create, ScalarType, toBinary, type DescField, type DescMessage, type DescMethod, type JsonValue } from "@bufbuild/protobuf";
import { canonOf } from "../../src/core/canon/index.js";
import type { Case, Expectation } from "../../src/core/corpus/case.js";
import { compareObservations } from "../../src/core/diff/compare.js";
import { CompactTxStreamer } from "../../src/zcash/gen/walletrpc/service_pb.js";
import { judgeCase } from "../../src/core/run/judge.js";
import { verdictOf } from "../../src/core/diff/verdict.js";
import type { PlannedCase } from "../../src/core/run/plan.js";
import type { Fault, GrpcObservation, JsonRpcObservation, Observation } from "../../src/core/targets/observation.js";
import { fuzz, FUZZ_RUNS, mutatedBytes } from "./fuzz.js";

const METHODS = CompactTxStreamer.methods;
const streams = (m: DescMethod) => m.methodKind === "server_streaming";

// ---------------------------------------------------------------------------------
// Valid messages of any schema, with random field values.

function scalarArb(t: ScalarType): fc.Arbitrary<unknown> {
  switch (t) {
    case ScalarType.STRING:
      return fc.string({ maxLength: 24 });
    case ScalarType.BYTES:
      return fc.uint8Array({ maxLength: 48 });
    case ScalarType.BOOL:
      return fc.boolean();
    case ScalarType.DOUBLE:
      return fc.double();
    case ScalarType.FLOAT:
      return fc.float();
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return fc.integer({ min: 0, max: 0xffffffff });
    default:
      return fc.integer({ min: -0x80000000, max: 0x7fffffff });
  }
}

function valueArb(f: DescField, depth: number): fc.Arbitrary<unknown> | undefined {
  switch (f.fieldKind) {
    case "scalar":
      return scalarArb(f.scalar);
    case "enum":
      return fc.constantFrom(...f.enum.values.map((v) => v.number));
    case "message":
      return depth < 3 ? messageInit(f.message, depth + 1) : undefined;
    case "list": {
      const item =
        f.listKind === "scalar"
          ? scalarArb(f.scalar)
          : f.listKind === "enum"
            ? fc.constantFrom(...f.enum.values.map((v) => v.number))
            : depth < 3
              ? messageInit(f.message, depth + 1)
              : undefined;
      return item ? fc.array(item, { maxLength: 3 }) : undefined;
    }
    case "map":
      return undefined;
  }
}

function messageInit(schema: DescMessage, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of schema.fields) {
    if (f.oneof) continue; // the schemas here have none; keep the generator simple
    const a = valueArb(f, depth);
    if (a) parts[f.localName] = a;
  }
  return fc.record(parts, { requiredKeys: [] });
}

const validCache = new Map<DescMessage, fc.Arbitrary<Uint8Array>>();
function validBytes(schema: DescMessage): fc.Arbitrary<Uint8Array> {
  let a = validCache.get(schema);
  if (!a) {
    a = messageInit(schema).map((init) => toBinary(schema, create(schema, init as never)));
    validCache.set(schema, a);
  }
  return a;
}

/** One message: valid, valid then mutated, or random bytes. */
function messageBytes(schema: DescMessage): fc.Arbitrary<Uint8Array> {
  const valid = validBytes(schema);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: valid.chain((b) => mutatedBytes([b])) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 96 }) },
  );
}

const FAULTS: Fault[] = [
  { kind: "timeout", detail: "no complete answer within 10 ms" },
  { kind: "reset", detail: "stream reset" },
  { kind: "malformed-frame", detail: "frame 0: invalid flag" },
  { kind: "too-long", detail: "more than 3 messages" },
];

function grpcObsArb(m: DescMethod): fc.Arbitrary<GrpcObservation> {
  return fc
    .record({
      code: fc.constantFrom(0, 0, 0, 0, 3, 5, 13, 14),
      message: fc.oneof(fc.constant(""), fc.string({ maxLength: 20 })),
      messages: fc.array(messageBytes(m.output), { maxLength: streams(m) ? 3 : 2 }),
      fault: fc.option(fc.constantFrom(...FAULTS), { freq: 6, nil: undefined }),
    })
    .map((o) => ({
      transport: "grpc" as const,
      method: m.name,
      code: o.fault && o.code === 0 ? 13 : o.code,
      message: o.message,
      messages: o.messages,
      headers: {},
      trailers: {},
      wireBytes: o.messages.reduce((n, b) => n + 5 + b.length, 0),
      timing: { startedAt: 0, totalMs: 1 },
      ...(o.fault ? { fault: o.fault } : {}),
    }));
}

/** Paths a case may declare volatile for this rpc: top-level fields, and the status text. */
function volatilePaths(m: DescMethod): string[] {
  const prefix = streams(m) ? "[*]." : "";
  return ["status.message", ...m.output.fields.map((f) => `${prefix}${f.jsonName}`)];
}

const EXPECTS: Expectation[] = [{ kind: "oracle" }, { kind: "agree" }, { kind: "error", codes: ["INVALID_ARGUMENT", "NOT_FOUND"] }];

function caseOf(transport: "grpc" | "jsonrpc", method: string, expect: Expectation, volatile: string[], unordered: boolean): Case {
  return {
    id: `${method}/fuzz`,
    transport,
    method,
    request: transport === "grpc" ? {} : [],
    expect,
    volatile,
    unordered,
    tags: [],
    source: { file: "fuzz.yaml", line: 1 },
  };
}

/** What the report shows of an undecodable message must say where it broke. */
function checkUndecodable(json: JsonValue | undefined, messages: Uint8Array[]): void {
  const list = Array.isArray(json) ? json : [json];
  list.forEach((j) => {
    if (j === null || typeof j !== "object" || Array.isArray(j) || !("$undecodable" in j)) return;
    const u = j.$undecodable as { offset?: number; reason?: string; bytes?: string };
    if (typeof u.reason !== "string" || u.reason.length === 0) throw new Error(`undecodable message without a reason: ${JSON.stringify(u)}`);
    const longest = Math.max(...messages.map((b) => b.length));
    if (u.offset !== undefined && (!Number.isInteger(u.offset) || u.offset < 0 || u.offset > longest))
      throw new Error(`undecodable offset ${u.offset} outside the message`);
  });
}

function judgeAll(pc: PlannedCase, builds: Observation[], oracle: Observation | undefined): void {
  const observations = new Map(builds.map((o, i) => [`b${i}`, o]));
  const j = judgeCase(pc, observations, oracle);
  // The JSON reporter writes exactly this; it must not throw (no bigint, no cycle).
  JSON.stringify(j);
  for (const a of [...j.answers, ...(j.oracle ? [j.oracle] : [])]) {
    const obs = a.side === "oracle" ? oracle! : observations.get(a.side)!;
    if (obs.transport === "grpc") checkUndecodable(a.json, obs.messages);
  }
  if (builds.length >= 2) {
    const opts = pc.rpc ? { method: pc.rpc } : {};
    const c = compareObservations(builds[0]!, builds[1]!, { left: "b0", right: "b1", volatile: pc.case.volatile, unordered: pc.case.unordered, ...opts });
    JSON.stringify(c.patch);
    if (!c.identical && c.divergences.length === 0 && canonDiffers(builds[0]!, builds[1]!, pc))
      throw new Error("answers differ but no divergence was reported");
  }
}

function canonDiffers(a: Observation, b: Observation, pc: PlannedCase): boolean {
  const opts = pc.rpc
    ? { schema: pc.rpc.output, streaming: streams(pc.rpc), volatile: pc.case.volatile, unordered: pc.case.unordered }
    : { volatile: pc.case.volatile };
  const ca = canonOf(a, opts);
  const cb = canonOf(b, opts);
  if (ca.transport === "grpc" && cb.transport === "grpc") {
    return (
      ca.status.code !== cb.status.code ||
      ca.status.message !== cb.status.message ||
      ca.messages.length !== cb.messages.length ||
      ca.messages.some((m, i) => Buffer.compare(m.compared, cb.messages[i]!.compared) !== 0)
    );
  }
  return ca.transport === "jsonrpc" && cb.transport === "jsonrpc" && Buffer.compare(ca.compared, cb.compared) !== 0;
}

// ---------------------------------------------------------------------------------
// JSON-RPC bodies.

const REAL_SHAPED = [
  '{"jsonrpc":"2.0","id":1,"result":{"hash":"0007bc227e1c57a4a70e237cad00e7b7ce565155ab49166bc57397a26d339283","confirmations":301,"size":1617,"height":5,"version":4,"merkleroot":"aa","tx":["aa","bb"],"time":1477671596,"nonce":"0000","solution":"00","bits":"1f07ffff","difficulty":1.0,"finalsaplingroot":"00","trees":{"sapling":{"size":0}}}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":-8,"message":"Block not found"}}',
  '{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":1}',
  '{"jsonrpc":"2.0","id":1,"result":300}',
  '{"jsonrpc":"2.0","id":1,"result":{"valuePools":[{"id":"transparent","chainValue":1.5,"chainValueZat":150000000}],"chain":"regtest","blocks":300,"estimatedheight":300}}',
  '{"jsonrpc":"2.0","id":1,"result":"0400008085202f89010000000000000000000000000000000000000000000000000000000000000000ffffffff"}',
].map((s) => new TextEncoder().encode(s));

// Shallow, around the limit, and deep enough to have exhausted the stack before the fix.
const nested = fc
  .record({ depth: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 5_000, max: 25_000 })), object: fc.boolean() })
  .map(({ depth, object }) =>
    new TextEncoder().encode(`{"jsonrpc":"2.0","id":1,"result":${(object ? '{"a":' : "[").repeat(depth)}1${(object ? "}" : "]").repeat(depth)}}`),
  );

const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result: v }))) },
  { weight: 8, arbitrary: mutatedBytes(REAL_SHAPED) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 96 }) },
  { weight: 1, arbitrary: nested },
  {
    weight: 2,
    arbitrary: fc
      .bigInt({ min: -(10n ** 30n), max: 10n ** 30n })
      .map((n) => new TextEncoder().encode(`{"jsonrpc":"2.0","id":1,"result":{"v":${n},"w":[${n}]}}`)),
  },
);

function rpcObsArb(): fc.Arbitrary<JsonRpcObservation> {
  return fc
    .record({
      httpStatus: fc.constantFrom(200, 200, 200, 500, 502, 0),
      body: bodyArb,
      fault: fc.option(fc.constantFrom<Fault>({ kind: "invalid-json", detail: "x" }, { kind: "empty-body", detail: "x" }, { kind: "timeout", detail: "x" }), {
        freq: 6,
        nil: undefined,
      }),
    })
    .map((o) => ({
      transport: "jsonrpc" as const,
      method: "getblock",
      httpStatus: o.httpStatus,
      body: o.body,
      wireBytes: o.body.length,
      timing: { startedAt: 0, totalMs: 1 },
      ...(o.fault ? { fault: o.fault } : {}),
    }));
}

const RPC_VOLATILE = ["result.confirmations", "result[*]", "result.tx[*]", "id", "error.message", "result.valuePools[*].chainValue"];

describe("answer decoding fuzzing", () => {
  test("gRPC answers of every CompactTxStreamer output schema", () => {
    const perSchema = new Map<string, number>();
    const input = fc.constantFrom(...METHODS).chain((m) =>
      fc.record({
        method: fc.constant(m),
        builds: fc.array(grpcObsArb(m), { minLength: 1, maxLength: 2 }),
        oracle: fc.option(grpcObsArb(m), { nil: undefined }),
        expect: fc.constantFrom(...EXPECTS),
        volatile: fc.subarray(volatilePaths(m), { maxLength: 2 }),
        unordered: fc.boolean(),
      }),
    );
    const stats = fuzz("answers/grpc", 0xa115e1, input, (i) => {
      perSchema.set(i.method.output.typeName, (perSchema.get(i.method.output.typeName) ?? 0) + 1);
      const pc: PlannedCase = { case: caseOf("grpc", i.method.name, i.expect, i.volatile, i.unordered), rpc: i.method, request: create(i.method.input) };
      judgeAll(pc, i.builds, i.oracle);
    });
    expect(stats.runs).toBe(FUZZ_RUNS);
    // Every output schema was fed.
    expect([...perSchema.keys()].sort()).toEqual([...new Set(METHODS.map((m) => m.output.typeName))].sort());
  });

  test("JSON-RPC bodies", () => {
    const input = fc.record({
      builds: fc.array(rpcObsArb(), { minLength: 1, maxLength: 2 }),
      oracle: fc.option(rpcObsArb(), { nil: undefined }),
      expect: fc.constantFrom<Expectation>({ kind: "oracle" }, { kind: "agree" }, { kind: "error", codes: [-8, "-5"] }),
      volatile: fc.subarray(RPC_VOLATILE, { maxLength: 2 }),
    });
    const stats = fuzz("answers/jsonrpc", 0xa115e2, input, (i) => {
      const pc: PlannedCase = { case: caseOf("jsonrpc", "getblock", i.expect, i.volatile, false), request: [] };
      judgeAll(pc, i.builds, i.oracle);
    });
    expect(stats.runs).toBe(FUZZ_RUNS);
  });
});

// ---------------------------------------------------------------------------------
// One JSON value, two texts.

/** Writes `v` as JSON, taking each choice of spelling from `pick` (0..n-1). */
function writeJson(v: unknown, pick: (n: number) => number): string {
  const ws = () => ["", "", " ", "\n  ", "\t"][pick(5)]!;
  if (typeof v === "number") {
    const plain = JSON.stringify(v);
    const [mantissa, exp] = v.toExponential().split("e");
    const spellings = [plain, `${mantissa}e${exp}`, `${mantissa}E${exp!.replace("+", "")}`];
    if (/^-?\d+$/.test(plain)) spellings.push(`${plain}.0`, `${plain}.000`);
    if (/[.]/.test(plain) && !/e/i.test(plain)) spellings.push(`${plain}0`);
    return spellings[pick(spellings.length)]!;
  }
  if (typeof v === "string") {
    return `"${[...v]
      .map((c) => {
        const plain = JSON.stringify(c).slice(1, -1);
        const code = c.codePointAt(0)!;
        if (code > 0xffff) return plain;
        const hex = code.toString(16).padStart(4, "0");
        return [plain, `\\u${hex}`, `\\u${hex.toUpperCase()}`, ...(c === "/" ? ["\\/"] : [])][pick(c === "/" ? 4 : 3)];
      })
      .join("")}"`;
  }
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => writeJson(x, pick)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = pick(i + 1);
      [entries[i], entries[j]] = [entries[j]!, entries[i]!];
    }
    // A key sent twice with one value (spelled two ways) reads alike first-wins and last-wins.
    const doubled = entries.length > 0 && pick(4) === 0 ? [entries[pick(entries.length)]!] : [];
    const member = ([k, x]: [string, unknown]) => `${writeJson(k, pick)}${ws()}:${ws()}${writeJson(x, pick)}`;
    return `{${ws()}${[...entries, ...doubled].map(member).join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}

describe("one JSON value written two ways", () => {
  test("different bytes compare as encoding-only, never as a pass; the same bytes always pass", () => {
    const input = fc.record({
      value: fc.jsonValue({ maxDepth: 4 }),
      a: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
      b: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }),
    });
    let encodings = 0;
    const stats = fuzz("answers/jsonrpc-encodings", 0xa115e3, input, (i) => {
      const picker = (choices: number[]) => {
        let k = 0;
        return (n: number) => choices[k++ % choices.length]! % n;
      };
      const body = (text: string) => new TextEncoder().encode(`{"jsonrpc":"2.0","id":1,"result":${text}}`);
      const a = body(writeJson(i.value, picker(i.a)));
      const b = body(writeJson(i.value, picker(i.b)));
      const obs = (bytes: Uint8Array): JsonRpcObservation => ({
        transport: "jsonrpc",
        method: "getblock",
        httpStatus: 200,
        body: bytes,
        wireBytes: bytes.length,
        timing: { startedAt: 0, totalMs: 1 },
      });
      const c = compareObservations(obs(a), obs(b), { left: "oracle", right: "b" });
      const verdict = verdictOf(new Map([["b", canonOf(obs(b))]]), canonOf(obs(a)), { expect: { kind: "oracle" } });
      if (Buffer.compare(a, b) === 0) {
        expect(c.divergences).toEqual([]);
        expect(verdict.verdict).toBe("agree");
        return;
      }
      encodings++;
      const kinds = [...new Set(c.divergences.map((d) => d.kind))];
      if (kinds.length !== 1 || kinds[0] !== "encoding-only") {
        throw new Error(
          `${Buffer.from(a).toString()} vs ${Buffer.from(b).toString()}: ${JSON.stringify(c.divergences.map((d) => [d.kind, d.path, d.detail]))}`,
        );
      }
      // Never a pass: the one build does not match the oracle.
      expect(verdict.verdict).toBe("all-vs-oracle");
    });
    expect(stats.runs).toBe(FUZZ_RUNS);
    // Most inputs were two different texts.
    expect(encodings).toBeGreaterThan(FUZZ_RUNS / 2);
  });
});
