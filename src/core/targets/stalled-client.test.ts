// A client whose event loop stalls (a busy machine, a long synchronous task) while the
// server's answer arrives: what came in time is read before the client's own clock ends
// the call. The server runs in another process so that it keeps its time while the
// client stalls.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { create } from "@bufbuild/protobuf";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { CompactTxStreamer, EmptySchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { grpcTarget, type GrpcTarget } from "./grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "./jsonrpc.js";
import { GrpcCode } from "./grpc-status.js";
import { deadlineTimingUnclear } from "../canon/grpc.js";

/**
 * gRPC: one message at once, a second 100 ms later, then (x-mode "ends") OK or (else)
 * silence with the stream open; or (x-mode "trailers-only") OK at once in one HEADERS frame. JSON-RPC: a result 100 ms after the request. Prints both ports.
 */
const SERVER = `
import http from "node:http";
import http2 from "node:http2";
const frame = (bytes) => { const b = Buffer.alloc(5 + bytes.length); b.writeUInt32BE(bytes.length, 1); Buffer.from(bytes).copy(b, 5); return b; };
const server = http2.createServer();
server.on("stream", (stream, headers) => {
  stream.on("error", () => {});
  stream.resume();
  if (headers["x-mode"] === "trailers-only") return stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "0" }, { endStream: true });
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.write(frame([1]));
  setTimeout(() => {
    stream.write(frame([2]));
    if (headers["x-mode"] !== "ends") return;
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end();
  }, 100);
});
const rpc = http.createServer((req, res) => {
  req.resume();
  setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":7}'), 100);
});
server.listen(0, "127.0.0.1", () => rpc.listen(0, "127.0.0.1", () => console.log(server.address().port, rpc.address().port)));
`;

let server: ChildProcess;
let target: GrpcTarget;
let rpc: JsonRpcTarget;

beforeAll(async () => {
  server = spawn(process.execPath, ["--input-type=module", "-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [ports] = (await once(server.stdout!, "data")) as [Buffer];
  const [grpcPort, rpcPort] = String(ports).trim().split(" ");
  target = grpcTarget({ url: `http://127.0.0.1:${grpcPort}` });
  rpc = jsonRpcTarget({ url: `http://127.0.0.1:${rpcPort}` });
});

afterAll(async () => {
  await target?.close();
  await rpc?.close();
  server?.kill();
});

/** Keeps this process's event loop busy. */
function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** A gRPC call during which the client stalls from 50 ms to 400 ms, past the server's second message at 100 ms. */
function stalledCall(opts: { quietMs?: number; deadlineMs: number; serverDeadlineMs?: number; mode?: "ends" | "trailers-only" }) {
  return stalled(
    target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), {
      deadlineMs: opts.deadlineMs,
      ...(opts.quietMs !== undefined ? { quietMs: opts.quietMs } : {}),
      ...(opts.serverDeadlineMs !== undefined ? { serverDeadlineMs: opts.serverDeadlineMs } : {}),
      ...(opts.mode ? { headers: { "x-mode": opts.mode } } : {}),
    }),
  );
}

/** Stalls the client from 50 ms to 400 ms into the call. */
async function stalled<T>(call: Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Stalled outside the timers phase (as a socket's callback would be), the loop's next
  // turn begins with the timers that expired meanwhile, before it reads the sockets.
  await new Promise((resolve) => setImmediate(resolve));
  stall(350);
  return call;
}

describe("a client that stalls while the answer arrives", () => {
  test("a message that came within the quiet period is kept, and begins another", async () => {
    const obs = await stalledCall({ quietMs: 150, deadlineMs: 5000 });
    expect(obs.endedBy).toBe("quiet");
    expect(obs.messages.map((m) => [...m])).toEqual([[1], [2]]);
  });

  test("an answer that was complete before the client's deadline is the server's answer", async () => {
    const obs = await stalledCall({ deadlineMs: 200, mode: "ends" });
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(GrpcCode.OK);
    expect(obs.messages.map((m) => [...m])).toEqual([[1], [2]]);
  });

  test("a JSON-RPC answer that came before the client's deadline is the server's answer", async () => {
    const obs = await stalled(rpc.call("getblockcount", [], { deadlineMs: 200 }));
    expect(obs.fault).toBeUndefined();
    expect([obs.httpStatus, Buffer.from(obs.body).toString()]).toEqual([200, '{"jsonrpc":"2.0","id":1,"result":7}']);
  });

  test("a deadline case's OK held across the stall is measured as blurred, and asked again", async () => {
    // The server ends the stream 100 ms after its headers, inside a 200 ms deadline; read
    // after the stall, it looks held ~390 ms, which alone would say PAST_DEADLINE.
    const blurred = await stalledCall({ deadlineMs: 5000, serverDeadlineMs: 200, mode: "ends" });
    expect([blurred.code, blurred.messageCount]).toEqual([GrpcCode.OK, 2]);
    expect(blurred.timing.totalMs - blurred.timing.firstByteMs!).toBeGreaterThan(200);
    expect(blurred.timing.stalledMs).toBeGreaterThanOrEqual(300);
    expect(deadlineTimingUnclear(blurred, 200)).toBe(true);
  });

  test("a trailers-only OK has no hold to blur, and a call without a deadline is not watched", async () => {
    const once = await stalledCall({ deadlineMs: 5000, serverDeadlineMs: 50, mode: "trailers-only" });
    expect([once.code, once.timing.stalledMs]).toEqual([GrpcCode.OK, undefined]);
    const plain = await stalledCall({ deadlineMs: 5000, mode: "ends" });
    expect(plain.timing.stalledMs).toBeUndefined();
  });
});
