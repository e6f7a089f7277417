// Fuzzing what reads the network: gRPC frames as they arrive in arbitrary chunks, whole
// HTTP/2 responses (status, headers, frames, trailers) to the gRPC client, JSON-RPC
// bodies to the JSON-RPC client and its canonical form, and the glob matcher the ledger
// runs over case ids and paths.
//
// "Clear" here: the frame reader hands out exactly the payloads that were framed, or
// one FrameError that names the frame; a client call always resolves (a server cannot
// make it reject or hang) with either a status the server sent or a fault of a known
// kind; a glob agrees with the meaning of its pattern and stays fast on any input.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { canonJsonRpc } from "../../src/core/canon/jsonrpc.js";
import { readJson } from "../../src/core/io/json-tree.js";
import { shownValue } from "../../src/core/io/json-values.js";
import { glob } from "../../src/core/corpus/glob.js";
import { encodeFrame, FrameReader, isFrameError } from "../../src/core/targets/grpc-frames.js";
import { grpcTarget, type GrpcTarget } from "../../src/core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../src/core/targets/jsonrpc.js";
import type { FaultKind } from "../../src/core/targets/observation.js";
import { CompactTxStreamer, EmptySchema } from "../../src/zcash/gen/walletrpc/service_pb.js";
import { fuzz, FUZZ_RUNS, mutatedBytes, seedOf } from "./fuzz.js";
import { referenceGlob as reference } from "../../src/core/corpus/glob-reference.test-helper.js";

/** Network round trips are slower than pure decoding: a tenth of the runs. */
const NETWORK_RUNS = Math.max(50, Math.floor(FUZZ_RUNS / 20));

const FAULTS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  "unreachable",
  "timeout",
  "reset",
  "malformed-frame",
  "compressed",
  "content-type",
  "too-large",
  "too-long",
  "http-status",
  "empty-body",
  "invalid-json",
  "wrong-id",
  "protocol",
]);

/** Bytes cut into chunks at the given points. */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    if (p > at) out.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  return out;
}

const payloads = fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 });
const framed = (ps: Uint8Array[]) => Buffer.concat(ps.map((p) => encodeFrame(p)));

describe("gRPC frames", () => {
  test("framed payloads come back exactly, however the bytes are chunked", () => {
    fuzz("grpc-frames/roundtrip", 0x6a1, fc.tuple(payloads, fc.array(fc.nat(), { maxLength: 12 })), ([ps, cuts]) => {
      const reader = new FrameReader(1024);
      const got: Uint8Array[] = [];
      for (const chunk of chunked(framed(ps), cuts)) {
        reader.push(chunk);
        for (let next = reader.next(); next !== undefined; next = reader.next()) {
          if (isFrameError(next)) throw new Error(`frame error on valid frames: ${next.detail}`);
          got.push(next);
        }
      }
      expect(reader.finish()).toBeUndefined();
      expect(got.map((g) => Buffer.from(g).toString("hex"))).toEqual(ps.map((p) => Buffer.from(p).toString("hex")));
    });
  });

  test("any bytes: payloads that are a prefix of what was framed, then at most one error that names its frame", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 2000 }),
      payloads.chain((ps) => mutatedBytes([framed(ps)])),
    );
    fuzz("grpc-frames/any", 0x6a2, fc.tuple(bytes, fc.array(fc.nat(), { maxLength: 12 }), fc.integer({ min: 0, max: 512 })), ([input, cuts, max]) => {
      const reader = new FrameReader(max);
      let consumed = 0;
      let error: { kind: string; detail: string } | undefined;
      for (const chunk of chunked(input, cuts)) {
        reader.push(chunk);
        for (let next = reader.next(); next !== undefined && !error; next = reader.next()) {
          if (isFrameError(next)) {
            error = next;
            break;
          }
          if (next.length > max) throw new Error(`payload of ${next.length} bytes over the limit ${max}`);
          // What was handed out is exactly the framed payload at this position.
          expect(Buffer.from(next).equals(Buffer.from(input.subarray(consumed + 5, consumed + 5 + next.length)))).toBe(true);
          consumed += 5 + next.length;
        }
        if (error) break;
        // Never more than one frame's worth of bytes held back.
        if (reader.buffered > max + 5 + chunk.length) throw new Error(`reader holds ${reader.buffered} bytes`);
      }
      error ??= reader.finish();
      if (error) {
        expect(["malformed-frame", "compressed", "too-large"]).toContain(error.kind);
        expect(error.detail).toMatch(/^frame \d+: /);
      } else {
        expect(consumed).toBe(input.length);
      }
    });
  });
});

