// The plateau from its real cause, over real sockets on loopback: two servers of the same
// (reference) profile, one leaving Nagle's algorithm on (TCP_NODELAY off, as Zaino's
// listener does) and one with TCP_NODELAY set. Nagle holds the answer's second write until
// the client ACKs the first, and Linux delays that ACK by its 40 ms minimum; the probe
// must find the plateau on the first server and not on the second. Linux only: the delay
// is Linux's delayed-ACK timer.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { chainAnchors } from "../../zcash/fixture/chain/anchors.js";
import { syntheticChain } from "../../zcash/fixture/chain/index.js";
import { startGrpcServer, type RunningGrpcServer } from "../../zcash/fixture/grpc/server.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { runLatency } from "./latency.js";
import { CONTROL_REQUEST, DEFAULT_RPCS, probeSpec, type ProbeSpec } from "./probe.js";

(process.platform === "linux" ? describe : describe.skip)("the plateau from TCP_NODELAY over loopback", () => {
  const model = syntheticChain();
  const anchors = chainAnchors(model);
  const names = ["nodelay-on", "nodelay-off"] as const;
  const servers: RunningGrpcServer[] = [];

  beforeAll(async () => {
    servers.push(await startGrpcServer({ model, profile: "reference" }));
    servers.push(await startGrpcServer({ model, profile: "reference", tcpNoDelay: false }));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test.each([[0], [3]])("with %i warm-up call(s): found with TCP_NODELAY off, absent with it on", async (warmup) => {
    const probes = DEFAULT_RPCS.map((r) => probeSpec(r, anchors) as ProbeSpec);
    const control = probeSpec("GetBlock", anchors, CONTROL_REQUEST) as ProbeSpec;
    const targets: GrpcTarget[] = servers.map((s) => grpcTarget({ url: s.url }));
    try {
      const r = await runLatency({
        builds: names.map((name, i) => ({ name, target: targets[i]! })), probes, control, reference: "nodelay-on", calls: 15, warmup,
      });
      expect(r.divergences.map((d) => `${d.build} ${d.method}`).sort()).toEqual(DEFAULT_RPCS.map((rpc) => `nodelay-off ${rpc}`).sort());
      for (const t of r.timings) {
        if (t.build === "nodelay-on") expect(t.stats.p50).toBeLessThan(20);
        else expect(t.stats.p50).toBeGreaterThanOrEqual(35);
      }
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
  }, 60_000);
});
