import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { CompactBlockSchema, type CompactBlock } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import {
  AddressSchema,
  BalanceSchema,
  BlockIDSchema,
  BlockRangeSchema,
  ChainSpecSchema,
  CompactTxStreamer,
  EmptySchema,
  LightdInfoSchema,
} from "../../zcash/gen/walletrpc/service_pb.js";
import { callGrpc, grpcTarget, type GrpcTarget } from "./grpc.js";
import { closedPort, startConnectServer, type TestServer } from "./test-servers.test-helper.js";

const M = CompactTxStreamer.method;

function block(height: bigint): CompactBlock {
  return create(CompactBlockSchema, {
    height,
    hash: new Uint8Array(32).fill(Number(height % 251n)),
    prevHash: new Uint8Array(32).fill(7),
    time: 1_700_000_000 + Number(height),
    vtx: [{ index: 1n, txid: new Uint8Array([1, 2, 3]) }],
  });
}

const latest = create(BlockIDSchema, { height: 42n, hash: new Uint8Array([0xde, 0xad, 0xbe, 0xef]) });
const info = create(LightdInfoSchema, {
  version: "v0.0.0-test",
  vendor: "zconform tests — ünïcödé ✓",
  taddrSupport: true,
  chainName: "test",
  saplingActivationHeight: 280_000n,
  blockHeight: 42n,
  lightwalletProtocolVersion: "v0.5.0",
});
const NOT_FOUND_TEXT = "no such block: ü ✓ 100% :/?";
const seenAuth: string[] = [];

let server: TestServer;
let target: GrpcTarget;

beforeAll(async () => {
  server = await startConnectServer({
    getLatestBlock(_req, ctx) {
      seenAuth.push(ctx.requestHeader.get("authorization") ?? "");
      ctx.responseHeader.set("x-served-by", "test");
      ctx.responseHeader.set("authorization", "Bearer leaked");
      ctx.responseTrailer.set("x-trailer", "bye");
      return latest;
    },
    async getBlock(req, ctx) {
      if (req.height === 404n) throw new ConnectError(NOT_FOUND_TEXT, Code.NotFound);
      if (req.height === 999n) {
        await new Promise((r) => ctx.signal.addEventListener("abort", r));
        throw new ConnectError("gave up", Code.Canceled);
      }
      return block(req.height);
    },
    async *getBlockRange(req) {
      const start = req.start!.height;
      const end = req.end!.height;
      for (let h = start; h <= end; h++) {
        if (h === 13n) throw new ConnectError("unlucky", Code.DataLoss);
        yield block(h);
      }
    },
    async getTaddressBalanceStream(reqs) {
      let total = 0n;
      for await (const a of reqs) total += BigInt(a.address.length);
      return create(BalanceSchema, { valueZat: total });
    },
    getLightdInfo() {
      return info;
    },
  });
  target = grpcTarget({ url: server.url, auth: { kind: "bearer", token: "s3cret-token" } });
});

afterAll(async () => {
  await target.close();
  await server.close();
});

