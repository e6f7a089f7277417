// How long the command line takes to start, against a bare `node` start measured in the
// same run: every test that spawns zconform, and every CI step, pays this per process.
//
//   npx tsx bench/startup.ts [runs=10]
//
// Runs bin/zconform.js as users do: the bundled file of dist/ when the build is current
// (run `npm run build` first), else through tsx's loader, which the output says; and,
// beside it, the same command from tsc's modules of dist/ one by one, unbundled.

import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { distIsCurrent } from "../bin/dist-current.js";
import { REPO } from "../test/tools/cli.js";

const runs = Number(process.argv[2] ?? 10);
const bin = join(REPO, "bin", "zconform.js");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function once(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return performance.now() - t0;
}

const built = distIsCurrent(REPO) ? "dist/bundle/zconform.mjs (current)" : "tsx (dist/ missing or older than src/)";
const unbundled = join(REPO, "dist", "cli", "main.js");

const rows: [string, string[]][] = [
  ["node -e 0 (baseline)", ["-e", "0"]],
  ["zconform --help", [bin, "--help"]],
  ["zconform --help from dist/cli/main.js (unbundled)", [unbundled, "--help"]],
  ["zconform cases --json (reads the corpus)", [bin, "cases", "--json"]],
];
process.stdout.write(`load average ${loadavg()[0]!.toFixed(2)}, ${runs} runs each, median; zconform from ${built}\n`);
// Round robin, so a change in the machine's load falls on every row alike.
const times = rows.map((): number[] => []);
for (let i = 0; i < runs; i++) rows.forEach(([, args], r) => times[r]!.push(once(args)));
const base = median(times[0]!);
rows.forEach(([label], r) => {
  const ms = median(times[r]!);
  process.stdout.write(`${label.padEnd(52)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(1)}× node\n`);
});
