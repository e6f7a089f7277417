// A client whose event loop stalls (a busy machine, a long synchronous task) while the
// server's answer arrives: what came in time is read before the client's own clock ends
// the call. The server runs in another process so that it keeps its time while the
// client stalls, and says by a file when it has sent an answer: each stall lasts until
// then, however slow a loaded machine makes either process.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { create } from "@bufbuild/protobuf";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompactTxStreamer, EmptySchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { deadlineTimingUnclear } from "../canon/grpc.js";
import { grpcTarget, type GrpcCallOptions, type GrpcTarget } from "./grpc.js";
import { GrpcCode } from "./grpc-status.js";
import { jsonRpcTarget, type JsonRpcTarget } from "./jsonrpc.js";
import { waitFor } from "../../../test/tools/cli.js";
import { stallLoop, stallUntil } from "../../../test/tools/stall.js";

/**
 * gRPC: one message at once, a second 100 ms later, then (x-mode "ends") OK or (else)
 * silence with the stream open; or (x-mode "trailers-only") OK at once in one HEADERS
 * frame. JSON-RPC: a result 100 ms after the request. `<x-id>.got` is written when a
 * request arrives, `<x-id>.sent` once the last bytes went out. Prints both ports.
 */
const SERVER = `
import http from "node:http";
import http2 from "node:http2";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
const mark = (id, what) => writeFileSync(join(process.env.MARKS, id + "." + what), "");
const frame = (bytes) => { const b = Buffer.alloc(5 + bytes.length); b.writeUInt32BE(bytes.length, 1); Buffer.from(bytes).copy(b, 5); return b; };
const server = http2.createServer();
server.on("stream", (stream, headers) => {
  const id = headers["x-id"];
  stream.on("error", () => {});
  stream.resume();
  if (headers["x-mode"] === "trailers-only") return stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "0" }, { endStream: true });
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.write(frame([1]));
  setTimeout(() => {
    if (headers["x-mode"] !== "ends") return stream.write(frame([2]), () => mark(id, "sent"));
    stream.write(frame([2]));
    stream.once("close", () => mark(id, "sent"));
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end();
  }, 100);
});
const rpc = http.createServer((req, res) => {
  const id = req.headers["x-id"];
  mark(id, "got");
  req.resume();
  res.once("finish", () => mark(id, "sent"));
  setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":7}'), 100);
});
server.listen(0, "127.0.0.1", () => rpc.listen(0, "127.0.0.1", () => console.log(server.address().port, rpc.address().port)));
`;

let marks: string;
let server: ChildProcess;
let target: GrpcTarget;
let rpc: JsonRpcTarget;
let calls = 0;

beforeAll(async () => {
  marks = mkdtempSync(join(tmpdir(), "zconform-stall-"));
  server = spawn(process.execPath, ["--input-type=module", "-e", SERVER], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, MARKS: marks } });
  const [ports] = (await once(server.stdout!, "data")) as [Buffer];
  const [grpcPort, rpcPort] = String(ports).trim().split(" ");
  target = grpcTarget({ url: `http://127.0.0.1:${grpcPort}` });
  rpc = jsonRpcTarget({ url: `http://127.0.0.1:${rpcPort}` });
});

afterAll(async () => {
  await target?.close();
  await rpc?.close();
  server?.kill();
  if (marks) rmSync(marks, { recursive: true, force: true });
});

const marked = (id: string, what: "got" | "sent") => existsSync(join(marks, `${id}.${what}`));

/**
 * Keeps this process's event loop busy until the server has sent call `id`'s answer and
 * `until` (a performance.now() time) has passed, then 30 ms more for the bytes on their
 * way: the client's timers expire meanwhile, with the answer waiting in the socket.
 */
function stallUntilSent(id: string, until: number): void {
  stallUntil(() => marked(id, "sent"), until, `the server to send ${id}'s answer`);
  stallLoop(30);
}

/**
 * A gRPC call that stalls its client as the first message is read (inside a socket's
 * callback: the loop's next turn then runs the expired timers before it reads again)
 * until the server has sent the rest and the time `until(callStart)` has passed.
 */
async function stalledCall(until: (callStart: number) => number, opts: Pick<GrpcCallOptions, "quietMs" | "deadlineMs" | "serverDeadlineMs">, mode?: "ends") {
  const id = `grpc-${++calls}`;
  const messages: number[][] = [];
  const t0 = performance.now();
  const obs = await target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), {
    ...opts,
    headers: { "x-id": id, ...(mode ? { "x-mode": mode } : {}) },
    onMessage: (bytes, index) => {
      messages.push([...bytes]);
      if (index === 0) stallUntilSent(id, until(t0));
    },
  });
  return { obs, messages };
}

describe("a client that stalls while the answer arrives", () => {
  test("a message that came within the quiet period is kept, and begins another", async () => {
    const { obs, messages } = await stalledCall(() => performance.now() + 200, { quietMs: 150, deadlineMs: 5000 });
    expect(obs.endedBy).toBe("quiet");
    expect(messages).toEqual([[1], [2]]);
  });

  test("an answer that was complete before the client's deadline is the server's answer", async () => {
    const { obs, messages } = await stalledCall((start) => start + 1050, { deadlineMs: 1000 }, "ends");
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(GrpcCode.OK);
    expect(messages).toEqual([[1], [2]]);
  });

  test("a JSON-RPC answer that came before the client's deadline is the server's answer", async () => {
    const id = `rpc-${++calls}`;
    const t0 = performance.now();
    const call = rpc.call("getblockcount", [], { deadlineMs: 1000, headers: { "x-id": id } });
    await waitFor(() => marked(id, "got"), 10_000, `the server to receive ${id}`);
    // Stalled outside the timers phase, as in a socket's callback.
    await new Promise((resolve) => setImmediate(resolve));
    stallUntilSent(id, t0 + 1050);
    const obs = await call;
    expect(obs.fault).toBeUndefined();
    expect([obs.httpStatus, Buffer.from(obs.body).toString()]).toEqual([200, '{"jsonrpc":"2.0","id":1,"result":7}']);
  });

  test("a deadline case's OK held across the stall is measured as blurred, and asked again", async () => {
    // The server ends the stream 100 ms after its headers, inside a 250 ms deadline; read
    // after the stall, it looks held longer than that, which alone would say PAST_DEADLINE.
    const { obs } = await stalledCall(() => performance.now() + 300, { deadlineMs: 5000, serverDeadlineMs: 250 }, "ends");
    expect([obs.code, obs.messageCount]).toEqual([GrpcCode.OK, 2]);
    expect(obs.timing.totalMs - obs.timing.firstByteMs!).toBeGreaterThan(250);
    expect(obs.timing.stalledMs).toBeGreaterThanOrEqual(250);
    expect(deadlineTimingUnclear(obs, 250)).toBe(true);
  });

  test("a trailers-only OK has no hold to blur, and a call without a deadline is not watched", async () => {
    const plainCall = (headers: Record<string, string>, serverDeadlineMs?: number) =>
      target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), {
        deadlineMs: 5000,
        headers: { "x-id": `grpc-${++calls}`, ...headers },
        ...(serverDeadlineMs !== undefined ? { serverDeadlineMs } : {}),
      });
    const once = await plainCall({ "x-mode": "trailers-only" }, 50);
    expect([once.code, once.timing.stalledMs]).toEqual([GrpcCode.OK, undefined]);
    const plain = await plainCall({ "x-mode": "ends" });
    expect(plain.timing.stalledMs).toBeUndefined();
  });
});
