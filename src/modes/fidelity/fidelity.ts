// Profile fidelity: on the same chain and corpus, how often an emulated profile answers
// exactly what the real server it emulates answers. Two answers agree when status, message
// and every message's bytes are equal (as a multiset for cases declared unordered). A
// difference is explained when the real build's own divergences on that case are all
// filed under ledger entries (its behaviour there is known and recorded), or, where the
// real build conforms (its answer is one the case allows), when a ledger entry names that
// real build and that case; otherwise the emulation is wrong there and must be fixed.

import { bothEnforcedDeadline, outlivedDeadline, PAST_DEADLINE } from "../../core/canon/grpc.js";
import { glob } from "../../core/corpus/glob.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { Answer, CaseResult } from "../../core/results/result.js";

export interface FidelityPair {
  /** The emulated profile's build name. */
  emulated: string;
  /** The real server's build name. */
  real: string;
}

export interface FidelityRow {
  method: string;
  /** Cases both builds answered. */
  cases: number;
  agree: number;
  differ: number;
  /** Differences the ledger explains (a subset of differ). */
  explained: number;
}

export interface AnswerSummary {
  status: string;
  message: string;
  messages: number;
}

export interface FidelityDifference {
  caseId: string;
  method: string;
  emulated: AnswerSummary;
  real: AnswerSummary;
  /** Ledger entries covering every divergence of the real build on this case; null when not explained. */
  explainedBy: string[] | null;
}

export interface Fidelity {
  pair: FidelityPair;
  rows: FidelityRow[];
  differences: FidelityDifference[];
  totals: { cases: number; agree: number; differ: number; explained: number; unexplained: number };
}

/**
 * The status an answer compares by: an open-ended stream the client ended counts as the
 * server's OK, and a call that outlived its case's deadline as PAST_DEADLINE.
 */
function ending(a: Answer, r: CaseResult): [string, string] {
  if (outlivedDeadline({ ...a, ok: a.status === "OK" }, r.deadlineMs)) return [PAST_DEADLINE, ""];
  return (r.openEnded === true && a.endedBy === "quiet") || a.endedBy === "cancelled" ? ["OK", ""] : [a.status, a.message];
}

function sameAnswer(a: Answer, b: Answer, r: CaseResult): boolean {
  if (bothEnforcedDeadline(r.deadlineMs, a, b)) return true;
  const [sa, ma] = ending(a, r);
  const [sb, mb] = ending(b, r);
  if (sa !== sb || ma !== mb || a.hex.length !== b.hex.length) return false;
  const [x, y] = r.unordered ? [[...a.hex].sort(), [...b.hex].sort()] : [a.hex, b.hex];
  return x.every((h, i) => h === y[i]);
}

const summary = (a: Answer): AnswerSummary => ({ status: a.status, message: a.message, messages: a.count });

/** Entries about this very build (selected by name) that list the case. */
function namedFor(ledger: readonly Quirk[], r: CaseResult, real: string): string[] {
  return ledger
    .filter(
      (q) =>
        q.builds.some((b) => b.names?.includes(real)) &&
        (q.match.methods === undefined || q.match.methods.includes(r.method)) &&
        (q.match.cases ?? []).some((p) => glob(p, r.caseId)),
    )
    .map((q) => q.id);
}

function explanation(r: CaseResult, real: string, ledger: readonly Quirk[]): string[] | null {
  const own = r.divergences.filter((d) => d.build === real);
  if (own.some((d) => d.quirk === null)) return null;
  const ids = own.length > 0 ? own.map((d) => d.quirk!) : namedFor(ledger, r, real);
  return ids.length > 0 ? [...new Set(ids)].sort() : null;
}

export function fidelityOf(results: readonly CaseResult[], pair: FidelityPair, ledger: readonly Quirk[] = []): Fidelity {
  const rows = new Map<string, FidelityRow>();
  const differences: FidelityDifference[] = [];
  for (const r of results) {
    if (r.skipped) continue;
    const e = r.answers.find((a) => a.side === pair.emulated);
    const g = r.answers.find((a) => a.side === pair.real);
    if (!e || !g) continue;
    const row = rows.get(r.method) ?? { method: r.method, cases: 0, agree: 0, differ: 0, explained: 0 };
    rows.set(r.method, row);
    row.cases++;
    if (sameAnswer(e, g, r)) {
      row.agree++;
      continue;
    }
    row.differ++;
    const explainedBy = explanation(r, pair.real, ledger);
    if (explainedBy) row.explained++;
    differences.push({ caseId: r.caseId, method: r.method, emulated: summary(e), real: summary(g), explainedBy });
  }
  const sorted = [...rows.values()].sort((a, b) => a.method.localeCompare(b.method));
  const sum = (k: "cases" | "agree" | "differ" | "explained") => sorted.reduce((n, row) => n + row[k], 0);
  const totals = {
    cases: sum("cases"),
    agree: sum("agree"),
    differ: sum("differ"),
    explained: sum("explained"),
    unexplained: sum("differ") - sum("explained"),
  };
  return { pair, rows: sorted, differences, totals };
}

/** The table a terminal shows: one line per rpc, then every difference. */
export function renderFidelity(f: Fidelity): string[] {
  const w = Math.max(26, ...f.rows.map((r) => r.method.length + 2));
  const lines = [
    `fidelity: ${f.pair.emulated} (emulated) against ${f.pair.real}`,
    `${"rpc".padEnd(w)}${"cases".padStart(6)}${"agree".padStart(7)}${"differ".padStart(8)}${"explained".padStart(11)}`,
    ...f.rows.map(
      (r) =>
        `${r.method.padEnd(w)}${String(r.cases).padStart(6)}${String(r.agree).padStart(7)}${String(r.differ).padStart(8)}${String(r.explained).padStart(11)}`,
    ),
    `${"total".padEnd(w)}${String(f.totals.cases).padStart(6)}${String(f.totals.agree).padStart(7)}${String(f.totals.differ).padStart(8)}${String(f.totals.explained).padStart(11)}`,
  ];
  for (const d of f.differences) {
    const side = (a: AnswerSummary) => `${a.status}${a.message ? ` "${a.message.slice(0, 80)}"` : ""} (${a.messages} msg)`;
    lines.push(
      `  ${d.caseId}: emulated ${side(d.emulated)} · real ${side(d.real)} · ${d.explainedBy ? `explained by ${d.explainedBy.join(", ")}` : "UNEXPLAINED"}`,
    );
  }
  return lines;
}
