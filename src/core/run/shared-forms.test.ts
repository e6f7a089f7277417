// Within a case, answers with the same bytes share one hex and decoded form; an answer
// with other bytes never gets another's.

import { describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import type { Case } from "../corpus/case.js";
import type { Observation } from "../targets/observation.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { BlockIDSchema, ChainSpecSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { judgeCase } from "./judge.js";
import { rpcOf } from "./plan.js";

const timing = { startedAt: 0, totalMs: 1 };

const block = (height: number, hashByte: number): Observation => ({
  transport: "grpc",
  method: "GetLatestBlock",
  code: 0,
  message: "",
  headers: {},
  trailers: {},
  wireBytes: 40,
  timing,
  messages: [toBinary(BlockIDSchema, create(BlockIDSchema, { height: BigInt(height), hash: new Uint8Array(32).fill(hashByte) }))],
});

const count = (n: number): Observation => ({
  transport: "jsonrpc",
  method: "getblockcount",
  httpStatus: 200,
  wireBytes: 30,
  timing,
  body: new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id: 1, result: n })),
});

const aCase = (transport: Case["transport"], method: string, volatile: string[] = []): Case => ({
  id: `${method}/t`,
  transport,
  method,
  request: transport === "grpc" ? {} : [],
  expect: { kind: "oracle" },
  volatile,
  unordered: false,
  tags: [],
  source: { file: "t", line: 1 },
});

const base64 = (byte: number) => Buffer.from(new Uint8Array(32).fill(byte)).toString("base64");

describe("answers of one case with the same bytes", () => {
  const grpcCase = (volatile?: string[]) => ({
    case: aCase("grpc", "GetLatestBlock", volatile),
    rpc: rpcOf(lightwalletProtocol, "GetLatestBlock")!,
    request: create(ChainSpecSchema),
  });

  test("gRPC: the oracle and a build with the same bytes share hex and JSON; a build with other bytes has its own", () => {
    const j = judgeCase(
      grpcCase(),
      new Map([
        ["a", block(5, 1)],
        ["b", block(5, 2)],
        ["c", block(5, 1)],
      ]),
      block(5, 1),
    );
    const [a, b, c] = j.answers;
    expect(a!.json).toEqual({ height: "5", hash: base64(1) });
    expect(b!.json).toEqual({ height: "5", hash: base64(2) });
    expect(b!.hex).not.toEqual(a!.hex);
    expect(c!.json).toBe(a!.json);
    expect(c!.hex).toBe(a!.hex);
    expect(j.oracle!.json).toBe(a!.json);
    expect(j.divergences.find((d) => d.build === "b")!.divergences).not.toEqual([]);
  });

  test("gRPC: a volatile field is left out of every side's JSON alike", () => {
    const j = judgeCase(
      grpcCase(["hash"]),
      new Map([
        ["a", block(5, 1)],
        ["b", block(5, 1)],
      ]),
      block(5, 1),
    );
    expect(j.answers.map((x) => x.json)).toEqual([{ height: "5" }, { height: "5" }]);
    expect(j.answers[1]!.json).toBe(j.answers[0]!.json);
  });

  test("JSON-RPC: the same body shares its parsed form; another body keeps its own", () => {
    const j = judgeCase(
      { case: aCase("jsonrpc", "getblockcount"), request: [] },
      new Map([
        ["a", count(7)],
        ["b", count(8)],
        ["c", count(7)],
      ]),
      count(7),
    );
    const [a, b, c] = j.answers;
    expect(c!.json).toBe(a!.json);
    expect(j.oracle!.json).toBe(a!.json);
    expect(b!.json).not.toEqual(a!.json);
    expect(JSON.stringify(b!.json)).toContain("8");
  });
});
