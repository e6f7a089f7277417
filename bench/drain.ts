// The baseline of the sweep benchmark: a bare HTTP/2 reader that drains the same
// GetBlockRange streams from the same servers and does nothing else — node:http2
// directly, gRPC framing only (the 5-byte length prefixes are walked to count
// messages; no message is copied, decoded or compared). What the sweep does beyond this
// is what zconform's client and differ cost. The flow-control windows are a parameter:
// TUNED_WINDOWS are what a client tuned for bulk streams sets, so the ceiling is not
// lowered to zconform's own choice; OWN_WINDOWS are the client's
// (src/core/targets/grpc-session.ts), for the second row.
import { create, toBinary } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { SESSION_WINDOW_BYTES, STREAM_WINDOW_BYTES } from "../src/core/targets/grpc-session.js";
import { BlockIDSchema, BlockRangeSchema, type PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";

export interface Windows {
  stream: number;
  session: number;
}

/** What a client tuned for bulk streams sets: 2 MiB per stream, 16 MiB per connection at least. */
export const TUNED_WINDOWS: Windows = { stream: 2 * 1024 * 1024, session: 16 * 1024 * 1024 };
export const OWN_WINDOWS: Windows = { stream: STREAM_WINDOW_BYTES, session: SESSION_WINDOW_BYTES };

export interface Drained {
  blocks: number;
  bytes: number;
  ms: number;
}

function requestFrame(from: number, to: number, poolTypes: readonly PoolType[]): Buffer {
  const msg = toBinary(
    BlockRangeSchema,
    create(BlockRangeSchema, {
      start: create(BlockIDSchema, { height: BigInt(from) }),
      end: create(BlockIDSchema, { height: BigInt(to) }),
      poolTypes: [...poolTypes],
    }),
  );
  const frame = Buffer.alloc(5 + msg.length);
  frame.writeUInt32BE(msg.length, 1);
  frame.set(msg, 5);
  return frame;
}

/** One GetBlockRange call on an open session, counted frame by frame. */
function drainOne(session: http2.ClientHttp2Session, from: number, to: number, poolTypes: readonly PoolType[]): Promise<{ blocks: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({
      ":method": "POST",
      ":path": "/cash.z.wallet.sdk.rpc.CompactTxStreamer/GetBlockRange",
      "content-type": "application/grpc",
      te: "trailers",
    });
    let blocks = 0;
    let bytes = 0;
    // Bytes still needed to finish the current frame's payload, or -1 while reading a prefix.
    let skip = 0;
    let prefix = Buffer.alloc(0);
    stream.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      let at = 0;
      while (at < chunk.length) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - at);
          skip -= n;
          at += n;
          continue;
        }
        const need = 5 - prefix.length;
        if (chunk.length - at < need) {
          prefix = Buffer.concat([prefix, chunk.subarray(at)]);
          return;
        }
        const head = prefix.length > 0 ? Buffer.concat([prefix, chunk.subarray(at, at + need)]) : chunk.subarray(at, at + 5);
        at += need;
        prefix = Buffer.alloc(0);
        skip = head.readUInt32BE(1);
        blocks++;
      }
    });
    stream.on("trailers", (t) => {
      if (t["grpc-status"] !== "0") reject(new Error(`grpc-status ${String(t["grpc-status"])} ${String(t["grpc-message"] ?? "")}`));
    });
    stream.on("error", reject);
    stream.on("end", () => resolve({ blocks, bytes }));
    stream.end(requestFrame(from, to, poolTypes));
  });
}

/** Drains [from, to] from `url` in chunks of `chunk` blocks, one call after the other. */
export async function drain(url: string, from: number, to: number, chunk: number, poolTypes: readonly PoolType[], windows: Windows): Promise<Drained> {
  const session = http2.connect(url, { settings: { enablePush: false, initialWindowSize: windows.stream }, maxSessionMemory: 64 });
  session.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    session.once("connect", () => resolve());
    session.once("error", reject);
  });
  session.setLocalWindowSize(windows.session);
  const t0 = performance.now();
  let blocks = 0;
  let bytes = 0;
  try {
    for (let h = from; h <= to; h += chunk) {
      const r = await drainOne(session, h, Math.min(to, h + chunk - 1), poolTypes);
      blocks += r.blocks;
      bytes += r.bytes;
    }
  } finally {
    session.close();
  }
  return { blocks, bytes, ms: performance.now() - t0 };
}
