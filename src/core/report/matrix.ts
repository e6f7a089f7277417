// The matrix of methods × builds that every human-facing report shows: per cell, how
// many cases the build answered and how many known and new divergences (and drifted
// answers, counted as new) it has there.

import type { BuildInfo } from "../results/events.js";
import type { CaseResult } from "../results/result.js";

export interface MatrixCell {
  ran: number;
  known: number;
  fresh: number;
}

export interface MatrixRow {
  transport: string;
  method: string;
  cases: number;
  cells: (MatrixCell | undefined)[];
}

/** Methods in corpus order × builds in config order; counts are divergences, as in the terminal. */
export function matrixOf(builds: readonly BuildInfo[], results: readonly CaseResult[]): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  for (const r of results) {
    const key = `${r.transport} ${r.method}`;
    let row = rows.get(key);
    if (!row) {
      row = { transport: r.transport, method: r.method, cases: 0, cells: builds.map(() => undefined) };
      rows.set(key, row);
    }
    if (!r.skipped) row.cases++;
    builds.forEach((b, i) => {
      if (!r.answers.some((a) => a.side === b.name)) return;
      const cell = (row!.cells[i] ??= { ran: 0, known: 0, fresh: 0 });
      cell.ran++;
      for (const d of r.divergences) {
        if (d.build !== b.name) continue;
        if (d.quirk === null) cell.fresh++;
        else cell.known++;
      }
      if ((r.drift ?? []).some((d) => d.build === b.name && d.status === "changed")) cell.fresh++;
    });
  }
  return [...rows.values()];
}

