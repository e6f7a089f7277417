import { chainAnchors } from "./src/fixture/chain/anchors.js";
import { syntheticChain } from "./src/fixture/chain/index.js";
import { startGrpcServer } from "./src/fixture/grpc/server.js";
import { grpcTarget } from "./src/targets/grpc.js";
import { runLatency } from "./src/latency/latency.js";
import { floorShare } from "./src/latency/plateau.js";
import { CONTROL_REQUEST, DEFAULT_RPCS, probeSpec, type ProbeSpec } from "./src/latency/probe.js";
const model = syntheticChain(); const anchors = chainAnchors(model);
const names = ["reference", "zaino-0.9.0", "zaino-0.10.1"] as const;
const servers = []; for (const n of names) servers.push(await startGrpcServer({ model, profile: n }));
const probes = DEFAULT_RPCS.map((r) => probeSpec(r, anchors) as ProbeSpec);
const ctl = probeSpec("GetBlock", anchors, CONTROL_REQUEST) as ProbeSpec;
for (let k = 0; k < 3; k++) {
  const targets = servers.map((s) => grpcTarget({ url: s.url }));
  const r = await runLatency({ builds: names.map((name, i) => ({ name, target: targets[i]! })), probes, control: ctl, reference: "reference", calls: 20, warmup: 3, parallel: process.argv[2] === "p" });
  for (const t of r.timings) console.log(t.build.padEnd(14), t.rpc.padEnd(20), "base", t.baselineMs?.toFixed(2), "p50", t.stats.p50.toFixed(1), "floor", floorShare(t.samples, t.baselineMs ?? 0).toFixed(2), t.samples.map((x) => x.toFixed(0)).join(","));
  for (const c of r.controls) console.log("control", c.build, c.stats.p50.toFixed(2), c.samples.map((x) => x.toFixed(1)).join(","));
  console.log(r.divergences.length);
  await Promise.all(targets.map((t) => t.close()));
}
await Promise.all(servers.map((s) => s.close()));
