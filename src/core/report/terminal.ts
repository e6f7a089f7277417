// The terminal report: a matrix of methods × builds, then every new divergence, stale
// and expired ledger entries, and the summary. Colour follows chalk's detection, so
// NO_COLOR and non-TTY output stay plain; a progress line goes to stderr on long runs.

import { Chalk, type ChalkInstance } from "chalk";
import type { BuildInfo, Contact, Reporter, RunCondition, RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { cellStatus, matrixOf, type CellStatus, type MatrixRow } from "./matrix.js";
import { uncheckedLine } from "../results/unchecked.js";
import { slimResult } from "../results/slim.js";

export interface TerminalOptions {
  write: (line: string) => void;
  /** Progress on a TTY: rewritten in place. */
  progress?: (text: string) => void;
  chalk?: ChalkInstance;
  /** Most new divergences listed in full. */
  maxListed?: number;
}

/** One header line per server the preflight contacted. */
export function contactLine(c: Contact): string {
  const said = c.chainName !== undefined ? `chain "${c.chainName}"` : c.detail ?? "no answer";
  return `${c.name}: ${c.reached ? "reached" : "NOT reached"} over ${c.transport === "grpc" ? "gRPC" : "JSON-RPC"} in ${c.ms} ms, ${said}`;
}

/** What ✓ means in this run: measured against the oracle, an expected error, or only the other builds. */
export interface LegendFacts {
  oracle: boolean;
  builds: number;
}

export function renderMatrix(builds: readonly BuildInfo[], results: readonly CaseResult[], c: ChalkInstance, facts: LegendFacts = { oracle: true, builds: builds.length }): string[] {
  const rows = matrixOf(builds, results);
  const label = (r: MatrixRow) => `${r.transport === "jsonrpc" ? "rpc " : ""}${r.method} (${r.cases})`;
  const first = Math.max(6, ...rows.map((r) => label(r).length));
  const widths = builds.map((b) => Math.max(b.name.length, 7));
  const lines = [["method".padEnd(first), ...builds.map((b, i) => b.name.padEnd(widths[i]!))].join("  ")];
  const used = new Set<CellStatus>();
  for (const r of rows) {
    const cells = r.cells.map((cell, i) => {
      const w = widths[i]!;
      const status = cellStatus(cell);
      used.add(status);
      switch (status) {
        case "none": return c.dim("–".padEnd(w));
        case "new": return c.red.bold(`${cell!.fresh} new`.padEnd(w));
        case "unchecked": return c.red.bold(`!${cell!.unchecked}`.padEnd(w));
        case "known": return c.yellow(`~${cell!.known}`.padEnd(w));
        case "unjudged": return c.cyan(`?${cell!.unjudged}`.padEnd(w));
        default: return c.green("✓".padEnd(w));
      }
    });
    lines.push([label(r).padEnd(first), ...cells].join("  "));
  }
  const against = facts.oracle ? "the oracle (or the expected error)" : facts.builds > 1 ? "the other builds (no oracle) or the expected error" : "the expected error";
  const legend: [CellStatus, string][] = [
    ["ok", `✓ same as ${against} on every case`],
    ["known", "~N known divergences (ledger)"],
    ["new", "N new"],
    ["unchecked", "!N could not be checked on N cases"],
    ["unjudged", "?N unjudged: nothing to measure N cases against"],
    ["none", "– not served"],
  ];
  const text = legend.filter(([k]) => used.has(k)).map(([, t]) => t).join(" · ");
  if (text) lines.push(c.dim(text));
  return lines;
}

function valueText(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "∅" : s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

export function renderSummary(s: RunSummary, c: ChalkInstance): string[] {
  const verdicts = Object.entries(s.verdicts).map(([k, n]) => `${k} ${n}`).join(", ");
  const o = s.outcomes;
  const lines = [
    `${s.cases} cases (${s.skipped} skipped) in ${(s.durationMs / 1000).toFixed(1)} s · verdicts: ${verdicts || "none"}`,
    `case × build: ${o.pass} passed, ${o.known} known, ${o.new} new, ${o.unchecked > 0 ? c.red.bold(`${o.unchecked} could not be checked`) : "0 could not be checked"}, ${o.unjudged} unjudged`,
    `${s.divergences} divergences: ${c.yellow(`${s.known} known`)}, ${s.newDivergences > 0 ? c.red.bold(`${s.newDivergences} new`) : c.green("0 new")}`,
  ];
  if (s.drifted !== undefined) {
    const text = `golden drift: ${s.drifted} answer(s) changed since recorded, ${s.unrecorded ?? 0} without a golden`;
    lines.push(s.drifted > 0 ? c.red.bold(text) : c.green(text));
  }
  for (const st of s.stale) lines.push(c.magenta(`stale ledger entry ${st.quirk}: ${st.reason}`));
  for (const ex of s.expired) lines.push(c.red(`expired ledger entry ${ex.quirk} (expired ${ex.expires})`));
  for (const u of s.unchecked) lines.push(c.red.bold(`could not check ${uncheckedLine(u)}`));
  return lines;
}

export function conditionLines(conditions: readonly RunCondition[], c: ChalkInstance): string[] {
  return conditions.map((k) => c.yellow(`WARNING: ${k.side === "run" ? "" : `${k.side}: `}${k.detail}`));
}

/** The unjudged case × build pairs, grouped by why. */
function unjudgedLines(results: readonly CaseResult[], c: ChalkInstance, max: number): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results) for (const o of r.outcomes ?? []) {
    if (o.outcome !== "unjudged") continue;
    const key = o.reason ?? "nothing to compare with";
    byReason.set(key, [...(byReason.get(key) ?? []), `${r.caseId} [${o.build}]`]);
  }
  const lines: string[] = [];
  for (const [reason, pairs] of byReason) {
    lines.push(c.cyan(`Unjudged (${pairs.length}): ${reason}`));
    lines.push(...pairs.slice(0, max).map((p) => `  ${p}`));
    if (pairs.length > max) lines.push(c.dim(`  … and ${pairs.length - max} more (see the JSON report)`));
  }
  return lines;
}

