// Raw HTTP/2 servers that break the gRPC rules on purpose: every call must resolve with
// the right fault kind and code, and keep whatever bytes arrived before the break.

import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http2 from "node:http2";
import { BlockIDSchema, BlockRangeSchema, ChainSpecSchema, CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { grpcTarget, type GrpcCallOptions, type GrpcTarget } from "./grpc.js";
import { endWithStatus, rawFrame, respondGrpc, startRawServer, type TestServer } from "./test-servers.test-helper.js";

const M = CompactTxStreamer.method;
const { NGHTTP2_INTERNAL_ERROR, NGHTTP2_CANCEL, NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } = http2.constants;

// BlockID{height: 7, hash: 0xaabb} written hash-first, with an explicit zero field 3
// (unknown) and height as a two-byte varint: valid protobuf, deliberately not canonical.
const NON_CANONICAL = Uint8Array.from([0x12, 0x02, 0xaa, 0xbb, 0x18, 0x00, 0x08, 0x87, 0x00]);
const SMALL = Uint8Array.from([0x08, 0x01]);
const BIG = Uint8Array.from({ length: 10 * 1024 * 1024 + 3 }, (_, i) => (i * 7) & 0xff);

const modes: Record<string, (s: http2.ServerHttp2Stream) => void> = {
  "non-canonical": (s) => {
    respondGrpc(s);
    s.write(rawFrame(NON_CANONICAL));
    endWithStatus(s, 0);
  },
  "two-messages": (s) => {
    respondGrpc(s);
    s.write(Buffer.concat([rawFrame(SMALL), rawFrame(NON_CANONICAL)]));
    endWithStatus(s, 0);
  },
  "split-bytes": (s) => {
    // One byte per DATA frame: frame boundaries have nothing to do with chunk boundaries.
    respondGrpc(s);
    const all = Buffer.concat([rawFrame(NON_CANONICAL), rawFrame(SMALL), rawFrame(new Uint8Array(0))]);
    let i = 0;
    const tick = (): void => {
      if (i < all.length) {
        s.write(all.subarray(i, i + 1));
        i++;
        setImmediate(tick);
      } else endWithStatus(s, 0);
    };
    tick();
  },
  "big-message": (s) => {
    // Larger than every flow-control window, so it arrives over many WINDOW_UPDATEs.
    respondGrpc(s);
    s.write(rawFrame(BIG));
    endWithStatus(s, 0);
  },
  "goaway-after": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL));
    endWithStatus(s, 0);
    const session = s.session;
    s.once("close", () => session?.close());
  },
  "bad-flag": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL, { flag: 0x80 }));
    endWithStatus(s, 0);
  },
  "lying-length": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL));
    s.write(rawFrame(SMALL, { length: 100 }));
    endWithStatus(s, 0);
  },
  "short-length": (s) => {
    // Prefix says 1 byte, 5 follow: the spare 0x03 is read as the next frame's flag.
    respondGrpc(s);
    s.write(rawFrame(Uint8Array.from([0x0a, 0x03, 0x61, 0x62, 0x63]), { length: 1 }));
    endWithStatus(s, 0);
  },
  "truncated-header": (s) => {
    respondGrpc(s);
    s.write(Buffer.from([0, 0, 0]));
    endWithStatus(s, 0);
  },
  compressed: (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL, { flag: 1 }));
    endWithStatus(s, 0);
  },
  "compressed-gzip": (s) => {
    respondGrpc(s, { "grpc-encoding": "gzip" });
    s.write(rawFrame(SMALL, { flag: 1 }));
    endWithStatus(s, 0);
  },
  "html-200": (s) => {
    s.respond({ ":status": 200, "content-type": "text/html" });
    s.end("<html>hello</html>");
  },
  "html-503": (s) => {
    s.respond({ ":status": 503, "content-type": "text/html" });
    s.end("<html>down</html>");
  },
  "status-in-404": (s) => {
    s.respond({ ":status": 404, "content-type": "application/grpc", "grpc-status": "5", "grpc-message": "gone" }, { endStream: true });
  },
  "trailers-only": (s) => {
    s.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12", "grpc-message": "method not here %E2%9C%93" }, { endStream: true });
  },
  "raw-utf8-message": (s) => {
    // A server that ignores percent-encoding: bytes over 0x7f straight in the header.
    s.respond(
      { ":status": 200, "content-type": "application/grpc", "grpc-status": "3", "grpc-message": Buffer.from("bad ü", "utf8").toString("latin1") },
      { endStream: true },
    );
  },
  "no-trailers": (s) => {
    s.respond({ ":status": 200, "content-type": "application/grpc" });
    s.end(rawFrame(SMALL));
  },
  "trailers-without-status": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL));
    s.once("wantTrailers", () => s.sendTrailers({ "x-other": "1" }));
    s.end();
  },
  "invalid-status": (s) => {
    respondGrpc(s);
    endWithStatus(s, "abc" as unknown as number);
  },
  "reset-midstream": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL), () => setTimeout(() => s.close(NGHTTP2_INTERNAL_ERROR), 20));
  },
  "reset-cancel": (s) => s.close(NGHTTP2_CANCEL),
  "reset-refused": (s) => s.close(NGHTTP2_REFUSED_STREAM),
  "reset-calm": (s) => s.close(NGHTTP2_ENHANCE_YOUR_CALM),
  "drop-connection": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL), () => setTimeout(() => s.session?.destroy(), 20));
  },
  "hang-before-headers": () => undefined,
  "hang-after-message": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL));
  },
  "oversize-prefix": (s) => {
    respondGrpc(s);
    s.write(rawFrame(SMALL, { length: 64 * 1024 * 1024 }));
  },
  "oversize-real": (s) => {
    respondGrpc(s);
    s.write(rawFrame(new Uint8Array(4096).fill(1)));
    endWithStatus(s, 0);
  },
  endless: (s) => {
    respondGrpc(s);
    const frame = rawFrame(SMALL);
    const pump = (): void => {
      while (!s.destroyed && !s.closed) {
        if (!s.write(frame)) {
          s.once("drain", pump);
          return;
        }
      }
    };
    pump();
  },
};

