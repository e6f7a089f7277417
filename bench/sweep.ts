// Sweep throughput against a bare HTTP/2 drain of the same streams (bench/drain.ts),
// per build, over a long range of the fixture's generated chain served from a child
// process (bench/fixture-server.ts): the ratio is what the differ costs on top of
// reading the wire. Both run the same chunks (100,000 blocks per GetBlockRange call)
// against the same servers, all builds at once; passes alternate (drain, sweep, drain,
// sweep, …) after a short warm-up of both. The best pass of each (the least disturbed by
// whatever else the machine runs) and the median are reported. Client CPU time per block
// (this process only) is reported beside it: against the fixture the server is the
// bottleneck, so CPU is where the differ's own cost shows.
// Run: npx tsx bench/sweep.ts [blocks=1000000] [profiles=reference,ztreamer-master] [pools=TRANSPARENT,SAPLING,ORCHARD] [rounds=3]
import { cpus } from "node:os";
import { PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";
import { runSweep } from "../src/modes/sweep/sweep.js";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { drain } from "./drain.js";
import { startFixtureChild } from "./fixture-child.js";

const blocks = Number(process.argv[2] ?? 1_000_000);
const profiles = (process.argv[3] ?? "reference,ztreamer-master").split(",");
const pools = (process.argv[4] ?? "TRANSPARENT,SAPLING,ORCHARD").split(",").filter(Boolean).map((p) => PoolType[p as keyof typeof PoolType]);
const rounds = Number(process.argv[5] ?? 3);
const CHUNK = 100_000;
const from = 1;
const to = blocks;

interface Pass {
  perBuild: { name: string; blocks: number; bytes: number; ms: number }[];
  wallMs: number;
  cpuMs: number;
}

async function drainPass(urls: Record<string, string>, a: number, b: number): Promise<Pass> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const perBuild = await Promise.all(profiles.map(async (name) => ({ name, ...(await drain(urls[name]!, a, b, CHUNK, pools)) })));
  const c = process.cpuUsage(cpu);
  return { perBuild, wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

async function sweepPass(urls: Record<string, string>, a: number, b: number): Promise<Pass> {
  const targets = profiles.map((name) => ({ name, target: grpcTarget({ url: urls[name]! }) }));
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  try {
    const r = await runSweep({ builds: targets, from: a, to: b, poolTypes: pools, chunkSize: CHUNK });
    if (r.log.total > 0 || r.compared !== b - a + 1) throw new Error(`unexpected sweep result: ${r.log.total} divergences, ${r.compared} compared`);
    const c = process.cpuUsage(cpu);
    return { perBuild: r.totals.map((t) => ({ name: t.name, blocks: t.blocks, bytes: t.bytes, ms: t.ms })), wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
  } finally {
    await Promise.all(targets.map((t) => t.target.close()));
  }
}

const rate = (p: Pass, name: string) => {
  const b = p.perBuild.find((x) => x.name === name)!;
  return { bps: b.blocks / (b.ms / 1000), mbps: b.bytes / 1e6 / (b.ms / 1000), blocks: b.blocks };
};
const sorted = (passes: Pass[], name: string) => passes.map((p) => rate(p, name)).sort((x, y) => y.bps - x.bps);
const best = (passes: Pass[], name: string) => sorted(passes, name)[0]!;
const median = (passes: Pass[], name: string) => sorted(passes, name)[Math.floor((passes.length - 1) / 2)]!;

const fixture = await startFixtureChild(blocks, profiles);
console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}; fixture child pid ${fixture.pid}, ` +
  `${blocks.toLocaleString("en-US")} block hashes in ${(fixture.hashMs / 1000).toFixed(1)} s`);
console.log(`range ${from}..${to}, pools ${pools.map((p) => PoolType[p]).join(",") || "default"}, chunks of ${CHUNK}, builds ${profiles.join(", ")}`);
try {
  await drainPass(fixture.urls, 1, 20_000);
  await sweepPass(fixture.urls, 1, 20_000);
  const drains: Pass[] = [];
  const sweeps: Pass[] = [];
  for (let round = 0; round < rounds; round++) {
    drains.push(await drainPass(fixture.urls, from, to));
    console.log(`  drain pass ${round + 1}: ${(drains.at(-1)!.wallMs / 1000).toFixed(1)} s wall, client CPU ${(drains.at(-1)!.cpuMs / 1000).toFixed(1)} s`);
    sweeps.push(await sweepPass(fixture.urls, from, to));
    console.log(`  sweep pass ${round + 1}: ${(sweeps.at(-1)!.wallMs / 1000).toFixed(1)} s wall, client CPU ${(sweeps.at(-1)!.cpuMs / 1000).toFixed(1)} s`);
  }
  console.log("");
  console.log(`| build | blocks | bare drain blocks/s (best / median of ${rounds}) | sweep blocks/s (best / median) | sweep / drain (best / median) | sweep MB/s (best) |`);
  console.log("|---|---|---|---|---|---|");
  const n = (v: number) => Math.round(v).toLocaleString("en-US");
  for (const name of profiles) {
    const [d, dm, sw, sm] = [best(drains, name), median(drains, name), best(sweeps, name), median(sweeps, name)];
    console.log(`| ${name} | ${sw.blocks.toLocaleString("en-US")} | ${n(d.bps)} / ${n(dm.bps)} | ${n(sw.bps)} / ${n(sm.bps)} | ${(sw.bps / d.bps).toFixed(2)} / ${(sm.bps / dm.bps).toFixed(2)} | ${sw.mbps.toFixed(2)} |`);
  }
  const cpuPerBlock = (ps: Pass[]) => Math.min(...ps.map((p) => (1000 * p.cpuMs) / (profiles.length * (to - from + 1))));
  console.log("");
  console.log(`client CPU per block and build: drain ${cpuPerBlock(drains).toFixed(1)} µs, sweep ${cpuPerBlock(sweeps).toFixed(1)} µs ` +
    `(${(cpuPerBlock(sweeps) / cpuPerBlock(drains)).toFixed(2)}x)`);
} finally {
  await fixture.stop();
}
