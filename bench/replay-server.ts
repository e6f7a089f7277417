// Bench helper, run as a child process: the ceiling for the sweep. It pre-encodes the
// fixture reference build's GetBlockRange answers over the long chain
// (src/zcash/fixture/chain/long.ts) once, as gRPC frames in one buffer, then serves each
// call by writing the requested heights' frames in large batches, without building or
// encoding anything per call. A bare reader drains it at well over 100,000 blocks/s per build,
// so what limits a client measured against it is the client.
//
// The encoding is kept in the system's temporary directory and reused by later runs.
// Each named build gets its own HTTP/2 server. A build named with the suffix
// ":diverging" serves the same blocks with every block's `time` one second later, so
// every height differs from the other builds.
// Usage: npx tsx bench/replay-server.ts <tip> <pools> <build>[:diverging]...
//   → one JSON line on stdout: { urls: { build: url }, encodeMs, bytes }.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { CompactBlockSchema, type CompactBlock } from "../src/zcash/gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, BlockRangeSchema, PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";
import { longChain } from "../src/zcash/fixture/chain/long.js";
import { fixtureContext } from "../src/zcash/fixture/grpc/context.js";
import { getBlockRange } from "../src/zcash/fixture/grpc/blocks.js";
import { profileByName } from "../src/zcash/fixture/grpc/profiles.js";
import { STREAM_WINDOW_BYTES } from "../src/core/targets/grpc-session.js";

const tip = Number(process.argv[2]);
const pools = process.argv[3]!.split(",")
  .filter(Boolean)
  .map((p) => PoolType[p as keyof typeof PoolType]);
const builds = process.argv.slice(4);
/** Bytes per write: large enough that the per-write cost vanishes, small enough to interleave streams. */
const BATCH_BYTES = 256 * 1024;

/** Every height's frame, back to back, and where each starts (heights 1..tip; [tip] is the end). */
interface Encoded {
  frames: Buffer;
  starts: Float64Array;
}

/** Where an encoding is kept between runs: building a million blocks takes a minute. */
function cacheFile(variant: string): string {
  return join(tmpdir(), `zconform-bench-replay-${tip}-${pools.join("_") || "default"}-${variant}.frames`);
}

/** Frame starts, by walking the length prefixes. */
function indexed(frames: Buffer): Encoded {
  const starts = new Float64Array(tip + 1);
  let at = 0;
  for (let i = 0; i < tip; i++) {
    starts[i] = at;
    at += 5 + frames.readUInt32BE(at + 1);
  }
  starts[tip] = at;
  if (at !== frames.length) throw new Error(`cached frames hold ${frames.length} bytes, the index ends at ${at}`);
  return { frames, starts };
}

async function cachedEncode(variant: string, alter?: (b: CompactBlock) => void): Promise<Encoded> {
  const file = cacheFile(variant);
  if (existsSync(file)) return indexed(readFileSync(file));
  const e = await encode(alter);
  writeFileSync(`${file}.tmp`, e.frames);
  renameSync(`${file}.tmp`, file);
  return e;
}

async function encode(alter?: (b: CompactBlock) => void): Promise<Encoded> {
  const ctx = fixtureContext(longChain({ tip }), profileByName("reference"));
  const range = create(BlockRangeSchema, {
    start: create(BlockIDSchema, { height: 1n }),
    end: create(BlockIDSchema, { height: BigInt(tip) }),
    poolTypes: pools,
  });
  const parts: Uint8Array[] = [];
  const starts = new Float64Array(tip + 1);
  let at = 0;
  let i = 0;
  for await (const block of getBlockRange(ctx, range, false)) {
    alter?.(block);
    const msg = toBinary(CompactBlockSchema, block);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(msg.length, 1);
    parts.push(head, msg);
    starts[i++] = at;
    at += 5 + msg.length;
  }
  starts[i] = at;
  return { frames: Buffer.concat(parts, at), starts };
}

function serve(data: Encoded): Promise<{ url: string; close(): Promise<void> }> {
  const server = http2.createServer({ settings: { initialWindowSize: STREAM_WINDOW_BYTES } });
  server.on("stream", (stream, headers) => {
    const body: Buffer[] = [];
    stream.on("data", (c: Buffer) => body.push(c));
    stream.on("error", () => undefined);
    stream.on("end", () => {
      if (headers[":path"] !== "/cash.z.wallet.sdk.rpc.CompactTxStreamer/GetBlockRange") {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
        return;
      }
      const req = fromBinary(BlockRangeSchema, Buffer.concat(body).subarray(5));
      const from = Number(req.start?.height ?? 0n);
      const to = Number(req.end?.height ?? 0n);
      if (from < 1 || to > tip || from > to) {
        stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "11", "grpc-message": "out of range" }, { endStream: true });
        return;
      }
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      let at = data.starts[from - 1]!;
      const end = data.starts[to]!;
      const pump = (): void => {
        while (at < end && !stream.destroyed) {
          const n = Math.min(BATCH_BYTES, end - at);
          const more = stream.write(data.frames.subarray(at, at + n));
          at += n;
          if (!more) return void stream.once("drain", pump);
        }
        if (!stream.destroyed) stream.end();
      };
      pump();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}

const t0 = performance.now();
const same = await cachedEncode("same");
const diverging = builds.some((b) => b.endsWith(":diverging")) ? await cachedEncode("time-plus-1", (b) => void (b.time += 1)) : undefined;
const encodeMs = performance.now() - t0;
const servers = await Promise.all(builds.map((b) => serve(b.endsWith(":diverging") ? diverging! : same)));
process.stdout.write(
  `${JSON.stringify({ urls: Object.fromEntries(builds.map((b, i) => [b.replace(/:diverging$/, ""), servers[i]!.url])), encodeMs, bytes: same.frames.length })}\n`,
);
// Runs until the parent closes stdin; open sessions are not waited for.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
