// The matrix of methods × builds that every human-facing report shows: per cell, how
// many cases the build answered, how many known and new divergences (and drifted
// answers, counted as new) it has there, and on how many cases it could not be checked
// or had nothing to be measured against. A cell passes only when every one of its cases
// was checked and judged.

import type { BuildInfo } from "../results/events.js";
import type { CaseResult } from "../results/result.js";

export interface MatrixCell {
  ran: number;
  known: number;
  fresh: number;
  /** Cases the build could not be checked on (no answer, or the oracle missing). */
  unchecked: number;
  /** Cases it answered with nothing to measure it against. */
  unjudged: number;
}

export interface MatrixRow {
  transport: string;
  method: string;
  cases: number;
  cells: (MatrixCell | undefined)[];
}

export type CellStatus = "new" | "unchecked" | "known" | "unjudged" | "ok" | "none";

/** What a cell shows, worst first: a cell is "ok" only when every case passed. */
export function cellStatus(cell: MatrixCell | undefined): CellStatus {
  if (!cell) return "none";
  if (cell.fresh > 0) return "new";
  if (cell.unchecked > 0) return "unchecked";
  if (cell.known > 0) return "known";
  if (cell.unjudged > 0) return "unjudged";
  return "ok";
}

/** Methods in the order of the results given (corpus order) × builds in config order; rows with no case run are left out. */
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
      const cell = (row!.cells[i] ??= { ran: 0, known: 0, fresh: 0, unchecked: 0, unjudged: 0 });
      cell.ran++;
      for (const d of r.divergences) {
        if (d.build !== b.name) continue;
        if (d.quirk === null) cell.fresh++;
        else cell.known++;
      }
      if ((r.drift ?? []).some((d) => d.build === b.name && d.status === "changed")) cell.fresh++;
      const outcome = r.outcomes?.find((o) => o.build === b.name)?.outcome;
      if (outcome === "unchecked") cell.unchecked++;
      if (outcome === "unjudged") cell.unjudged++;
    });
  }
  return [...rows.values()].filter((row) => row.cases > 0);
}
