// The deriver's plumbing: memoization per run, local checks that never reach the node,
// the JSON-RPC error → gRPC status mapping, and faults of the oracle itself.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { canonOf } from "../../core/canon/index.js";
import { verdictOf } from "../../core/diff/verdict.js";
import { PoolType, type ShieldedProtocol } from "../gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { GrpcCode } from "../../core/targets/grpc-status.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { JsonRpcObservation } from "../../core/targets/observation.js";
import { inOrder } from "./context.js";
import { deriveFromOracle } from "./derive.js";
import { derived, plannedCase, recording, request, rpcOf } from "./oracle.test-helper.js";
import { grpcCodeForNodeError, NodeError } from "./status.js";

let net: FixtureNetwork;
let oracle: JsonRpcTarget;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
});

afterAll(async () => {
  await oracle.close();
  await net.close();
});

const count = (calls: { method: string; params: readonly unknown[] }[], method: string, first?: unknown) =>
  calls.filter((c) => c.method === method && (first === undefined || c.params[0] === first)).length;

describe("memoization for the lifetime of one deriver", () => {
  test("a block is fetched once however many cases ask for it", async () => {
    const { target, calls } = recording(oracle);
    const derive = deriveFromOracle(target);
    const h = 105n;
    await derived(derive, "GetBlock", request("GetBlock", { height: h }));
    await derived(derive, "GetBlockNullifiers", request("GetBlockNullifiers", { height: h }));
    await derived(derive, "GetBlockRange", request("GetBlockRange", { start: { height: h + 2n }, end: { height: h - 2n } }));
    expect(count(calls, "getblock", String(h))).toBe(1);
    expect(calls.filter((c) => c.method === "getblock" && c.params[1] === 0).length).toBe(5);
    // A second deriver has its own cache.
    await derived(deriveFromOracle(target), "GetBlock", request("GetBlock", { height: h }));
    expect(count(calls, "getblock", String(h))).toBe(2);
  });

  test("errors and answers that can change are asked again", async () => {
    const { target, calls } = recording(oracle);
    const derive = deriveFromOracle(target);
    const above = BigInt(net.model.tipHeight + 1);
    for (let i = 0; i < 2; i++) await derived(derive, "GetBlock", request("GetBlock", { height: above }));
    expect(count(calls, "getblock", String(above))).toBe(2);
    const mempoolTx = net.model.mempool[0]!.txid;
    for (let i = 0; i < 2; i++) await derived(derive, "GetTransaction", request("GetTransaction", { hash: mempoolTx }));
    expect(count(calls, "getrawtransaction")).toBe(2);
  });
});

describe("local checks never reach the node", () => {
  test.each([
    ["GetBlock", { height: 0n }],
    ["GetBlock", { hash: new Uint8Array(5) }],
    ["GetBlockNullifiers", { hash: new Uint8Array(33) }],
    ["GetBlockRange", { start: { height: 1n }, end: { height: 2n }, poolTypes: [PoolType.POOL_TYPE_INVALID] }],
    ["GetBlockRange", { start: { height: 1n }, end: { height: 2n }, poolTypes: [12] }],
    ["GetBlockRange", { end: { height: 2n } }],
    ["GetTransaction", { hash: new Uint8Array(16) }],
    ["GetTreeState", {}],
    ["GetTreeState", { hash: new Uint8Array(2) }],
    ["GetSubtreeRoots", { shieldedProtocol: 9 as ShieldedProtocol }],
    ["GetMempoolTx", { poolTypes: [PoolType.POOL_TYPE_INVALID] }],
    ["GetMempoolTx", { excludeTxidSuffixes: [new Uint8Array(40)] }],
    ["GetAddressUtxos", { addresses: Array.from({ length: 10_001 }, () => "tmMdfz16p758RZaNW8JGyTTDMkieRfA2QgK") }],
  ] as const)("%s %p → INVALID_ARGUMENT", async (name, init) => {
    const { target, calls } = recording(oracle);
    const obs = await derived(deriveFromOracle(target), name, request(name, init as Record<string, unknown>));
    expect([obs.code, obs.messages.length, calls.length]).toEqual([GrpcCode.INVALID_ARGUMENT, 0, 0]);
    expect(obs.message.startsWith("oracle: ")).toBe(true);
  });
});

describe("JSON-RPC errors as gRPC statuses", () => {
  const e = (code: number) => new NodeError("m", code, "text");
  test.each([
    ["GetBlock", -8, undefined, GrpcCode.OUT_OF_RANGE],
    ["GetBlockRange", -5, undefined, GrpcCode.NOT_FOUND],
    ["GetBlockNullifiers", -1, undefined, GrpcCode.INVALID_ARGUMENT],
    ["GetTransaction", -5, undefined, GrpcCode.NOT_FOUND],
    ["GetTransaction", -8, undefined, GrpcCode.INVALID_ARGUMENT],
    ["GetTreeState", -8, "hash", GrpcCode.NOT_FOUND],
    ["GetTreeState", -8, "height", GrpcCode.OUT_OF_RANGE],
    ["GetTaddressBalance", -5, undefined, GrpcCode.INVALID_ARGUMENT],
    ["GetTaddressTxids", -1, undefined, GrpcCode.INVALID_ARGUMENT],
    ["GetSubtreeRoots", -1, undefined, GrpcCode.INVALID_ARGUMENT],
    ["GetLatestBlock", -1, undefined, GrpcCode.UNAVAILABLE],
    ["GetLightdInfo", -1, undefined, GrpcCode.INTERNAL],
    ["GetMempoolTx", -1, undefined, GrpcCode.INTERNAL],
    ["GetBlock", -28, undefined, GrpcCode.UNAVAILABLE],
  ] as const)("%s, node code %d (%s) → %d", (rpc, code, ref, expected) => {
    expect(grpcCodeForNodeError(rpc, e(code), ref)).toBe(expected);
  });

  test("the status message is the node's, marked as the oracle's", async () => {
    const obs = await derived(deriveFromOracle(oracle), "GetTransaction", request("GetTransaction", { hash: new Uint8Array(32).fill(9) }));
    expect([obs.code, obs.message]).toEqual([GrpcCode.NOT_FOUND, "oracle: Transaction not found in mempool or best chain"]);
  });
});