export function terminalReporter(o: TerminalOptions): Reporter {
  const c = o.chalk ?? new Chalk();
  const indexed: { index: number; result: CaseResult }[] = [];
  let builds: BuildInfo[] = [];
  let facts: LegendFacts = { oracle: true, builds: 0 };
  return {
    onEvent(e: RunEvent) {
      if (e.type === "run-start") {
        builds = e.builds;
        facts = { oracle: e.oracle !== undefined, builds: e.builds.length };
        const emulated = builds.filter((b) => b.emulated).length;
        o.write(c.bold(`zconform · chain ${e.chain} · oracle ${e.oracle ?? "none"} · ${builds.length} builds${emulated ? ` (${emulated} emulated)` : ""} · ${e.cases} cases`));
        for (const b of builds) {
          const where = [b.grpc && `grpc ${b.grpc}`, b.jsonrpc && `jsonrpc ${b.jsonrpc}`].filter(Boolean).join(", ");
          o.write(c.dim(`  ${b.name}: ${b.implementation}${b.version ? ` ${b.version}` : ""}${b.protocolVersion ? `, protocol ${b.protocolVersion}` : ""}${b.emulated ? ", EMULATED" : ""}${b.pin ? `, REAL, pinned ${b.pin}` : ""} — ${where}${b.oracle ? `; measured against node ${b.oracle}` : ""}`));
        }
        for (const line of conditionLines(e.conditions, c)) o.write(line);
        const contacts = [...(e.preflight?.builds ?? []), ...(e.preflight?.oracle ? [e.preflight.oracle] : [])];
        for (const contact of contacts) o.write(c.dim(`  preflight ${contactLine(contact)}`));
        if (e.preflight?.forced) o.write(c.yellow(`  preflight problems ignored (--force): ${e.preflight.problems.join("; ")}`));
      } else if (e.type === "case-result") {
        // The matrix and the lists read no answer's bytes: a slim copy is kept to the end.
        indexed.push({ index: e.index, result: slimResult(e.result) });
        o.progress?.(`[${e.done}/${e.total}] ${e.result.caseId}`);
      } else {
        o.progress?.("");
        o.write("");
        // Completion order is the network's; reports read in corpus order.
        const results = indexed.sort((a, b) => a.index - b.index).map((x) => x.result);
        for (const line of renderMatrix(builds, results, c, facts)) o.write(line);
        const fresh = results.flatMap((r) => r.divergences.filter((d) => d.quirk === null));
        if (fresh.length > 0) {
          o.write("");
          o.write(c.red.bold(`New divergences (${fresh.length}):`));
          for (const d of fresh.slice(0, o.maxListed ?? 50)) {
            o.write(`  ${d.caseId}  ${c.bold(d.build)}  ${d.kind}  ${d.path || "(whole answer)"}  ${d.left}=${valueText(d.leftValue)} ${d.build}=${valueText(d.rightValue)}`);
          }
          if (fresh.length > (o.maxListed ?? 50)) o.write(c.dim(`  … and ${fresh.length - (o.maxListed ?? 50)} more (see the JSON report)`));
        }
        const drifted = results.flatMap((r) => (r.drift ?? []).filter((d) => d.status === "changed").map((d) => ({ r, d })));
        if (drifted.length > 0) {
          o.write("");
          o.write(c.red.bold(`Drift from goldens (${drifted.length}):`));
          for (const { r, d } of drifted.slice(0, o.maxListed ?? 50)) {
            const first = d.divergences[0];
            o.write(`  ${r.caseId}  ${c.bold(d.build)}  ${first ? `${first.kind} ${first.path || "(whole answer)"}` : ""}${d.divergences.length > 1 ? ` (+${d.divergences.length - 1})` : ""}`);
          }
        }
        const unjudged = unjudgedLines(results, c, o.maxListed ?? 50);
        if (unjudged.length > 0) {
          o.write("");
          for (const line of unjudged) o.write(line);
        }
        o.write("");
        for (const line of renderSummary(e.summary, c)) o.write(line);
        if (e.partial) o.write(c.red(`The run was interrupted${e.interrupted ? ` (${e.interrupted})` : ""}: results are partial.`));
      }
    },
    finish: async () => {},
  };
}
