// Two behaviours of real lightwalletd's shared mempool cache that the ledger records
// (lwd-mempool-stream-cold-ends-ok, lwd-mempool-stream-cancel-loses-txs), reproduced on
// every run rather than waited for: the first is the first GetMempoolStream after a
// start, the second needs a stream cut while lightwalletd fetches the mempool's
// transactions, which a node answering in microseconds makes a rare race. Here the node
// (the fixture's JSON-RPC behind a proxy) takes a second per getrawtransaction, so a
// stream with a 500 ms deadline is always cut inside that fetch (and never before it: the
// calls before it are not delayed, and half a second leaves a busy machine room to make
// them). A second lightwalletd on the same node, whose refresh nobody cuts, is the
// control: it streams every transaction.

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { create } from "@bufbuild/protobuf";
import { grpcTarget, type GrpcTarget } from "../src/core/targets/grpc.js";
import { GrpcCode } from "../src/core/targets/grpc-status.js";
import { jsonRpcTarget } from "../src/core/targets/jsonrpc.js";
import { CompactTxStreamer, EmptySchema } from "../src/zcash/gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { startLightwalletd, type RunningRealServer } from "../src/zcash/real/lightwalletd.js";
import { oracleRpc } from "../src/zcash/real/servers.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { realGate } from "./tools/real-gate.js";

const { pin, installed, realTest } = realGate("lightwalletd");
const SLOW_MS = 1_000;
const CUT_MS = 500;

interface Streamed {
  code: number;
  messages: number;
  ms: number;
}

// A stream lightwalletd holds open ends at the deadline: DEADLINE_EXCEEDED from the server,
// or CANCELLED when the client ends it, the server being still silent a grace period past
// the deadline it was sent (seen on a loaded machine).
const endedByDeadline = (s: Streamed) => s.code === GrpcCode.DEADLINE_EXCEEDED || s.code === GrpcCode.CANCELLED;

async function mempoolStream(target: GrpcTarget, deadlineMs: number): Promise<Streamed> {
  const o = await target.call(CompactTxStreamer.method.getMempoolStream, create(EmptySchema), { deadlineMs });
  return { code: o.code, messages: o.messageCount, ms: o.timing.totalMs };
}

describe(`real lightwalletd ${pin.version}: its mempool cache over a node that answers getrawtransaction in ${SLOW_MS} ms, cut at ${CUT_MS} ms`, () => {
  let net: FixtureNetwork | undefined;
  let proxy: FaultProxy | undefined;
  const servers: RunningRealServer[] = [];
  const targets: GrpcTarget[] = [];
  let mempoolSize = 0;
  let cut: { first: Streamed; cutOff: Streamed; after: Streamed };
  let control: { first: Streamed; after: Streamed };

  beforeAll(async () => {
    if (!installed) return;
    net = await startFixtureNetwork({ profiles: ["reference"] });
    const node = oracleRpc(net);
    proxy = await startFaultProxy({
      jsonrpcUpstream: node.url,
      rules: [{ transport: "jsonrpc", rpc: "getrawtransaction", fault: { kind: "delay", ms: SLOW_MS } }],
    });
    const rpc = jsonRpcTarget({ url: node.url, auth: { kind: "basic", user: node.user, password: node.password } });
    const pool = await rpc.call("getrawmempool");
    await rpc.close();
    mempoolSize = (JSON.parse(Buffer.from(pool.body).toString("utf8")) as { result: string[] }).result.length;
    const tip = net.model.blocks[net.model.blocks.length - 1]!.height;
    for (let i = 0; i < 2; i++) {
      const s = await startLightwalletd(pin, { ...node, url: proxy.jsonrpcUrl }, { tip });
      servers.push(s);
      targets.push(grpcTarget({ url: s.grpcUrl }));
    }
    const [a, b] = targets as [GrpcTarget, GrpcTarget];
    cut = { first: await mempoolStream(a, 5_000), cutOff: await mempoolStream(a, CUT_MS), after: await mempoolStream(a, 5_000) };
    // Long enough for the control's refresh to fetch every transaction one by one.
    control = { first: await mempoolStream(b, 5_000), after: await mempoolStream(b, 3_000 + mempoolSize * SLOW_MS) };
  }, 300_000);

  afterAll(async () => {
    for (const t of targets) t.abort();
    for (const s of servers) await s.close();
    await proxy?.close();
    await net?.close();
  });

  realTest("the node's mempool holds transactions to stream", () => {
    expect(mempoolSize).toBeGreaterThan(0);
  });

  realTest("the first stream after a start ends at once with OK and no transaction (lwd-mempool-stream-cold-ends-ok)", () => {
    for (const first of [cut.first, control.first]) {
      expect(first.code).toBe(GrpcCode.OK);
      expect(first.messages).toBe(0);
      expect(first.ms).toBeLessThan(4_000);
    }
  });

  realTest("a stream whose refresh nobody cuts streams every transaction of the node's mempool (the control)", () => {
    expect(control.after.messages).toBe(mempoolSize);
    expect(endedByDeadline(control.after)).toBe(true);
  });

  realTest("after a stream is cut during the refresh, the next stream gets none of them (lwd-mempool-stream-cancel-loses-txs)", () => {
    expect([cut.cutOff.messages, endedByDeadline(cut.cutOff)]).toEqual([0, true]);
    expect([cut.after.messages, endedByDeadline(cut.after)]).toEqual([0, true]);
    // The control asked for each transaction once; the cut server asked for one, which its
    // deadline cut, marked the others seen without asking, and never asked again.
    expect(proxy!.log.filter((r) => r.rpc === "getrawtransaction").length).toBe(mempoolSize + 1);
  });
});