/** A target whose every answer is the given status and body. */
function scripted(answer: (method: string) => { httpStatus?: number; body: unknown; fault?: JsonRpcObservation["fault"] }): JsonRpcTarget {
  return {
    url: "http://scripted",
    endpoint: { url: "http://scripted" },
    call: async (method) => {
      const a = answer(method);
      const body = new TextEncoder().encode(typeof a.body === "string" ? a.body : JSON.stringify(a.body));
      return {
        transport: "jsonrpc",
        method,
        httpStatus: a.httpStatus ?? 200,
        body,
        wireBytes: body.length,
        timing: { startedAt: 0, totalMs: 0 },
        ...(a.fault ? { fault: a.fault } : {}),
      };
    },
    batch: async () => {
      throw new Error("the oracle derives answers call by call");
    },
    close: async () => undefined,
    abort: async () => undefined,
  };
}

describe("faults of the oracle", () => {
  test("an unreachable oracle: a fault, and the verdict is unavailable", async () => {
    const dead = jsonRpcTarget({ url: "http://127.0.0.1:1" });
    try {
      const obs = await derived(deriveFromOracle(dead), "GetLatestBlock", request("GetLatestBlock"));
      expect(obs.fault?.kind).toBe("unreachable");
      expect(obs.code).toBe(GrpcCode.UNAVAILABLE);
      const rpc = rpcOf("GetLatestBlock");
      const build = { ...obs, code: 0, message: "", messages: [Uint8Array.of(8, 1)] };
      delete (build as { fault?: unknown }).fault;
      const canon = (o: typeof obs) => canonOf(o, { schema: rpc.output });
      expect(verdictOf(new Map([["b", canon(build)]]), canon(obs), { expect: { kind: "oracle" } }).verdict).toBe("unavailable");
    } finally {
      await dead.close();
    }
  });

  test.each([
    ["a body that is not JSON", { body: "<html>" }, "invalid-json"],
    ["a result of the wrong shape", { body: { jsonrpc: "2.0", id: 1, result: 5 } }, "protocol"],
    ["a method the node does not serve", { body: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } } }, "protocol"],
    [
      "an HTTP error without a JSON-RPC error",
      { httpStatus: 502, body: "bad gateway", fault: { kind: "http-status" as const, detail: "HTTP status 502" } },
      "http-status",
    ],
  ])("%s", async (_what, answer, kind) => {
    const obs = await derived(deriveFromOracle(scripted(() => answer)), "GetLightdInfo", request("GetLightdInfo"));
    expect([obs.fault?.kind, obs.code, obs.messages]).toEqual([kind, GrpcCode.UNAVAILABLE, []]);
  });

  test("zcashd's HTTP 500 with a JSON-RPC error body is the node's answer, not a fault", async () => {
    const target = scripted(() => ({
      httpStatus: 500,
      body: { result: null, error: { code: -5, message: "No such mempool or blockchain transaction" }, id: 1 },
      fault: { kind: "http-status", detail: "HTTP status 500" },
    }));
    const obs = await derived(deriveFromOracle(target), "GetTransaction", request("GetTransaction", { hash: new Uint8Array(32) }));
    expect([obs.fault, obs.code, obs.message]).toEqual([undefined, GrpcCode.NOT_FOUND, "oracle: No such mempool or blockchain transaction"]);
  });

  test("a node still warming up (-28) is UNAVAILABLE", async () => {
    const target = scripted(() => ({ body: { jsonrpc: "2.0", id: 1, error: { code: -28, message: "Loading block index..." } } }));
    const obs = await derived(deriveFromOracle(target), "GetBlock", request("GetBlock", { height: 5n }));
    expect([obs.fault, obs.code]).toEqual([undefined, GrpcCode.UNAVAILABLE]);
  });
});

describe("inOrder", () => {
  test("results in item order, at most `window` in flight, the first failure in order thrown, nothing left running", async () => {
    let inFlight = 0;
    let most = 0;
    const settled: number[] = [];
    const fn = async (i: number) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, (10 - i) * 2));
      inFlight--;
      settled.push(i);
      if (i === 5) throw new Error("five");
      return i * 10;
    };
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const r of inOrder([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], fn, 3)) got.push(r);
      })(),
    ).rejects.toThrow("five");
    expect(got).toEqual([0, 10, 20, 30, 40]);
    expect(most).toBeLessThanOrEqual(3);
    expect(inFlight).toBe(0);
    expect(settled).not.toContain(9);
  });

  test("a planned case without an rpc, or for Ping, derives nothing", async () => {
    const derive = deriveFromOracle(oracle);
    expect(await derive({ ...plannedCase("Ping", request("Ping")) })).toBeUndefined();
    expect(await derive({ case: plannedCase("GetBlock", request("GetBlock")).case })).toBeUndefined();
  });
});
