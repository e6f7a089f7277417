// The whole corpus against every profile of the fixture network (what `zconform demo`
// runs), its wall time beside the least time it could take. Two runs in this process
// against one fixture network:
//   1. serial (one case at a time; a case's builds are still asked at once): the sum over
//      cases of each case's slowest answer (the JSON report's `answers[].ms`) is the
//      baseline — a run that waits for every case's builds cannot take less, and with one
//      case at a time no other case inflates those times. The serial run's wall time over
//      it is the runner's own overhead per case;
//   2. the default run (16 cases in flight): its wall time measured against that baseline.
// Goal: the default run's wall time ≤ 1.2 × the baseline. The sum of all builds' answer
// times is printed for reference only: the builds of a case are asked at once, so that
// sum overstates the time a run needs by about the number of builds. The default run's
// own sums are inflated by queueing (16 cases × 7 builds share one event loop with the
// servers) and say little about the servers.
// With hyperfine installed, the whole command (`zconform demo -q`, process start and
// fixture start-up included) is timed as well.
// Run: npx tsx bench/corpus.ts [cases=cases]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { inputsFromFixture } from "../src/cli/inputs.js";
import { jsonReporter, type JsonReport } from "../src/core/report/json.js";
import { runSession } from "../src/core/run/session.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const casesDir = process.argv[2] ?? "cases";
const dir = mkdtempSync(join(tmpdir(), "zconform-bench-"));
const quiet = { stdout: () => {}, stderr: () => {} };

interface Figures {
  wallMs: number;
  buildsMs: number;
  slowestMs: number;
  oracleMs: number;
  cases: number;
  answers: number;
}

function figures(r: JsonReport, wallMs: number): Figures {
  let buildsMs = 0;
  let slowestMs = 0;
  let oracleMs = 0;
  let answers = 0;
  for (const c of r.cases) {
    for (const a of c.answers) {
      buildsMs += a.ms;
      answers++;
    }
    slowestMs += Math.max(0, ...c.answers.map((a) => a.ms));
    if (c.oracle) oracleMs += c.oracle.ms;
  }
  return { wallMs, buildsMs, slowestMs, oracleMs, cases: r.cases.length, answers };
}

const inputs = await inputsFromFixture({ cases: casesDir }, quiet);
const run = async (name: string, caseConcurrency: number | undefined): Promise<Figures> => {
  const file = join(dir, `${name}.json`);
  const t0 = performance.now();
  await runSession({
    config: inputs.config,
    cases: inputs.cases,
    chain: inputs.chain,
    ledger: inputs.ledger,
    reporters: [jsonReporter(file)],
    protocol: lightwalletProtocol,
    allowStale: true,
    ...(caseConcurrency ? { caseConcurrency } : {}),
  });
  return figures(JSON.parse(readFileSync(file, "utf8")) as JsonReport, performance.now() - t0);
};

let serial: Figures;
let parallel: Figures;
try {
  await run("warm-up", undefined);
  serial = await run("serial", 1);
  parallel = await run("default", undefined);
} finally {
  await inputs.network?.close();
}
const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}; corpus ${casesDir}: ${parallel.cases} cases, ${parallel.answers} build answers, ${inputs.config.builds.length} profiles; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log("");
console.log(
  "| run | wall s | Σ per case of its slowest answer, s | wall / serial Σ per-case slowest | Σ builds' answer ms, s (reference only) | Σ oracle ms, s |",
);
console.log("|---|---|---|---|---|---|");
for (const [name, f] of [
  ["serial (1 case at a time)", serial],
  ["default (16 cases in flight)", parallel],
] as const) {
  console.log(`| ${name} | ${s(f.wallMs)} | ${s(f.slowestMs)} | ${(f.wallMs / serial.slowestMs).toFixed(2)} | ${s(f.buildsMs)} | ${s(f.oracleMs)} |`);
}
console.log("");
console.log(`default run wall time / serial Σ per case of its slowest answer: ${(parallel.wallMs / serial.slowestMs).toFixed(2)} (goal ≤ 1.2)`);
console.log(
  `serial run wall time / Σ per case of its slowest answer: ${(serial.wallMs / serial.slowestMs).toFixed(2)} ` +
    "(1.0 would be a runner that costs nothing beyond waiting for each case's slowest build)",
);

try {
  execFileSync("hyperfine", ["--version"], { stdio: "ignore" });
  const out = join(dir, "hyperfine.json");
  execFileSync("hyperfine", ["--runs", "3", "--export-json", out, `${process.execPath} bin/zconform.js demo -q --cases ${casesDir}`], { stdio: "ignore" });
  const h = JSON.parse(readFileSync(out, "utf8")) as { results: { mean: number; stddev: number; min: number; max: number }[] };
  const r = h.results[0]!;
  console.log(
    `hyperfine, whole command \`zconform demo -q\` (3 runs): mean ${r.mean.toFixed(1)} s ± ${r.stddev.toFixed(1)} s (min ${r.min.toFixed(1)}, max ${r.max.toFixed(1)})`,
  );
} catch {
  console.log("(hyperfine not found or failed: whole-command timing skipped)");
}
rmSync(dir, { recursive: true, force: true });
