// An open-ended stream (one a server keeps open until something happens on the chain) is
// ended by the client once the server has been quiet for quietMs: what arrived is the
// answer, the end is the client's doing, and nothing about it is a fault.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type http2 from "node:http2";
import { CompactTxStreamer, EmptySchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { create } from "@bufbuild/protobuf";
import { grpcTarget, type GrpcTarget } from "./grpc.js";
import { GrpcCode } from "./grpc-status.js";
import { endWithStatus, rawFrame, respondGrpc, startRawServer, type TestServer } from "./test-servers.test-helper.js";

let server: TestServer;
let target: GrpcTarget;
const hold: http2.ServerHttp2Stream[] = [];

beforeAll(async () => {
  server = await startRawServer((stream, headers) => {
    respondGrpc(stream);
    stream.write(rawFrame(Uint8Array.from([1, 2, 3])));
    if (String(headers["x-mode"]) === "ends") return endWithStatus(stream, GrpcCode.OK);
    // Two messages 150 ms apart, then silence with the stream left open.
    setTimeout(() => stream.write(rawFrame(Uint8Array.from([4, 5]))), 150);
    hold.push(stream);
  });
  target = grpcTarget({ url: server.url });
});

afterAll(async () => {
  await target.close();
  await server.close();
});

const call = (opts: { quietMs?: number; deadlineMs?: number; mode?: string; cancelAfter?: number }) =>
  target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), {
    deadlineMs: opts.deadlineMs ?? 5000,
    ...(opts.quietMs !== undefined ? { quietMs: opts.quietMs } : {}),
    ...(opts.cancelAfter !== undefined ? { cancelAfter: opts.cancelAfter } : {}),
    ...(opts.mode ? { headers: { "x-mode": opts.mode } } : {}),
  });

describe("open-ended streams", () => {
  test("a stream left open is ended by the client after quietMs without a message, keeping every message", async () => {
    const t0 = performance.now();
    const obs = await call({ quietMs: 400 });
    const ms = performance.now() - t0;
    expect(obs.fault).toBeUndefined();
    expect(obs.endedBy).toBe("quiet");
    expect(obs.code).toBe(GrpcCode.CANCELLED);
    expect(obs.messages.map((m) => [...m])).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // The second message restarted the quiet period: not before 150 + 400 ms.
    expect(ms).toBeGreaterThanOrEqual(540);
  });

  test("a stream the server ends itself is the server's answer", async () => {
    const obs = await call({ quietMs: 2000, mode: "ends" });
    expect(obs.endedBy).toBeUndefined();
    expect(obs.code).toBe(GrpcCode.OK);
    expect(obs.messages).toHaveLength(1);
  });

  test("cancelAfter: the client cancels mid-stream once that many messages came, keeping them, no fault", async () => {
    const obs = await call({ cancelAfter: 1 });
    expect(obs.fault).toBeUndefined();
    expect(obs.endedBy).toBe("cancelled");
    expect(obs.code).toBe(GrpcCode.CANCELLED);
    expect(obs.messages.map((m) => [...m])).toEqual([[1, 2, 3]]);
    // The connection is still good for the next call.
    expect((await call({ cancelAfter: 2 })).messages).toHaveLength(2);
  });

  test("without quietMs the same open stream runs into the client's deadline, a fault", async () => {
    const obs = await call({ deadlineMs: 500 });
    expect(obs.endedBy).toBeUndefined();
    expect(obs.fault?.kind).toBe("timeout");
  });
});