// ---------------------------------------------------------------------------------
// Whole answers from a server that says anything.

interface Http2Answer {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
  trailers: Record<string, string> | undefined;
  trailersOnly: boolean;
}

const headerValue = fc.oneof(
  fc.constantFrom("0", "2", "13", "99", "", "abc", "application/grpc", "application/grpc+proto", "text/html"),
  fc.stringMatching(/^[ -~]{0,20}$/),
);
const http2Answer: fc.Arbitrary<Http2Answer> = fc.record({
  status: fc.constantFrom(200, 200, 200, 400, 404, 500, 503),
  contentType: fc.option(fc.constantFrom("application/grpc", "application/grpc+proto", "application/json", "text/html"), { nil: undefined }),
  body: fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    payloads.chain((ps) => mutatedBytes([framed(ps)])),
  ),
  trailers: fc.option(fc.dictionary(fc.constantFrom("grpc-status", "grpc-message", "x-other"), headerValue, { maxKeys: 3 }), { nil: undefined }),
  trailersOnly: fc.boolean(),
});

describe("HTTP/2 responses to the gRPC client", () => {
  let server: http2.Http2Server;
  let target: GrpcTarget;
  let next: Http2Answer;

  beforeAll(async () => {
    server = http2.createServer();
    server.on("stream", (stream) => {
      stream.on("error", () => undefined);
      const a = next;
      const headers: http2.OutgoingHttpHeaders = { ":status": a.status, ...(a.contentType ? { "content-type": a.contentType } : {}) };
      if (a.trailersOnly) {
        stream.respond({ ...headers, ...a.trailers }, { endStream: true });
        return;
      }
      stream.respond(headers, { waitForTrailers: a.trailers !== undefined });
      if (a.trailers) stream.once("wantTrailers", () => stream.sendTrailers(a.trailers!));
      stream.end(Buffer.from(a.body));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    target = grpcTarget({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, { deadlineMs: 2000, maxMessageBytes: 256 });
  });

  afterAll(async () => {
    target?.abort();
    await new Promise((r) => server.close(r));
  });

  test("every answer resolves, with the server's status or a fault of a known kind", async () => {
    await fc.assert(
      fc.asyncProperty(http2Answer, async (a) => {
        next = a;
        const obs = await target.call(CompactTxStreamer.method.getLightdInfo, create(EmptySchema));
        if (obs.fault) {
          expect(FAULTS.has(obs.fault.kind)).toBe(true);
          expect(obs.fault.detail.length).toBeGreaterThan(0);
        } else {
          expect(Number.isInteger(obs.code)).toBe(true);
        }
        for (const m of obs.messages) expect(m.length).toBeLessThanOrEqual(256);
        expect(obs.timing.totalMs).toBeLessThan(2500);
      }),
      { seed: seedOf(0x6a3), numRuns: NETWORK_RUNS },
    );
  }, 120_000);
});

interface JsonAnswer {
  status: number;
  contentType: string | undefined;
  body: Uint8Array;
}

const jsonBody = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result: v }))),
  fc.jsonValue({ maxDepth: 3 }).chain((v) => mutatedBytes([new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result: v }))])),
  fc.nat({ max: 5000 }).map((n) => new TextEncoder().encode(`${"[".repeat(n)}${"]".repeat(n)}`)),
);

