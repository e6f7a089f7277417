// Calls to peers that break HTTP/2, round after round, with a full collection after each
// round: node 20 aborts when it collects a session nghttp2 broke off
// (node_http2.cc: current_nghttp2_memory_ == 0 on ~Http2Session). Exits 0 when every
// round ended; an abort shows as SIGABRT.
//
//   node --expose-gc --import tsx test/tools/broken-peer-gc.ts <rounds>

import { create } from "@bufbuild/protobuf";
import { callGrpc, GrpcConnection } from "../../src/core/targets/grpc.js";
import { BlockIDSchema, CompactTxStreamer } from "../../src/zcash/gen/walletrpc/service_pb.js";
import { ATTACKS, startRawHttp2Peer } from "./raw-http2.js";

const rounds = Number(process.argv[2] ?? 20);
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error("run with node --expose-gc");
const request = create(BlockIDSchema, { height: 1n });
const peers = await Promise.all(Object.values(ATTACKS).map((attack) => startRawHttp2Peer(attack)));
for (let round = 0; round < rounds; round++) {
  for (const peer of peers) {
    const conn = new GrpcConnection({ url: peer.url });
    await callGrpc(conn, CompactTxStreamer.method.getBlock, request, { deadlineMs: 5_000 });
    await conn.close();
  }
  await new Promise((r) => setImmediate(r));
  collect();
}
await Promise.all(peers.map((p) => p.close()));
process.stdout.write(`${rounds} rounds\n`);
