// Peak memory of `zconform demo` (the whole corpus against the embedded fixture network)
// by number of profiles served, from /usr/bin/time -v's "Maximum resident set size" of
// the whole command. Baseline, measured in the same run: the same command's `--help`
// (node, the modules loaded, nothing run). The corpus is the shipped one; a run's exit
// code is printed (the demo exits 1 when the emulations diverge from the reference,
// which they do by design).
// Run: npx tsx bench/demo-rss.ts [profile counts=1,2,4,7]
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { PROFILE_NAMES } from "../src/zcash/fixture/network.js";

const counts = (process.argv[2] ?? "1,2,4,7").split(",").map(Number);

function timed(args: string[]): { peakMB: number; wallS: number; code: number | null } {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, "bin/zconform.js", ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1];
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr);
  if (!kb || !wall) throw new Error(`no /usr/bin/time figures for ${args.join(" ")}:\n${r.stderr.slice(-2000)}`);
  const wallS = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { peakMB: Number(kb) / 1024, wallS, code: r.status };
}

console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
const base = timed(["--help"]);
console.log("");
console.log("| command | profiles | peak RSS MB | peak − baseline MB | wall s | exit code |");
console.log("|---|---|---|---|---|---|");
console.log(`| zconform --help (baseline) | – | ${base.peakMB.toFixed(0)} | 0 | ${base.wallS.toFixed(1)} | ${base.code} |`);
for (const n of counts) {
  const profiles = PROFILE_NAMES.slice(0, n);
  const r = timed(["demo", "-q", ...profiles.flatMap((p) => ["--profile", p])]);
  console.log(`| zconform demo -q | ${n} (${profiles.join(", ")}) | ${r.peakMB.toFixed(0)} | ${(r.peakMB - base.peakMB).toFixed(0)} | ${r.wallS.toFixed(1)} | ${r.code} |`);
}
