// Who ended what on an HTTP/2 connection: the frame scanner, and calls to peers that
// break HTTP/2 (ended at once as the server's protocol fault, never at their deadline),
// that reset or refuse streams (the server's doing), and whose answers the client itself
// refuses (the client's doing, and said so).

import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO } from "../../../test/tools/cli.js";
import http2 from "node:http2";
import { BlockIDSchema, CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { ATTACKS, FLAG, frame, FRAME, GRPC_RESPONSE_HEADERS, startRawHttp2Peer, type Attack } from "../../../test/tools/raw-http2.js";
import type { TcpServer } from "../../../test/tools/tcp-server.js";
import { callGrpc, GrpcConnection } from "./grpc.js";
import { CLOSE_GRACE_MS } from "./grpc-session.js";
import { FrameScanner, type ControlFrame } from "./grpc-wire.js";
import { startRawServer, type TestServer } from "./test-servers.test-helper.js";

const GetBlock = CompactTxStreamer.method.getBlock;
const request = create(BlockIDSchema, { height: 1n });
const DEADLINE_MS = 20_000;

describe("FrameScanner", () => {
  const goaway = (code: number, last: number, debug: string) => {
    const p = Buffer.alloc(8);
    p.writeUInt32BE(last, 0);
    p.writeUInt32BE(code, 4);
    return frame(FRAME.GOAWAY, 0, 0, Buffer.concat([p, Buffer.from(debug)]));
  };
  const rst = (id: number, code: number) => frame(FRAME.RST_STREAM, 0, id, Buffer.from([0, 0, 0, code]));
  const bytes = Buffer.concat([
    Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
    frame(FRAME.SETTINGS, 0, 0),
    frame(FRAME.HEADERS, FLAG.END_HEADERS, 1, GRPC_RESPONSE_HEADERS),
    // A DATA payload that looks like frames must be skipped, not read.
    frame(FRAME.DATA, 0, 1, rst(1, 0xb)),
    rst(3, 0xb),
    goaway(0x1, 5, "DATA: stream_id == 0"),
  ]);

  test("reads GOAWAY and RST_STREAM wherever chunks split them, and skips everything else", () => {
    for (const size of [1, 2, 7, 9, 10, 64, bytes.length]) {
      const seen: ControlFrame[] = [];
      const scanner = new FrameScanner((f) => seen.push(f), { clientPreface: true });
      for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size));
      expect(seen).toEqual([
        { type: "rst", streamId: 3, code: 0xb },
        { type: "goaway", goaway: { code: 1, lastStreamId: 5, debug: "DATA: stream_id == 0" } },
      ]);
    }
  });
});

describe("a peer that breaks HTTP/2", () => {
  // The calls run in a process of their own (test/tools/broken-peer-calls.ts says why).
  let seen: { name: string; calls: { fault: { kind: string; detail: string } | null; ms: number; connections: number }[] }[];
  beforeAll(async () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", join(REPO, "test", "tools", "broken-peer-calls.ts"), String(DEADLINE_MS)], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 120_000,
    });
    if (run.status !== 0) throw new Error(`broken-peer-calls exited ${run.status} ${run.signal ?? ""}: ${run.stderr.slice(-2000)}`);
    seen = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as (typeof seen)[number]);
  }, 150_000);

  test.each(Object.keys(ATTACKS))("%s: the call ends at once as the server's protocol fault, and the next call gets a fresh connection", (name) => {
    const calls = seen.find((x) => x.name === name)!.calls;
    calls.forEach((c, i) => {
      expect(c.fault?.kind).toBe("protocol");
      expect(c.fault?.detail).toMatch(/^the client ended the connection with GOAWAY (PROTOCOL_ERROR|COMPRESSION_ERROR).*: the server broke HTTP\/2$/);
      expect(c.ms).toBeLessThan(DEADLINE_MS / 4);
      expect(c.connections).toBe(i + 1);
    });
    expect(calls).toHaveLength(2);
  });

  // node 20 aborts when it collects a session nghttp2 broke off with memory still counted
  // (node_http2.cc checks current_nghttp2_memory_ == 0 in ~Http2Session; seen under load in
  // a full test run). The client keeps those sessions from the collector; a process that
  // keeps calling such peers and collecting its garbage must live on.
  test("a process that calls them round after round, collecting garbage between rounds, lives on", () => {
    const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(REPO, "test", "tools", "broken-peer-gc.ts"), "30"], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 120_000,
    });
    // What node printed when it aborted (the assertion and its stack) goes with the failure.
    expect({ status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr.slice(-3000) }).toEqual({
      status: 0,
      signal: null,
      stdout: "30 rounds\n",
      stderr: "",
    });
  }, 150_000);
});

