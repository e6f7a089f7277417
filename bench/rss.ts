// Memory of a sweep: RSS of a sweeping process at 100,000 and at 1,000,000 blocks, one
// child process per size (bench/rss-child.ts), both against the same servers (one fixture
// child over a 1,000,000-block generated chain, so the servers' memory is not counted).
// Each size is printed beside its baseline, the same process's RSS just before its
// sweep; the target is a growth under 50 MB from 100k to 1M blocks.
// Run: npx tsx bench/rss.ts [sizes=100000,1000000] [profiles=reference,ztreamer-master]
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { startFixtureChild } from "./fixture-child.js";

const sizes = (process.argv[2] ?? "100000,1000000").split(",").map(Number);
const profiles = (process.argv[3] ?? "reference,ztreamer-master").split(",");
const fixture = await startFixtureChild(Math.max(...sizes), profiles);
console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}; builds ${profiles.join(", ")}; pools TRANSPARENT,SAPLING,ORCHARD`);
interface Result {
  blocks: number;
  divergences: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssEndMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
}
const results: Result[] = [];
try {
  for (const n of sizes) {
    const out = execFileSync(process.execPath, ["--import", "tsx", "bench/rss-child.ts", String(n), ...profiles.map((p) => `${p}=${fixture.urls[p]}`)], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    });
    results.push(JSON.parse(out.trim().split("\n").at(-1)!) as Result);
  }
} finally {
  await fixture.stop();
}
console.log("");
console.log("| blocks swept | seconds | RSS before (baseline) MB | RSS peak MB | peak − baseline MB | RSS at end MB | heap peak MB |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.blocks.toLocaleString("en-US")} | ${r.seconds.toFixed(1)} | ${r.rssBeforeMb.toFixed(1)} | ${r.rssPeakMb.toFixed(1)} | ${(r.rssPeakMb - r.rssBeforeMb).toFixed(1)} | ${r.rssEndMb.toFixed(1)} | ${r.heapPeakMb.toFixed(1)} |`,
  );
}
if (results.length >= 2) {
  const [a, b] = [results[0]!, results.at(-1)!];
  console.log("");
  console.log(
    `peak RSS growth from ${a.blocks.toLocaleString("en-US")} to ${b.blocks.toLocaleString("en-US")} blocks: ${(b.rssPeakMb - a.rssPeakMb).toFixed(1)} MB (target < 50 MB)`,
  );
}