let server: TestServer;
let target: GrpcTarget;

beforeAll(async () => {
  server = await startRawServer((stream, headers) => {
    const mode = String(headers["x-mode"]);
    const handler = modes[mode];
    if (!handler) stream.close(NGHTTP2_INTERNAL_ERROR);
    else handler(stream);
  });
  target = grpcTarget({ url: server.url });
});

afterAll(async () => {
  await target.close();
  await server.close();
});

function call(mode: string, opts: GrpcCallOptions = {}) {
  return target.call(M.getBlock, create(BlockIDSchema, { height: 1n }), {
    deadlineMs: 3000,
    ...opts,
    headers: { "x-mode": mode },
  });
}

describe("bytes kept as sent", () => {
  test("non-canonical message bytes are not re-encoded", async () => {
    const obs = await call("non-canonical");
    expect(obs.fault).toBeUndefined();
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(NON_CANONICAL));
  });

  test("a unary answer with two messages keeps both", async () => {
    const obs = await call("two-messages");
    expect(obs.code).toBe(0);
    expect(obs.messages.map((m) => Buffer.from(m))).toEqual([Buffer.from(SMALL), Buffer.from(NON_CANONICAL)]);
  });

  test("frames split across one-byte DATA frames, including an empty message", async () => {
    const obs = await call("split-bytes");
    expect(obs.fault).toBeUndefined();
    expect(obs.messages.map((m) => Buffer.from(m).toString("hex"))).toEqual([
      Buffer.from(NON_CANONICAL).toString("hex"),
      Buffer.from(SMALL).toString("hex"),
      "",
    ]);
    expect(obs.wireBytes).toBe(5 * 3 + NON_CANONICAL.length + SMALL.length);
  });

  test("a 10 MiB message arrives whole", async () => {
    const obs = await call("big-message");
    expect(obs.fault).toBeUndefined();
    expect(obs.messages[0]!.length).toBe(BIG.length);
    expect(Buffer.from(obs.messages[0]!).equals(Buffer.from(BIG))).toBe(true);
  });

  test("trailers-only status with a percent-encoded message", async () => {
    const obs = await call("trailers-only");
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(12);
    expect(obs.message).toBe("method not here ✓");
    expect(obs.trailers["grpc-status"]).toBe("12");
    expect(obs.headers).toEqual({});
  });

  test("grpc-message sent as raw UTF-8 is still read", async () => {
    const obs = await call("raw-utf8-message");
    expect(obs.code).toBe(3);
    expect(obs.message).toBe("bad ü");
  });
});