describe("resets and refusals are named for who sent them", () => {
  let server: TestServer;
  const peers: TcpServer[] = [];
  afterAll(async () => {
    await server?.close();
    await Promise.all(peers.map((p) => p.close()));
  });

  async function callRaw(attack: Attack) {
    const peer = await startRawHttp2Peer(attack);
    peers.push(peer);
    return callGrpc({ url: peer.url }, GetBlock, request, { deadlineMs: DEADLINE_MS });
  }

  test("a stream the server reset with ENHANCE_YOUR_CALM is the server's reset", async () => {
    server = await startRawServer((s) => s.close(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM));
    const obs = await callGrpc({ url: server.url }, GetBlock, request, { deadlineMs: DEADLINE_MS });
    expect(obs.fault).toEqual({ kind: "reset", detail: "server reset the stream (RST_STREAM ENHANCE_YOUR_CALM)" });
  });

  test("headers beyond what the client accepts: the client's own ENHANCE_YOUR_CALM, said to be the client's", async () => {
    const many = Buffer.concat([
      GRPC_RESPONSE_HEADERS,
      ...Array.from({ length: 300 }, (_, i) => Buffer.from([0, 3, ...Buffer.from(`x${String(i).padStart(2, "0").slice(-2)}`), 1, 0x61])),
    ]);
    const obs = await callRaw((conn, id) => conn.write(frame(FRAME.HEADERS, FLAG.END_HEADERS, id, many)));
    expect(obs.fault?.kind).toBe("protocol");
    expect(obs.fault?.detail).toMatch(/^the client reset the stream \(RST_STREAM ENHANCE_YOUR_CALM\)/);
  });

  test("a GOAWAY that refuses the call is the server's GOAWAY, not a reset", async () => {
    const goaway = Buffer.alloc(8); // last stream 0, NO_ERROR
    const obs = await callRaw((conn) => conn.write(frame(FRAME.GOAWAY, 0, 0, goaway)));
    expect(obs.fault).toEqual({ kind: "reset", detail: "the server sent GOAWAY NO_ERROR (last stream 0) before it took this call" });
    expect(obs.code).toBe(14);
  });
});

describe("closing a connection is bounded", () => {
  // A peer that answers one call, then ignores everything: the client's GOAWAY and FIN get
  // no answer and the socket stays open, as with a server whose process was stopped.
  async function deafAfterOne(): Promise<{ peer: TcpServer; conn: GrpcConnection }> {
    const peer = await startRawHttp2Peer(() => undefined, { answerFirst: 1, halfOpen: true });
    const conn = new GrpcConnection({ url: peer.url });
    expect((await callGrpc(conn, GetBlock, request, { deadlineMs: DEADLINE_MS })).code).toBe(12);
    return { peer, conn };
  }

  test("a server that never answers the goodbye is cut off CLOSE_GRACE_MS after the last call", async () => {
    const { peer, conn } = await deafAfterOne();
    const t0 = performance.now();
    await conn.close();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(CLOSE_GRACE_MS - 50);
    expect(performance.now() - t0).toBeLessThan(CLOSE_GRACE_MS + 2000);
    await peer.close();
  });

  test("abort() during such a close cuts it at once", async () => {
    const { peer, conn } = await deafAfterOne();
    const t0 = performance.now();
    const closed = conn.close();
    conn.abort();
    await closed;
    expect(performance.now() - t0).toBeLessThan(CLOSE_GRACE_MS / 2);
    await peer.close();
  });
});
