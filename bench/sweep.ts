// Sweep throughput against its ceiling: a bare HTTP/2 drain (bench/drain.ts) of the same
// GetBlockRange streams, per build, both reading from a replay server (bench/replay-server.ts,
// a child process that writes pre-encoded frames, so the server is not the bottleneck)
// under the same HTTP/2 flow-control windows. The ratio is what the differ costs on top
// of reading the wire. Both run the same chunks (100,000 blocks per call), all builds at
// once; passes alternate (drain, sweep, …) after a short warm-up of both. The best pass of
// each (the least disturbed by whatever else the machine runs) and the median are
// reported, with the client's CPU time per block and build.
// Run: npx tsx bench/sweep.ts [blocks=1000000] [builds=2] [pools=TRANSPARENT,SAPLING,ORCHARD] [rounds=3]
import { cpus, loadavg } from "node:os";
import { startReplayChild } from "./fixture-child.js";
import { bestAndMedian, CHUNK, cpuPerBlock, drainPass, n0, poolsArg, rate, sweepPass, type Pass } from "./sweep-common.js";

const blocks = Number(process.argv[2] ?? 1_000_000);
const buildCount = Number(process.argv[3] ?? 2);
const poolNames = process.argv[4] ?? "TRANSPARENT,SAPLING,ORCHARD";
const pools = poolsArg(poolNames);
const rounds = Number(process.argv[5] ?? 3);
const names = Array.from({ length: buildCount }, (_, i) => `build-${i + 1}`);

const replay = await startReplayChild(blocks, poolNames.split(","), names);
console.log(
  `machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `replay child pid ${replay.pid}: ${n0(blocks)} blocks pre-encoded (or read from the cache) in ${(replay.encodeMs / 1000).toFixed(1)} s, ${(replay.bytes / 1e6).toFixed(1)} MB of frames`,
);
console.log(`heights 1..${blocks}, pools ${poolNames}, chunks of ${CHUNK}, ${buildCount} builds`);
try {
  await drainPass(replay.urls, 1, 20_000, pools);
  await sweepPass(replay.urls, 1, 20_000, pools);
  const drains: Pass[] = [];
  const sweeps: Pass[] = [];
  for (let round = 0; round < rounds; round++) {
    drains.push(await drainPass(replay.urls, 1, blocks, pools));
    sweeps.push(await sweepPass(replay.urls, 1, blocks, pools));
    const [d, s] = [drains.at(-1)!, sweeps.at(-1)!];
    if (s.result!.log.total > 0) throw new Error(`${s.result!.log.total} divergences between identical builds`);
    console.log(
      `  round ${round + 1}: drain ${(d.wallMs / 1000).toFixed(1)} s wall (CPU ${(d.cpuMs / 1000).toFixed(1)} s), ` +
        `sweep ${(s.wallMs / 1000).toFixed(1)} s wall (CPU ${(s.cpuMs / 1000).toFixed(1)} s); load ${loadavg()[0]!.toFixed(2)}`,
    );
  }
  console.log("");
  console.log(`| build | blocks | bare drain blocks/s (best / median of ${rounds}) | sweep blocks/s (best / median) | sweep / drain (best / median) |`);
  console.log("|---|---|---|---|---|");
  for (const name of names) {
    const d = bestAndMedian(drains.map((p) => rate(p, name)));
    const s = bestAndMedian(sweeps.map((p) => rate(p, name)));
    console.log(
      `| ${name} | ${n0(blocks)} | ${n0(d.best)} / ${n0(d.median)} | ${n0(s.best)} / ${n0(s.median)} | ${(s.best / d.best).toFixed(2)} / ${(s.median / d.median).toFixed(2)} |`,
    );
  }
  const [cd, cs] = [cpuPerBlock(drains, blocks, buildCount), cpuPerBlock(sweeps, blocks, buildCount)];
  console.log("");
  console.log(`client CPU per block and build (best pass): drain ${cd.toFixed(2)} µs, sweep ${cs.toFixed(2)} µs (${(cs / cd).toFixed(2)}x)`);
} finally {
  await replay.stop();
}
