// Calls to peers that break HTTP/2, made in a process of their own that exits as soon as
// it has printed what each call saw (one JSON line per attack: two calls on one
// connection). node 20's http2 may abort when it later collects a session nghttp2 broke
// off (node_http2.cc: current_nghttp2_memory_ == 0 on ~Http2Session); here nothing is
// collected, and a test runner's process never holds such a session.
//
//   npx tsx test/tools/broken-peer-calls.ts <deadline ms>

import { create } from "@bufbuild/protobuf";
import { BlockIDSchema, CompactTxStreamer } from "../../src/zcash/gen/walletrpc/service_pb.js";
import { callGrpc, GrpcConnection } from "../../src/core/targets/grpc.js";
import { ATTACKS, startRawHttp2Peer } from "./raw-http2.js";

const deadlineMs = Number(process.argv[2] ?? 20_000);
const request = create(BlockIDSchema, { height: 1n });
for (const [name, attack] of Object.entries(ATTACKS)) {
  const peer = await startRawHttp2Peer(attack);
  const conn = new GrpcConnection({ url: peer.url });
  const calls = [];
  for (let i = 1; i <= 2; i++) {
    const obs = await callGrpc(conn, CompactTxStreamer.method.getBlock, request, { deadlineMs });
    calls.push({ fault: obs.fault ?? null, ms: obs.timing.totalMs, connections: peer.connections() });
  }
  await conn.close();
  await peer.close();
  process.stdout.write(`${JSON.stringify({ name, calls })}\n`);
}
process.exit(0);
