// Sweep throughput against its ceiling, and where a block's time goes.
//
// Ceiling: a bare HTTP/2 drain (bench/drain.ts) of the same GetBlockRange streams, per
// build, with the windows a client tuned for bulk streams sets (TUNED_WINDOWS) and, as a
// second row, with zconform's own. Everything reads from a replay server
// (bench/replay-server.ts, a child process that writes pre-encoded frames, so the server
// is not the bottleneck). Between the drain and the sweep sit two passes that split a
// block's time: zconform's client reading the blocks and handing them to nothing, then
// handing them to the sweep's lockstep; the sweep adds the comparison and its log.
// All builds at once, chunks of 100,000 blocks; passes alternate after a warm-up; the
// best pass of each (the least disturbed by whatever else the machine runs) and the
// median are reported. A second, smaller set has one build diverging at every height, for
// the breakdown of the diverging path. Last, `zconform sweep` itself, as a user runs it:
// a fresh process (`node bin/zconform.js`, compiled dist/ when it is current) over the same
// servers, its heights/s read from its JSON report; a fresh process runs its first
// hundreds of thousands of blocks in code V8 has not optimized yet, so beside each run of
// the command a tuned drain in a fresh process (bench/alone-child.ts) pays the same. And a
// long sweep's steady state: the drain and the sweep each alone in a process of its own,
// pass after pass, so that neither runs in code another kind of pass has warmed.
// Run: npx tsx bench/sweep.ts [blocks=1000000] [builds=2] [pools=TRANSPARENT,SAPLING,ORCHARD] [rounds=3]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { OWN_WINDOWS, TUNED_WINDOWS } from "./drain.js";
import { startReplayChild } from "./fixture-child.js";
import { bestAndMedian, CHUNK, cpuPerBlock, drainPass, n0, type Pass, poolsArg, readPass, sweepPass, wallRate } from "./sweep-common.js";

const blocks = Number(process.argv[2] ?? 1_000_000);
const buildCount = Number(process.argv[3] ?? 2);
const poolNames = process.argv[4] ?? "TRANSPARENT,SAPLING,ORCHARD";
const pools = poolsArg(poolNames);
const rounds = Number(process.argv[5] ?? 3);
const divergingBlocks = Math.max(10_000, Math.round(blocks / 10));
const STEADY_PASSES = 6;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

type Stage = "drain (tuned windows)" | "drain (own windows)" | "client read" | "client read + lockstep" | "sweep";
type Passes = Record<Stage, Pass[]>;

/** Every stage over [1, heights] of `urls`, `rounds` times alternating, after a warm-up. */
async function measure(urls: Record<string, string>, heights: number, stages: readonly Stage[], expectDivergences: boolean): Promise<Passes> {
  const run = (stage: Stage, to: number): Promise<Pass> => {
    if (stage === "drain (tuned windows)") return drainPass(urls, 1, to, pools, TUNED_WINDOWS);
    if (stage === "drain (own windows)") return drainPass(urls, 1, to, pools, OWN_WINDOWS);
    if (stage === "client read") return readPass(urls, 1, to, pools, "nothing");
    if (stage === "client read + lockstep") return readPass(urls, 1, to, pools, "lockstep");
    return sweepPass(urls, 1, to, pools);
  };
  for (const stage of stages) await run(stage, Math.min(heights, 20_000));
  const passes = Object.fromEntries(stages.map((s) => [s, [] as Pass[]])) as Passes;
  for (let round = 0; round < rounds; round++) {
    const line: string[] = [];
    for (const stage of stages) {
      const p = await run(stage, heights);
      if (stage === "sweep" && p.result!.log.total > 0 !== expectDivergences) {
        throw new Error(`sweep found ${p.result!.log.total} divergences where ${expectDivergences ? "every height diverges" : "the builds are identical"}`);
      }
      passes[stage].push(p);
      line.push(`${stage} ${(p.wallMs / 1000).toFixed(2)} s (CPU ${(p.cpuMs / 1000).toFixed(2)} s)`);
    }
    console.log(`  round ${round + 1}: ${line.join(", ")}; load ${loadavg()[0]!.toFixed(2)}`);
  }
  return passes;
}

/** Heights/s of each pass of one kind, in a fresh process of its own (bench/alone-child.ts). */
function alone(kind: "drain" | "sweep", passes: number, urls: Record<string, string>, heights: number): number[] {
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", "bench/alone-child.ts", kind, String(passes), String(heights), poolNames, ...Object.values(urls)],
    {
      encoding: "utf8",
    },
  );
  return (JSON.parse(out) as { heightsPerSecond: number[] }).heightsPerSecond;
}

/**
 * `zconform sweep` over `urls` in a fresh process, `rounds` times: heights/s from its JSON
 * report; each beside a tuned-window drain in a fresh process, its like-for-like ceiling.
 */