describe("JSON-RPC bodies", () => {
  let server: http.Server;
  let target: JsonRpcTarget;
  let next: JsonAnswer;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const a = next;
        res.writeHead(a.status, a.contentType ? { "content-type": a.contentType } : {});
        res.end(Buffer.from(a.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    target = jsonRpcTarget({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, { deadlineMs: 2000, maxMessageBytes: 300 });
  });

  afterAll(async () => {
    await target?.abort();
    await new Promise((r) => server.close(r));
  });

  test("every body resolves to an observation, and its canonical form never throws", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: fc.constantFrom(200, 200, 200, 401, 500),
          contentType: fc.option(fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain"), { nil: undefined }),
          body: jsonBody,
        }),
        async (a) => {
          next = a;
          const obs = await target.call("getinfo", [], { id: 1 });
          if (obs.fault) expect(FAULTS.has(obs.fault.kind)).toBe(true);
          expect(obs.body.length).toBeLessThanOrEqual(300);
          const canon = canonJsonRpc(obs);
          expect(canon.compared).toBeInstanceOf(Uint8Array);
        },
      ),
      { seed: seedOf(0x6a4), numRuns: NETWORK_RUNS },
    );
  }, 120_000);

  test("the JSON text reader accepts what JSON.parse accepts and reads the same values", () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.jsonValue({ maxDepth: 3 }).chain((v) => mutatedBytes([new TextEncoder().encode(JSON.stringify(v))]).map((b) => Buffer.from(b).toString("utf8"))),
      fc.string({ maxLength: 40 }),
    );
    fuzz("jsonrpc/text-reader", 0x6a5, text, (t) => {
      let parsed: unknown;
      let ok = true;
      try {
        parsed = JSON.parse(t);
      } catch {
        ok = false;
      }
      const r = readJson(new TextEncoder().encode(t), 64);
      if (r.ok !== ok)
        throw new Error(`JSON.parse ${ok ? "accepts" : "rejects"} ${JSON.stringify(t)}, the reader ${r.ok ? "accepts" : `rejects (${r.reason})`}`);
      if (r.ok && !r.tree.deep && !sameAsParsed(shownValue(r.tree, 0), parsed)) throw new Error(`${JSON.stringify(t)} read otherwise than JSON.parse reads it`);
    });
  });

  test("the reader is linear: megabyte strings and numbers in any text", () => {
    fuzz(
      "jsonrpc/reader-linear",
      0x6a7,
      fc.tuple(fc.string({ maxLength: 200 }), fc.nat({ max: 3_000_000 })),
      ([text, n]) => {
        const big = `{"result":"${"a".repeat(n)}\\"${JSON.stringify(text).slice(1, -1)}","n":${"9".repeat(n >> 4)}1}`;
        const r = readJson(new TextEncoder().encode(big), 64);
        expect(r.ok && r.tree.size).toBe(5);
      },
      Math.min(FUZZ_RUNS, 200),
    );
  });
});

/** JSON.parse's value, but where it read a number through a double, the reader's literal text is just as right. */
function sameAsParsed(shown: unknown, parsed: unknown): boolean {
  if (typeof shown === "string" && typeof parsed === "number") return Number(shown) === parsed;
  if (Array.isArray(shown) && Array.isArray(parsed)) return shown.length === parsed.length && shown.every((x, i) => sameAsParsed(x, parsed[i]));
  if (shown && parsed && typeof shown === "object" && typeof parsed === "object") {
    const ka = Object.keys(shown);
    const kb = Object.keys(parsed);
    return (
      ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameAsParsed((shown as Record<string, unknown>)[k], (parsed as Record<string, unknown>)[k]))
    );
  }
  return Object.is(shown, parsed);
}

// ---------------------------------------------------------------------------------

describe("glob", () => {
  const chars = fc.constantFrom("a", "b", "[", "]", "0", "7", "*", ".", "/");
  const text = (max: number) => fc.array(chars, { maxLength: max }).map((a) => a.join(""));

  test("agrees with its pattern's meaning", () => {
    fuzz("glob/meaning", 0x6a6, fc.tuple(text(12), text(16), fc.boolean()), ([p, v, pathLike]) => {
      expect(glob(p, v, pathLike)).toBe(reference(p, v, pathLike));
    });
  });

  test("stays fast on long values and star-heavy patterns", () => {
    const starry = fc.array(fc.constantFrom("*", "a", "b", "[*]"), { minLength: 1, maxLength: 40 }).map((a) => a.join(""));
    const long = fc.tuple(fc.constantFrom("a", "b", "[1]"), fc.nat({ max: 2000 })).map(([s, n]) => s.repeat(n));
    fuzz(
      "glob/fast",
      0x6a7,
      fc.tuple(starry, long, fc.boolean()),
      ([p, v, pathLike]) => {
        glob(p, v, pathLike);
      },
      Math.min(FUZZ_RUNS, 2000),
    );
  });
});
