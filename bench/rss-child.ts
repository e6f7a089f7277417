// Bench helper, one process per size: sweeps heights 1..N from the servers named on the
// command line and reports its own RSS (process.memoryUsage().rss): before the sweep
// (modules loaded, connections open: the baseline), the peak during it (sampled every
// 100 ms) and at the end. Prints one JSON line.
// Usage: npx tsx bench/rss-child.ts <N> <name=url>...
import { PoolType } from "../src/zcash/gen/walletrpc/service_pb.js";
import { runSweep } from "../src/modes/sweep/sweep.js";
import { grpcTarget } from "../src/core/targets/grpc.js";

const n = Number(process.argv[2]);
const builds = process.argv.slice(3).map((a) => {
  const [name, url] = a.split("=") as [string, string];
  return { name, target: grpcTarget({ url }) };
});
const mb = (b: number) => b / 2 ** 20;
// A first short sweep loads and compiles everything the long one will run.
await runSweep({ builds, from: 1, to: 2000, poolTypes: [PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD] });
const before = process.memoryUsage();
let peak = before.rss;
let heapPeak = before.heapUsed;
const timer = setInterval(() => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  heapPeak = Math.max(heapPeak, m.heapUsed);
}, 100);
const t0 = performance.now();
const r = await runSweep({ builds, from: 1, to: n, poolTypes: [PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD] });
const seconds = (performance.now() - t0) / 1000;
clearInterval(timer);
const end = process.memoryUsage();
peak = Math.max(peak, end.rss);
await Promise.all(builds.map((b) => b.target.close()));
process.stdout.write(
  `${JSON.stringify({
    blocks: r.compared,
    divergences: r.log.total,
    seconds,
    rssBeforeMb: mb(before.rss),
    rssPeakMb: mb(peak),
    rssEndMb: mb(end.rss),
    heapBeforeMb: mb(before.heapUsed),
    heapPeakMb: mb(heapPeak),
  })}\n`,
);