function freshRates(urls: Record<string, string>, heights: number): { command: number[]; drain: number[] } {
  const dir = mkdtempSync(join(tmpdir(), "zconform-bench-sweep-"));
  const out = { command: [] as number[], drain: [] as number[] };
  try {
    const config = join(dir, "builds.yaml");
    const builds = Object.entries(urls).map(([name, url]) => `  - { name: ${name}, implementation: other, grpc: { url: "${url}" } }`);
    writeFileSync(config, ["chain: regtest", "builds:", ...builds, ""].join("\n"));
    for (let round = 0; round < rounds; round++) {
      out.drain.push(alone("drain", 1, urls, heights)[0]!);
      const report = join(dir, "sweep.json");
      execFileSync(process.execPath, [
        "bin/zconform.js",
        "sweep",
        "-q",
        "-c",
        config,
        "--from",
        "1",
        "--to",
        String(heights),
        "--pool-types",
        poolNames,
        "--json",
        report,
      ]);
      out.command.push((JSON.parse(readFileSync(report, "utf8")) as { summary: { blocksPerSecond: number } }).summary.blocksPerSecond);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Client CPU per block and build at each stage, and what each stage adds to the one before. */
function breakdown(passes: Passes, stages: readonly Stage[], heights: number, builds: number): void {
  console.log("| stage | client CPU µs per block and build (best pass) | added by this stage |");
  console.log("|---|---|---|");
  let before: number | undefined;
  for (const stage of stages) {
    const us = cpuPerBlock(passes[stage], heights, builds);
    console.log(`| ${stage} | ${us.toFixed(2)} | ${before === undefined ? "" : (us - before).toFixed(2)} |`);
    before = us;
  }
}

console.log(`machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load average ${load()}`);
console.log(`heights 1..${n0(blocks)}, pools ${poolNames}, chunks of ${n0(CHUNK)}, ${buildCount} identical builds, ${rounds} rounds`);
const names = Array.from({ length: buildCount }, (_, i) => `build-${i + 1}`);
const ALL: Stage[] = ["drain (tuned windows)", "drain (own windows)", "client read", "client read + lockstep", "sweep"];
const identical = await startReplayChild(blocks, poolNames.split(","), names);
let passes: Passes;
let fresh: { command: number[]; drain: number[] };
const steady = { drain: [] as number[], sweep: [] as number[] };
try {
  console.log(`replay child: ${(identical.bytes / 1e6).toFixed(1)} MB of frames per build, ready in ${(identical.encodeMs / 1000).toFixed(1)} s`);
  passes = await measure(identical.urls, blocks, ALL, false);
  fresh = freshRates(identical.urls, blocks);
  // A long sweep (mainnet is over 3,000,000 heights) runs mostly warm: each kind alone in
  // its own process, STEADY_PASSES back to back, the first two left out as warm-up;
  // processes alternate, `rounds` of each.
  for (let round = 0; round < rounds; round++) {
    steady.drain.push(...alone("drain", STEADY_PASSES, identical.urls, blocks).slice(2));
    steady.sweep.push(...alone("sweep", STEADY_PASSES, identical.urls, blocks).slice(2));
  }
} finally {
  await identical.stop();
}

// Rates by wall time: a pass ends when its last build is read, and builds read at once
// share the machine, so one build's own time says little about the whole.
console.log("");
console.log(`| pass | heights | heights/s, every build read (best / median of ${rounds}) | sweep / this (best / median) |`);
console.log("|---|---|---|---|");
const sweep = bestAndMedian(passes.sweep.map((p) => wallRate(p, blocks)));
for (const stage of ALL) {
  const r = bestAndMedian(passes[stage].map((p) => wallRate(p, blocks)));
  console.log(`| ${stage} | ${n0(blocks)} | ${n0(r.best)} / ${n0(r.median)} | ${(sweep.best / r.best).toFixed(2)} / ${(sweep.median / r.median).toFixed(2)} |`);
}
const tuned = bestAndMedian(passes["drain (tuned windows)"].map((p) => wallRate(p, blocks)));
const cmd = bestAndMedian(fresh.command);
const freshDrain = bestAndMedian(fresh.drain);
console.log(
  `| drain (tuned windows), a fresh process | ${n0(blocks)} | ${n0(freshDrain.best)} / ${n0(freshDrain.median)} | ` +
    `the command / this: ${(cmd.best / freshDrain.best).toFixed(2)} / ${(cmd.median / freshDrain.median).toFixed(2)} |`,
);
console.log(
  `| zconform sweep, a fresh process (its report's heights/s) | ${n0(blocks)} | ${n0(cmd.best)} / ${n0(cmd.median)} | ` +
    `the command / drain (tuned windows): ${(cmd.best / tuned.best).toFixed(2)} / ${(cmd.median / tuned.median).toFixed(2)} |`,
);
const steadyDrain = bestAndMedian(steady.drain);
const steadySweep = bestAndMedian(steady.sweep);
console.log(
  `| drain (tuned windows), alone in its process, passes 3–${STEADY_PASSES} | ${n0(blocks)} | ${n0(steadyDrain.best)} / ${n0(steadyDrain.median)} | ` +
    `sweep alone / this: ${(steadySweep.best / steadyDrain.best).toFixed(2)} / ${(steadySweep.median / steadyDrain.median).toFixed(2)} |`,
);
console.log(`| sweep, alone in its process, passes 3–${STEADY_PASSES} | ${n0(blocks)} | ${n0(steadySweep.best)} / ${n0(steadySweep.median)} | |`);
console.log("");
console.log("identical path:");
breakdown(passes, ALL.slice(1), blocks, buildCount);

// One build serving every block with another `time`: every height is decoded and judged.
const READ: Stage[] = ["client read", "client read + lockstep", "sweep"];
const diverging = await startReplayChild(divergingBlocks, poolNames.split(","), ["same", "other:diverging"]);
try {
  console.log("");
  console.log(`diverging path: heights 1..${n0(divergingBlocks)}, 2 builds, the second diverging at every height`);
  const d = await measure(diverging.urls, divergingBlocks, READ, true);
  breakdown(d, READ, divergingBlocks, 2);
} finally {
  await diverging.stop();
}
console.log(`load average at the end: ${load()}`);
