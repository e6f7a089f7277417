// A deadline case sends its own grpc-timeout and gives the server a grace period past it:
// a server that enforces it ends the call with DEADLINE_EXCEEDED, one that does not keeps
// the stream, and the client ends that call itself (endedBy "deadline"), with no fault.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http2 from "node:http2";
import { create } from "@bufbuild/protobuf";
import { CompactTxStreamer, EmptySchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { grpcTarget, type GrpcTarget } from "./grpc.js";
import { outlivedDeadline } from "../canon/grpc.js";
import { GrpcCode } from "./grpc-status.js";
import { SERVER_DEADLINE_GRACE_MS } from "./grpc-stream.js";
import { endWithStatus, rawFrame, respondGrpc, startRawServer, type TestServer } from "./test-servers.test-helper.js";
import { stallLoop } from "../../../test/tools/stall.js";

let server: TestServer;
let target: GrpcTarget;
const timeouts: string[] = [];
const held: http2.ServerHttp2Stream[] = [];

beforeAll(async () => {
  server = await startRawServer((stream, headers) => {
    const sent = String(headers["grpc-timeout"]);
    timeouts.push(sent);
    const mode = String(headers["x-mode"]);
    // Real lightwalletd's first stream after a start: headers and OK in one frame, at once.
    if (mode === "ok-at-once") return void stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "0" }, { endStream: true });
    respondGrpc(stream);
    stream.write(rawFrame(Uint8Array.from([7, 7])));
    if (mode === "holds") return void held.push(stream);
    if (mode === "ok-after-250") return void setTimeout(() => endWithStatus(stream, GrpcCode.OK), 250);
    const ms = Number(/^(\d+)m$/.exec(sent)![1]);
    // grpc-go ends a call at its deadline either way: the handler's status, or a timer's RST_STREAM CANCEL.
    if (mode === "resets") setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), ms);
    else if (mode === "resets-early") setTimeout(() => stream.close(http2.constants.NGHTTP2_CANCEL), ms / 2);
    else setTimeout(() => endWithStatus(stream, GrpcCode.DEADLINE_EXCEEDED, "context deadline exceeded"), ms);
  });
  target = grpcTarget({ url: server.url });
});

afterAll(async () => {
  await target.close();
  await server.close();
});

const call = (mode: "enforces" | "resets" | "resets-early" | "holds" | "ok-at-once" | "ok-after-250") =>
  target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), { deadlineMs: 10_000, serverDeadlineMs: 100, headers: { "x-mode": mode } });

describe("a deadline the server is to enforce", () => {
  test("is sent as grpc-timeout in place of the client's own deadline", async () => {
    timeouts.length = 0;
    await call("enforces");
    expect(timeouts).toEqual(["100m"]);
  });

  test("a server that enforces it answers DEADLINE_EXCEEDED, its own status, with the messages before it", async () => {
    const obs = await call("enforces");
    expect([obs.code, obs.message, obs.endedBy, obs.fault]).toEqual([GrpcCode.DEADLINE_EXCEEDED, "context deadline exceeded", undefined, undefined]);
    expect(obs.messages.map((m) => [...m])).toEqual([[7, 7]]);
  });

  test("a server that resets the stream with CANCEL at the deadline enforced it: DEADLINE_EXCEEDED, no fault; a reset before it is a fault", async () => {
    const atDeadline = await call("resets");
    expect([atDeadline.code, atDeadline.endedBy, atDeadline.fault]).toEqual([GrpcCode.DEADLINE_EXCEEDED, undefined, undefined]);
    expect(atDeadline.messages.map((m) => [...m])).toEqual([[7, 7]]);
    expect((await call("resets-early")).fault?.kind).toBe("reset");
  });

  test("a stream kept past it is ended by the client after the grace period: endedBy deadline, CANCELLED, no fault", async () => {
    const t0 = performance.now();
    const obs = await call("holds");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(100 + SERVER_DEADLINE_GRACE_MS - 5);
    expect([obs.code, obs.endedBy, obs.fault]).toEqual([GrpcCode.CANCELLED, "deadline", undefined]);
    expect(obs.message).toBe(`still open ${SERVER_DEADLINE_GRACE_MS} ms after the 100 ms deadline it was sent; ended by the client`);
    expect(obs.messages.map((m) => [...m])).toEqual([[7, 7]]);
  });

  test("an OK is judged by how long the server held the stream, not by when it reached the client", async () => {
    const heldThenOk = await call("ok-after-250");
    expect([heldThenOk.code, heldThenOk.endedBy]).toEqual([GrpcCode.OK, undefined]);
    expect(outlivedDeadline({ ...heldThenOk.timing, ms: heldThenOk.timing.totalMs, ok: true }, 100)).toBe(true);
    // A client whose loop is busy when the answer comes (a loaded machine) reads an OK the
    // server sent at once after the deadline has passed by its own clock.
    const pending = call("ok-at-once");
    stallLoop(150);
    const atOnce = await pending;
    expect([atOnce.code, atOnce.timing.totalMs > 100]).toEqual([GrpcCode.OK, true]);
    expect(outlivedDeadline({ ...atOnce.timing, ms: atOnce.timing.totalMs, ok: true }, 100)).toBe(false);
  });
});
