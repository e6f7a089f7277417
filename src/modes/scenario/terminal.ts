// The scenario report on a terminal: per scenario a timeline, one row per step and per
// check, one column per build: the ms it took to converge on the oracle's answer (or to
// end a held stream, or to serve the node's tip), or what it ended as. Then tip following
// per build and the totals.

import type { ActionRecord } from "../../core/scenario/record.js";
import type { BuildConvergence } from "../../core/scenario/converge.js";
import { networkLabel, type CheckEntry, type ScenarioDocument, type TipFigures } from "./document.js";

const short = (hash: string) => hash.slice(0, 8);

/** What a step did, in a few words. */
export function actionText(a: ActionRecord): string {
  switch (a.kind) {
    case "mine": {
      const last = a.tips[a.tips.length - 1];
      return `mine ${a.blocks}${last ? ` → ${last.height} ${short(last.hash)}` : ""}`;
    }
    case "send":
      return `send ${a.txs.map((t) => `${t.name} ${short(t.txid)}`).join(", ")}`;
    case "reorg":
      return `reorg ${a.depth} at ${a.forkPoint}${a.include.length > 0 ? ` (again: ${a.include.join(", ")})` : ""} → ${a.tip.height} ${short(a.tip.hash)}`;
    case "wait":
      return `wait ${a.ms} ms`;
    case "wait-tip":
      return "wait until every build serves the tip";
    case "open":
      return `open ${a.stream}: ${a.method}`;
    case "read":
      return `read ${a.stream} to its end`;
    case "close":
      return `close ${a.stream}`;
  }
}

/** A build's cell: its time when it converged (`*` when only a ledger entry makes it match), else its outcome. */
export function cellText(b: BuildConvergence | undefined): string {
  if (!b) return "·";
  if (b.outcome === "new" || b.outcome === "unchecked") return b.outcome;
  if (b.ms === null) return b.outcome === "unjudged" ? "unjudged" : b.outcome;
  return `${b.ms} ms${b.outcome === "known" ? "*" : ""}`;
}

function timeCell(ms: number | null): string {
  return ms === null ? "not in time" : `${ms} ms`;
}

export function scenarioLines(doc: ScenarioDocument): string[] {
  const builds = doc.builds.map((b) => b.name);
  const width = builds.map((b) => Math.max(b.length, 11));
  const WHAT = 44;
  const row = (step: string, what: string, cells: string[]) =>
    `  ${step.padEnd(5)} ${what.length > WHAT ? `${what.slice(0, WHAT - 1)}…` : what.padEnd(WHAT)} ${cells.map((c, i) => c.padEnd(width[i]!)).join(" ")}`.trimEnd();
  const out: string[] = [];
  for (const s of doc.scenarios) {
    out.push("", `${s.id}${s.title ? ` — ${s.title}` : ""} (${(s.durationMs / 1000).toFixed(1)} s)`);
    out.push(row("step", "action / check", builds));
    for (const st of s.steps) {
      const a = st.action;
      const times = a.kind === "read" || a.kind === "wait-tip" ? builds.map((b) => timeCell(a.builds.find((x) => x.build === b)?.ms ?? null)) : [];
      out.push(row(String(st.index), actionText(a), times));
      for (const c of st.checks)
        out.push(
          row(
            "",
            checkName(c),
            builds.map((b) => cellText(c.builds.find((x) => x.build === b))),
          ),
        );
      for (const c of st.checks) {
        for (const d of c.divergences.filter((x) => x.quirk === null))
          out.push(`          new: ${d.build} ${c.caseId} ${d.kind} ${d.path || "(whole answer)"}: ${d.detail}`);
      }
    }
    if (s.error) out.push(`  stopped: ${s.error}`);
  }
  out.push("", `tip following: ms from the node accepting a block to each build serving it as its latest block (${networkLabel(doc.network)})`);
  const w = Math.max(16, ...doc.tipFollowing.map((t) => t.build.length));
  out.push(
    `  ${"build".padEnd(w)} ${"blocks".padStart(6)} ${"p50".padStart(7)} ${"p99".padStart(7)} ${"max".padStart(7)}   ${"reorgs".padStart(6)} ${"p50".padStart(7)} ${"max".padStart(7)}`,
  );
  for (const t of doc.tipFollowing) {
    out.push(
      `  ${t.build.padEnd(w)} ${served(t.blocks)} ${ms(t.blocks.p50Ms)} ${ms(t.blocks.p99Ms)} ${ms(t.blocks.maxMs)}   ${served(t.reorgs)} ${ms(t.reorgs.p50Ms)} ${ms(t.reorgs.maxMs)}`,
    );
  }
  const o = doc.summary.outcomes;
  out.push(
    "",
    `${doc.summary.scenarios} scenarios, ${doc.summary.checks} checks: ${o.pass} pass, ${o.known} known, ${o.new} new, ${o.unchecked} unchecked, ` +
      `${o.unjudged} unjudged; ${doc.summary.notAtTip} not at the tip in time; * = matches only as a ledger entry explains; exit ${doc.exitCode}`,
  );
  if (doc.interrupted) out.push(`interrupted by ${doc.interrupted}: the reports hold the scenarios that ran, the last one up to where it stood`);
  return out;
}

function checkName(c: CheckEntry): string {
  const name = c.stream !== undefined && c.id !== c.stream ? c.id : c.id === c.caseId ? c.caseId : `${c.method} ${c.id}`;
  return `  ${name}${c.skipped ? ` (skipped: ${c.skipped})` : ""}`;
}

function served(t: TipFigures): string {
  return `${t.served}/${t.events}`.padStart(6);
}

function ms(v: number | null): string {
  return (v === null ? "–" : `${Math.round(v)}`).padStart(7);
}