describe("grpc client against a connect-node server", () => {
  test("unary: message bytes equal toBinary of what the server sent", async () => {
    const obs = await target.call(M.getLatestBlock, create(ChainSpecSchema));
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(0);
    expect(obs.message).toBe("");
    expect(obs.messages).toHaveLength(1);
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(toBinary(BlockIDSchema, latest)));
    expect(obs.messageCount).toBe(1);
    expect(obs.wireBytes).toBe(5 + obs.messages[0]!.length);
    expect(obs.headers["x-served-by"]).toBe("test");
    expect(obs.headers["content-type"]).toBe("application/grpc+proto");
    expect(obs.headers).not.toHaveProperty("authorization");
    expect(obs.trailers["x-trailer"]).toBe("bye");
    expect(obs.trailers["grpc-status"]).toBe("0");
    expect(obs.timing.startedAt).toBeGreaterThan(1_600_000_000_000);
    expect(obs.timing.firstByteMs).toBeGreaterThanOrEqual(0);
    expect(obs.timing.totalMs).toBeGreaterThanOrEqual(obs.timing.firstByteMs!);
    expect(seenAuth.at(-1)).toBe("Bearer s3cret-token");
  });

  test("unary with non-ASCII strings", async () => {
    const obs = await target.call(M.getLightdInfo, create(EmptySchema));
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(toBinary(LightdInfoSchema, info)));
  });

  test("error status and a non-ASCII grpc-message are decoded", async () => {
    const obs = await target.call(M.getBlock, create(BlockIDSchema, { height: 404n }));
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(5);
    expect(obs.message).toBe(NOT_FOUND_TEXT);
    expect(obs.messages).toEqual([]);
  });

  test("server streaming keeps every message in order", async () => {
    const obs = await target.call(M.getBlockRange, create(BlockRangeSchema, { start: { height: 1n }, end: { height: 5n } }));
    expect(obs.code).toBe(0);
    expect(obs.messages.map((m) => Buffer.from(m).toString("hex"))).toEqual(
      [1n, 2n, 3n, 4n, 5n].map((h) => Buffer.from(toBinary(CompactBlockSchema, block(h))).toString("hex")),
    );
  });

  test("an error mid-stream keeps the messages before it", async () => {
    const obs = await target.call(M.getBlockRange, create(BlockRangeSchema, { start: { height: 10n }, end: { height: 20n } }));
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(15);
    expect(obs.message).toBe("unlucky");
    expect(obs.messages).toHaveLength(3);
  });

  test("client streaming sends every message", async () => {
    const addrs = ["t1abc", "t1defgh", "t3x"].map((address) => create(AddressSchema, { address }));
    const obs = await target.call(M.getTaddressBalanceStream, addrs);
    expect(obs.code).toBe(0);
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(toBinary(BalanceSchema, create(BalanceSchema, { valueZat: 15n }))));
  });

  test("onMessage consumes the stream without keeping it, with backpressure", async () => {
    const seen: number[] = [];
    let inFlight = 0;
    const obs = await target.call(M.getBlockRange, create(BlockRangeSchema, { start: { height: 100n }, end: { height: 399n } }), {
      onMessage: async (bytes, index) => {
        expect(inFlight).toBe(0);
        inFlight++;
        if (index % 50 === 0) await new Promise((r) => setTimeout(r, 5));
        seen.push(Number(index));
        expect(bytes.length).toBeGreaterThan(0);
        inFlight--;
      },
    });
    expect(obs.code).toBe(0);
    expect(obs.messages).toEqual([]);
    expect(obs.messageCount).toBe(300);
    expect(seen).toEqual([...Array(300).keys()]);
  });

  test("a throwing onMessage rejects the call with its own error", async () => {
    const call = target.call(M.getBlockRange, create(BlockRangeSchema, { start: { height: 1n }, end: { height: 9n } }), {
      onMessage: (_b, i) => {
        if (i === 2) throw new Error("consumer broke");
      },
    });
    await expect(call).rejects.toThrow("consumer broke");
  });

  test("deadline gives DEADLINE_EXCEEDED", async () => {
    const obs = await target.call(M.getBlock, create(BlockIDSchema, { height: 999n }), { deadlineMs: 150 });
    expect(obs.code).toBe(4);
    // Whoever notices first (the server honouring grpc-timeout, or the client) decides
    // whether it is a server status or a client fault; both are code 4.
    if (obs.fault) expect(obs.fault.kind).toBe("timeout");
  });

  test("calls reuse one HTTP/2 session", async () => {
    const counting = await startConnectServer({ getLatestBlock: () => latest });
    const c = grpcTarget({ url: counting.url });
    try {
      await Promise.all([1, 2, 3].map(() => c.call(M.getLatestBlock, create(ChainSpecSchema))));
      await c.call(M.getLatestBlock, create(ChainSpecSchema));
      expect(counting.sessionsOpened()).toBe(1);
    } finally {
      await c.close();
      await counting.close();
    }
  });

  test("callGrpc on a bare endpoint opens and closes its own session", async () => {
    const obs = await callGrpc({ url: server.url }, M.getLatestBlock, create(ChainSpecSchema));
    expect(obs.code).toBe(0);
  });

  test("request of the wrong type or arity is a caller error", async () => {
    await expect(target.call(M.getLatestBlock, create(EmptySchema))).rejects.toThrow(TypeError);
    await expect(target.call(M.getTaddressBalanceStream, create(AddressSchema))).rejects.toThrow(TypeError);
    await expect(target.call(M.getLatestBlock, [create(ChainSpecSchema)])).rejects.toThrow(TypeError);
  });

  test("pre-encoded request bytes are sent as they are", async () => {
    // height 5 written as a non-minimal varint: a server must still read it as 5.
    const obs = await target.call(M.getBlock, new Uint8Array([0x08, 0x85, 0x00]));
    expect(obs.code).toBe(0);
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(toBinary(CompactBlockSchema, block(5n))));
  });

  test("unreachable port gives an unreachable fault", async () => {
    const port = await closedPort();
    const t = grpcTarget({ url: `http://127.0.0.1:${port}` });
    try {
      const obs = await t.call(M.getLatestBlock, create(ChainSpecSchema), { deadlineMs: 5000 });
      expect(obs.fault?.kind).toBe("unreachable");
      expect(obs.code).toBe(14);
      expect(obs.fault?.detail).toMatch(/ECONNREFUSED/);
    } finally {
      await t.close();
    }
  });

  test("calls after close resolve with a fault", async () => {
    const t = grpcTarget({ url: server.url });
    await t.close();
    const obs = await t.call(M.getLatestBlock, create(ChainSpecSchema));
    expect(obs.fault?.kind).toBe("unreachable");
  });

  test("abort cancels an in-flight call", async () => {
    const t = grpcTarget({ url: server.url });
    const pending = t.call(M.getBlock, create(BlockIDSchema, { height: 999n }), { deadlineMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    t.abort();
    const obs = await pending;
    expect(obs.fault?.kind).toBe("reset");
    expect(obs.code).toBe(1);
  });
});