describe("faults", () => {
  // Every row has all four columns: jest passes a done callback to a function that
  // declares more parameters than the row has values.
  const cases: [string, string, number, GrpcCallOptions][] = [
    ["bad-flag", "malformed-frame", 13, {}],
    ["lying-length", "malformed-frame", 13, {}],
    ["short-length", "malformed-frame", 13, {}],
    ["truncated-header", "malformed-frame", 13, {}],
    ["compressed", "compressed", 13, {}],
    ["compressed-gzip", "compressed", 13, {}],
    ["html-200", "content-type", 2, {}],
    ["html-503", "http-status", 14, {}],
    ["status-in-404", "http-status", 5, {}],
    ["no-trailers", "protocol", 13, {}],
    ["trailers-without-status", "protocol", 13, {}],
    ["invalid-status", "protocol", 13, {}],
    ["reset-midstream", "reset", 13, {}],
    ["reset-cancel", "reset", 1, {}],
    ["reset-refused", "reset", 14, {}],
    ["reset-calm", "reset", 8, {}],
    ["drop-connection", "reset", 14, {}],
    ["hang-before-headers", "timeout", 4, { deadlineMs: 200 }],
    ["hang-after-message", "timeout", 4, { deadlineMs: 200 }],
    ["oversize-prefix", "too-large", 8, {}],
    ["oversize-real", "too-large", 8, { maxMessageBytes: 1024 }],
    ["endless", "too-long", 8, { maxMessages: 1000 }],
  ];
  test.each(cases)("%s → %s (code %d)", async (mode, kind, code, opts) => {
    const obs = await call(mode, opts);
    expect(obs.fault?.kind).toBe(kind);
    expect(obs.code).toBe(code);
    expect(obs.fault?.detail.length).toBeGreaterThan(0);
  });

  test("messages before a break are kept", async () => {
    expect((await call("lying-length")).messages).toHaveLength(1);
    expect((await call("reset-midstream")).messages).toHaveLength(1);
    expect((await call("hang-after-message", { deadlineMs: 200 })).messages).toHaveLength(1);
    const endless = await call("endless", { maxMessages: 1000 });
    expect(endless.messages).toHaveLength(1000);
    expect(endless.messageCount).toBe(1000);
  });

  test("the compressed fault names the declared encoding", async () => {
    const obs = await call("compressed-gzip");
    expect(obs.fault?.detail).toMatch(/gzip/);
  });

  test("the timeout fires near the deadline", async () => {
    const obs = await call("hang-before-headers", { deadlineMs: 300 });
    expect(obs.timing.totalMs).toBeGreaterThanOrEqual(290);
    expect(obs.timing.totalMs).toBeLessThan(2000);
    expect(obs.timing.firstByteMs).toBeUndefined();
  });

  test("the session survives faults: a later call still works", async () => {
    await call("reset-midstream");
    await call("endless", { maxMessages: 10 });
    const obs = await call("non-canonical");
    expect(obs.fault).toBeUndefined();
  });

  test("a server that closes its session after a call: the next call reconnects", async () => {
    expect((await call("non-canonical")).fault).toBeUndefined();
    const before = server.sessionsOpened();
    expect((await call("goaway-after")).fault).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect((await call("non-canonical")).fault).toBeUndefined();
    expect(server.sessionsOpened() - before).toBe(1);
  });

  test("a server stream with a method of another kind uses the same framing", async () => {
    const obs = await target.call(M.getBlockRange, create(BlockRangeSchema, {}), { headers: { "x-mode": "two-messages" } });
    expect(obs.messages).toHaveLength(2);
    const un = await target.call(M.getLatestBlock, create(ChainSpecSchema), { headers: { "x-mode": "two-messages" } });
    expect(un.messages).toHaveLength(2);
  });
});
