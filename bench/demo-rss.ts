// Peak memory of `zconform demo` (the whole corpus against the embedded fixture network)
// by number of profiles served. The demo's fixture servers run in a process of their own
// (`zconform fixture`), so both peaks are read, from /proc/<pid>/status VmHWM sampled every
// 100 ms: the client (the run itself) and the fixture's process. Baseline, measured in the
// same run: the same command's `--help` (node, the modules loaded, nothing run).
// Run: npx tsx bench/demo-rss.ts [profile counts=1,2,4,7]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { PROFILE_NAMES } from "../src/zcash/fixture/network.js";

const counts = (process.argv[2] ?? "1,2,4,7").split(",").map(Number);

const kbOf = (pid: number, field: string): number => {
  const f = `/proc/${pid}/status`;
  if (!existsSync(f)) return 0;
  try {
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(f, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

function measured(args: string[]): Promise<{ clientMB: number; fixtureMB: number; wallS: number; code: number | null }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ["bin/zconform.js", ...args], { stdio: "ignore" });
  let client = 0;
  let fixture = 0;
  const sample = () => {
    client = Math.max(client, kbOf(child.pid!, "VmHWM"));
    for (const c of childrenOf(child.pid!)) fixture = Math.max(fixture, kbOf(c, "VmHWM"));
  };
  const timer = setInterval(sample, 100);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearInterval(timer);
      resolve({ clientMB: client / 1024, fixtureMB: fixture / 1024, wallS: (performance.now() - t0) / 1000, code });
    }),
  );
}

console.log(
  `machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
const base = await measured(["--help"]);
console.log("");
console.log("| command | profiles | client peak MB | fixture process peak MB | client − baseline MB | wall s | exit code |");
console.log("|---|---|---|---|---|---|---|");
console.log(`| zconform --help (baseline) | – | ${base.clientMB.toFixed(0)} | – | 0 | ${base.wallS.toFixed(1)} | ${base.code} |`);
for (const n of counts) {
  const profiles = PROFILE_NAMES.slice(0, n);
  const r = await measured(["demo", "-q", ...profiles.flatMap((p) => ["--profile", p])]);
  console.log(
    `| zconform demo -q | ${n} (${profiles.join(", ")}) | ${r.clientMB.toFixed(0)} | ${r.fixtureMB.toFixed(0)} | ${(r.clientMB - base.clientMB).toFixed(0)} | ${r.wallS.toFixed(1)} | ${r.code} |`,
  );
}
