// The sweep's two slower paths, each beside its ceiling measured in the same run:
// - every block diverging: two builds from the replay server (bench/replay-server.ts), the
//   second serving every block with another `time`, so every height is decoded and judged;
//   ceiling: the same sweep over two identical builds.
// - the oracle path: the sweep compared against blocks derived from the fixture's
//   Zebra-style JSON-RPC server (in a child process, bench/fixture-server.ts); ceiling: the
//   oracle alone (the same batches fetched and derived, nothing compared).
// Each measurement alternates with its ceiling, `rounds` times, after a warm-up.
// Run: npx tsx bench/sweep-paths.ts [diverging blocks=100000] [oracle blocks=20000] [rounds=3]
import { cpus, loadavg } from "node:os";
import { DEFAULT_ORACLE_BATCH, oracleBlocks } from "../src/modes/sweep/oracle-blocks.js";
import { startFixtureChild, startReplayChild } from "./fixture-child.js";
import { bestAndMedian, cpuPerBlock, n0, poolsArg, sweepPass, wallRate, type Pass } from "./sweep-common.js";

const divergingBlocks = Number(process.argv[2] ?? 100_000);
const oracleHeights = Number(process.argv[3] ?? 20_000);
const rounds = Number(process.argv[4] ?? 3);
const POOLS = "TRANSPARENT,SAPLING,ORCHARD";
const pools = poolsArg(POOLS);

console.log(
  `machine: ${cpus().length} CPUs (${cpus()[0]?.model}), Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

function row(label: string, heights: number, runs: Pass[], ceiling: Pass[], ceilingLabel: string): void {
  const r = bestAndMedian(runs.map((p) => wallRate(p, heights)));
  const c = bestAndMedian(ceiling.map((p) => wallRate(p, heights)));
  console.log(
    `| ${label} | ${n0(heights)} | ${n0(r.best)} / ${n0(r.median)} | ${ceilingLabel}: ${n0(c.best)} / ${n0(c.median)} | ` +
      `${(r.best / c.best).toFixed(2)} / ${(r.median / c.median).toFixed(2)} | ${cpuPerBlock(runs, heights, 1).toFixed(1)} / ${cpuPerBlock(ceiling, heights, 1).toFixed(1)} |`,
  );
}

const lines: (() => void)[] = [];

// Every block diverging.
{
  const replay = await startReplayChild(divergingBlocks, POOLS.split(","), ["same-a", "same-b", "diverging:diverging"]);
  const same = { "same-a": replay.urls["same-a"]!, "same-b": replay.urls["same-b"]! };
  const diverging = { "same-a": replay.urls["same-a"]!, diverging: replay.urls.diverging! };
  try {
    await sweepPass(same, 1, Math.min(10_000, divergingBlocks), pools);
    await sweepPass(diverging, 1, Math.min(10_000, divergingBlocks), pools);
    const identical: Pass[] = [];
    const differing: Pass[] = [];
    for (let round = 0; round < rounds; round++) {
      identical.push(await sweepPass(same, 1, divergingBlocks, pools));
      differing.push(await sweepPass(diverging, 1, divergingBlocks, pools));
      const log = differing.at(-1)!.result!.log;
      if (identical.at(-1)!.result!.log.total > 0) throw new Error("divergences between identical builds");
      if (log.total < divergingBlocks) throw new Error(`only ${log.total} divergences over ${divergingBlocks} heights`);
      console.log(
        `  diverging round ${round + 1}: identical ${(identical.at(-1)!.wallMs / 1000).toFixed(1)} s, every block diverging ` +
          `${(differing.at(-1)!.wallMs / 1000).toFixed(1)} s (${n0(log.total)} divergences); load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    lines.push(() => row("2 builds, every block diverging", divergingBlocks, differing, identical, "2 identical builds"));
  } finally {
    await replay.stop();
  }
}

// The oracle path.
{
  const fixture = await startFixtureChild(oracleHeights, ["oracle"]);
  const replay = await startReplayChild(oracleHeights, POOLS.split(","), ["build-1", "build-2"]);
  const endpoint = { url: fixture.oracle!.url, auth: { kind: "cookie" as const, cookieFile: fixture.oracle!.cookieFile } };
  const oracleAlone = async (from: number, to: number): Promise<Pass> => {
    const oracle = oracleBlocks(endpoint, pools);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    let bytes = 0;
    try {
      // As the sweep feeds it: one batch fetched ahead while the previous is handed out.
      let next = oracle.fetch(range(from, Math.min(to, from + DEFAULT_ORACLE_BATCH - 1)));
      for (let h = from; h <= to; h += DEFAULT_ORACLE_BATCH) {
        const blocks = await next;
        const after = h + DEFAULT_ORACLE_BATCH;
        if (after <= to) next = oracle.fetch(range(after, Math.min(to, after + DEFAULT_ORACLE_BATCH - 1)));
        for (const b of blocks) bytes += b.length;
      }
    } finally {
      await oracle.close();
    }
    const c = process.cpuUsage(cpu);
    return {
      perSource: [{ name: "oracle", blocks: to - from + 1, bytes, ms: performance.now() - t0 }],
      wallMs: performance.now() - t0,
      cpuMs: (c.user + c.system) / 1000,
    };
  };
  const withOracle = (from: number, to: number) => {
    const oracle = oracleBlocks(endpoint, pools);
    return sweepPass(replay.urls, from, to, pools, { oracle }).finally(() => oracle.close());
  };
  try {
    await oracleAlone(1, Math.min(2_000, oracleHeights));
    await withOracle(1, Math.min(2_000, oracleHeights));
    const alone: Pass[] = [];
    const swept: Pass[] = [];
    for (let round = 0; round < rounds; round++) {
      alone.push(await oracleAlone(1, oracleHeights));
      swept.push(await withOracle(1, oracleHeights));
      const r = swept.at(-1)!.result!;
      if (r.log.total > 0) throw new Error(`${r.log.total} divergences against the oracle: ${r.errors.join("; ")}`);
      console.log(
        `  oracle round ${round + 1}: oracle alone ${(alone.at(-1)!.wallMs / 1000).toFixed(1)} s, sweep of 2 builds against it ` +
          `${(swept.at(-1)!.wallMs / 1000).toFixed(1)} s; load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    lines.push(() => row("2 builds against the oracle", oracleHeights, swept, alone, "the oracle alone"));
  } finally {
    await Promise.all([replay.stop(), fixture.stop()]);
  }
}

console.log("");
console.log(
  `| path | heights | heights/s (best / median of ${rounds}) | ceiling heights/s (best / median) | ratio (best / median) | client CPU µs per height (path / ceiling) |`,
);
console.log("|---|---|---|---|---|---|");
for (const line of lines) line();

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
