// The sweep's terminal summary: what was swept and against what, throughput per build,
// the tally of divergences by build, kind and path, the first divergences in detail,
// resumed chunks and errors. Plain lines; the command decides where they go.

import type { SweepReport } from "./sweep-report.js";

const DETAIL_LINES = 20;

function n(v: number): string {
  return Math.round(v).toLocaleString("en-US");
}

function table(rows: string[][], right: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map(
    (r) =>
      "  " +
      r
        .map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
  );
}

export function sweepLines(r: SweepReport): string[] {
  const out: string[] = [];
  const pools = r.poolTypes.length > 0 ? r.poolTypes.join(",") : "default (shielded)";
  const shard = r.shard ? ` — shard ${r.shard.index}/${r.shard.count} of ${r.requestedRange!.from}..${r.requestedRange!.to}` : "";
  out.push(`GetBlockRange ${r.range.from}..${r.range.to}${shard} on ${r.chain}; pools ${pools}`);
  out.push(
    `${r.builds.length} build(s) compared against ${r.comparedAgainst === "oracle" ? `the oracle (${r.oracle})` : `${r.comparedAgainst} (reference)`}; ` +
      `chunks of ${n(r.chunkSize)} blocks, window ${r.window}`,
  );
  const emulated = r.builds.filter((b) => b.emulated).map((b) => b.name);
  if (emulated.length > 0) out.push(`emulated profiles (not the real builds): ${emulated.join(", ")}`);
  out.push("");
  out.push("Throughput");
  out.push(
    ...table(
      [
        ["source", "blocks", "blocks/s", "MB", "MB/s", "seconds", "resumed"],
        ...r.throughput.map((t) => [
          t.name,
          n(t.blocks),
          n(t.blocksPerSecond),
          (t.bytes / 1e6).toFixed(1),
          t.mbPerSecond.toFixed(2),
          t.seconds.toFixed(1),
          String(t.resumes),
        ]),
      ],
      new Set([1, 2, 3, 4, 5, 6]),
    ),
  );
  out.push(
    `  ${n(r.summary.blocks)} heights compared in ${(r.summary.durationMs / 1000).toFixed(1)} s (${n(r.summary.blocksPerSecond)} heights/s); ` +
      `the sources advance in lockstep, so each is held to the slowest one's pace (within ${r.window} blocks)`,
  );
  out.push("");
  const s = r.summary;
  if (s.divergences === 0) {
    out.push("No divergence.");
  } else {
    out.push(`Divergences: ${n(s.divergences)} at ${n(s.divergentHeights)} height(s); ${n(s.known)} known, ${n(s.newDivergences)} new`);
    out.push(
      ...table(
        [
          ["build", "kind", "path", "count", "heights", "ledger"],
          ...r.tally.map((t) => [
            t.build,
            t.kind,
            t.path || "(stream)",
            n(t.count),
            t.firstHeight === t.lastHeight ? String(t.firstHeight) : `${t.firstHeight}..${t.lastHeight}`,
            t.known === t.count ? t.quirks.join(",") : t.known === 0 ? "NEW" : `${t.count - t.known} NEW; ${t.quirks.join(",")}`,
          ]),
        ],
        new Set([3]),
      ),
    );
    out.push("");
    out.push(`First divergences${s.omitted > 0 ? ` (${n(s.listed)} listed in the JSON report, ${n(s.omitted)} more in its tally only)` : ""}:`);
    for (const d of r.divergences.slice(0, DETAIL_LINES)) {
      out.push(`  ${d.path || `[${d.height}]`}  ${d.build} vs ${d.left}  ${d.kind}: ${d.detail}${d.quirk ? `  (known: ${d.quirk})` : ""}`);
    }
    if (r.divergences.length > DETAIL_LINES) out.push(`  … ${n(r.divergences.length - DETAIL_LINES)} more in the JSON report`);
  }
  const resumed = r.chunks.flatMap((c) => c.builds.filter((b) => b.resumedAfter).map((b) => `  ${b.name} ${c.from}..${c.to}: resumed after ${b.resumedAfter}`));
  if (resumed.length > 0) out.push("", "Resumed chunks:", ...resumed);
  if (s.errors.length > 0) out.push("", "Errors:", ...s.errors.map((e) => `  ${e}`));
  if (r.partial) out.push("", "PARTIAL: the sweep was interrupted; heights after the last compared one were not checked.");
  return out;
}
