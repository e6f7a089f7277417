// The terminal report: a matrix of methods × builds, then every new divergence, stale
// and expired ledger entries, and the summary. Colour follows chalk's detection, so
// NO_COLOR and non-TTY output stay plain; a progress line goes to stderr on long runs.

import { Chalk, type ChalkInstance } from "chalk";
import type { BuildInfo, Contact, Reporter, RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import { matrixOf, type MatrixRow } from "./matrix.js";

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

export function renderMatrix(builds: readonly BuildInfo[], results: readonly CaseResult[], c: ChalkInstance): string[] {
  const rows = matrixOf(builds, results);
  const label = (r: MatrixRow) => `${r.transport === "jsonrpc" ? "rpc " : ""}${r.method} (${r.cases})`;
  const first = Math.max(6, ...rows.map((r) => label(r).length));
  const widths = builds.map((b) => Math.max(b.name.length, 7));
  const lines = [["method".padEnd(first), ...builds.map((b, i) => b.name.padEnd(widths[i]!))].join("  ")];
  for (const r of rows) {
    const cells = r.cells.map((cell, i) => {
      const w = widths[i]!;
      if (!cell) return c.dim("–".padEnd(w));
      if (cell.fresh > 0) return c.red.bold(`${cell.fresh} new`.padEnd(w));
      if (cell.known > 0) return c.yellow(`~${cell.known}`.padEnd(w));
      return c.green("✓".padEnd(w));
    });
    lines.push([label(r).padEnd(first), ...cells].join("  "));
  }
  lines.push(c.dim("✓ same as the reference on every case · ~N known divergences (ledger) · N new · – not served"));
  return lines;
}

function valueText(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "∅" : s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

export function renderSummary(s: RunSummary, c: ChalkInstance): string[] {
  const verdicts = Object.entries(s.verdicts).map(([k, n]) => `${k} ${n}`).join(", ");
  const lines = [
    `${s.cases} cases (${s.skipped} skipped) in ${(s.durationMs / 1000).toFixed(1)} s · verdicts: ${verdicts || "none"}`,
    `${s.divergences} divergences: ${c.yellow(`${s.known} known`)}, ${s.newDivergences > 0 ? c.red.bold(`${s.newDivergences} new`) : c.green("0 new")}`,
  ];
  if (s.drifted !== undefined) {
    const text = `golden drift: ${s.drifted} answer(s) changed since recorded, ${s.unrecorded ?? 0} without a golden`;
    lines.push(s.drifted > 0 ? c.red.bold(text) : c.green(text));
  }
  for (const st of s.stale) lines.push(c.magenta(`stale ledger entry ${st.quirk}: ${st.reason}`));
  for (const ex of s.expired) lines.push(c.red(`expired ledger entry ${ex.quirk} (expired ${ex.expires})`));
  return lines;
}

export function terminalReporter(o: TerminalOptions): Reporter {
  const c = o.chalk ?? new Chalk();
  const results: CaseResult[] = [];
  let builds: BuildInfo[] = [];
  return {
    onEvent(e: RunEvent) {
      if (e.type === "run-start") {
        builds = e.builds;
        const emulated = builds.filter((b) => b.emulated).length;
        o.write(c.bold(`zconform · chain ${e.chain} · oracle ${e.oracle ?? "none"} · ${builds.length} builds${emulated ? ` (${emulated} emulated)` : ""} · ${e.cases} cases`));
        for (const b of builds) {
          const where = [b.grpc && `grpc ${b.grpc}`, b.jsonrpc && `jsonrpc ${b.jsonrpc}`].filter(Boolean).join(", ");
          o.write(c.dim(`  ${b.name}: ${b.implementation}${b.version ? ` ${b.version}` : ""}${b.protocolVersion ? `, protocol ${b.protocolVersion}` : ""}${b.emulated ? ", EMULATED" : ""} — ${where}`));
        }
        const contacts = [...(e.preflight?.builds ?? []), ...(e.preflight?.oracle ? [e.preflight.oracle] : [])];
        for (const contact of contacts) o.write(c.dim(`  preflight ${contactLine(contact)}`));
        if (e.preflight?.forced) o.write(c.yellow(`  preflight problems ignored (--force): ${e.preflight.problems.join("; ")}`));
      } else if (e.type === "case-result") {
        results.push(e.result);
        o.progress?.(`[${e.done}/${e.total}] ${e.result.caseId}`);
      } else {
        o.progress?.("");
        o.write("");
        for (const line of renderMatrix(builds, results, c)) o.write(line);
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
        o.write("");
        for (const line of renderSummary(e.summary, c)) o.write(line);
        if (e.partial) o.write(c.red("The run was interrupted: results are partial."));
      }
    },
    finish: async () => {},
  };
}
