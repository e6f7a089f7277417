// The terminal report: a matrix of methods × builds, then every new divergence, stale
// and expired ledger entries, the summary in plain words, and, once the command knows
// its exit code, where the reports went and one verdict line. Colour follows chalk's
// detection, so NO_COLOR and non-TTY output stay plain; a progress line goes to stderr
// on long runs. Everything a server sent (chain names, versions, messages, fault
// details, values) is made inert before it is printed (inert.ts): a terminal shows it,
// never obeys it.

import { Chalk, type ChalkInstance } from "chalk";
import type { BuildInfo, Contact, Reporter, RunCondition, RunEvent, RunSummary } from "../results/events.js";
import type { CaseResult, ClassifiedDivergence } from "../results/result.js";
import type { OutcomeKind } from "../results/outcome.js";
import { matrixOf, type CellStatus, type MatrixRow } from "./matrix.js";
import { uncheckedLine } from "../results/unchecked.js";
import { slimResult } from "../results/slim.js";
import { adviceFor, adviceForDetail, plainDetail } from "../targets/fault-advice.js";
import { inertDeep } from "./inert.js";

export interface TerminalOptions {
  write: (line: string) => void;
  /** Progress on a TTY: rewritten in place. */
  progress?: (text: string) => void;
  chalk?: ChalkInstance;
  /** Most new divergences listed in full. */
  maxListed?: number;
}

/** Where the file reports went, once they are written. */
export interface ReportsOutcome {
  written: { label: string; path: string }[];
  failed: { label: string; path: string }[];
}

export type TerminalReporter = Reporter & {
  /** The last lines, with the exit code the command ends with: where the reports went, and why that code. */
  closingLines(exitCode: number, reports: ReportsOutcome, lead?: string): string[];
};

const TRANSPORT = { grpc: "gRPC", jsonrpc: "JSON-RPC" } as const;

/** One header line per server the preflight contacted, with what to do when it gave no usable answer. */
export function contactLine(c: Contact): string {
  const over = `over ${TRANSPORT[c.transport]} in ${c.ms} ms`;
  if (c.chainName !== undefined) return `${c.name}: reached ${over}, chain "${c.chainName}"`;
  const detail = c.detail ?? "no answer";
  if (!c.reached) {
    // Not reached: refused, timed out, or a TLS or scheme failure (the detail tells which).
    const advice = adviceFor({ kind: "unreachable", detail });
    return `${c.name}: NOT reached ${over} — ${advice.what}: ${plainDetail(detail)}; ${advice.hint}`;
  }
  const advice = adviceForDetail(detail);
  return `${c.name}: answered ${over}, but not usably — ${advice ? `${advice.what}; ${advice.hint}` : plainDetail(detail)}`;
}

/** What ✓ means in this run: measured against the oracle, an expected error, or only the other builds. */
export interface LegendFacts {
  oracle: boolean;
  builds: number;
}

type Counts = Record<OutcomeKind, number>;
const noCounts = (): Counts => ({ pass: 0, known: 0, new: 0, unchecked: 0, unjudged: 0 });

/** Per method and build, the cases of each outcome: a cell counts cases, as its row's header does. */
function casesByOutcome(results: readonly CaseResult[]): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  for (const r of results) {
    for (const o of r.outcomes ?? []) {
      const key = `${r.transport} ${r.method} ${o.build}`;
      const n = counts.get(key) ?? noCounts();
      n[o.outcome]++;
      counts.set(key, n);
    }
  }
  return counts;
}

function statusOf(n: Counts | undefined): CellStatus {
  if (!n) return "none";
  return n.new > 0 ? "new" : n.unchecked > 0 ? "unchecked" : n.known > 0 ? "known" : n.unjudged > 0 ? "unjudged" : "ok";
}

export function renderMatrix(
  builds: readonly BuildInfo[],
  results: readonly CaseResult[],
  c: ChalkInstance,
  facts: LegendFacts = { oracle: true, builds: builds.length },
): string[] {
  const rows = matrixOf(builds, results);
  const counts = casesByOutcome(results);
  const label = (r: MatrixRow) => `${r.transport === "jsonrpc" ? "rpc " : ""}${r.method} (${r.cases})`;
  const first = Math.max(6, ...rows.map((r) => label(r).length));
  const widths = builds.map((b) => Math.max(b.name.length, 7));
  const lines = [["method".padEnd(first), ...builds.map((b, i) => b.name.padEnd(widths[i]!))].join("  ")];
  const used = new Set<CellStatus>();
  for (const r of rows) {
    const cells = builds.map((b, i) => {
      const w = widths[i]!;
      const n = r.cells[i] ? (counts.get(`${r.transport} ${r.method} ${b.name}`) ?? noCounts()) : undefined;
      const status = statusOf(n);
      used.add(status);
      switch (status) {
        case "none":
          return c.dim("–".padEnd(w));
        case "new":
          return c.red.bold(`${n!.new} new`.padEnd(w));
        case "unchecked":
          return c.red.bold(`!${n!.unchecked}`.padEnd(w));
        case "known":
          return c.yellow(`~${n!.known}`.padEnd(w));
        case "unjudged":
          return c.cyan(`?${n!.unjudged}`.padEnd(w));
        default:
          return c.green("✓".padEnd(w));
      }
    });
    lines.push([label(r).padEnd(first), ...cells].join("  "));
  }
  const against = facts.oracle
    ? "the oracle (or the expected error)"
    : facts.builds > 1
      ? "the other builds (no oracle) or the expected error"
      : "the expected error";
  const legend: [CellStatus, string][] = [
    ["ok", `✓ same as ${against} on every case`],
    ["known", "~N cases differ only in ways the ledger knows"],
    ["new", "N new: cases with a divergence the ledger does not know"],
    ["unchecked", "!N could not be checked on N cases"],
    ["unjudged", "?N unjudged: nothing to measure N cases against"],
    ["none", "– not served"],
  ];
  const text = legend
    .filter(([k]) => used.has(k))
    .map(([, t]) => t)
    .join(" · ");
  if (text) lines.push(c.dim(text));
  return lines;
}

function valueText(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? "∅" : s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

/** What each verdict (the JSON report's word) means, in the terminal's words. */
const VERDICT_WORDS: Record<string, string> = {
  agree: "every build right",
  deviant: "some builds differ from the rest",
  "all-vs-oracle": "all builds agree with each other but not with the node (or the expected error)",
  split: "the builds disagree, with nothing to tell who is right",
  unavailable: "nothing could be checked",
  unjudged: "nothing to judge by",
};

/** A skip reason (runner, plan, broadcast guard) as a group a count can stand for. */
export function skipGroup(reason: string): string {
  if (reason.startsWith("only for chains")) return "declared for another chain";
  if (reason.includes("--allow-broadcast needs every server")) return "would send a transaction, and a server is not on regtest";
  if (reason.includes("valid transaction")) return "would send a transaction: need --allow-broadcast on a regtest chain";
  const anchor = /^anchor "([^"]+)"/.exec(reason) ?? /has no anchor "([^"]+)"/.exec(reason);
  if (anchor) return `need the chain's ${anchor[1]}, which this run does not have`;
  const unserved = /^no configured (?:(\S+) )?build serves (grpc|jsonrpc)$/.exec(reason);
  if (unserved) return `need a ${unserved[1] ? `${unserved[1]} ` : ""}build serving ${TRANSPORT[unserved[2] as "grpc" | "jsonrpc"]} (none is configured)`;
  return reason;
}

function skippedLine(results: readonly CaseResult[]): string | undefined {
  const groups = new Map<string, number>();
  for (const r of results) if (r.skipped) groups.set(skipGroup(r.skipped), (groups.get(skipGroup(r.skipped)) ?? 0) + 1);
  const total = [...groups.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  return `${total} ${total === 1 ? "case" : "cases"} skipped: ${[...groups]
    .sort((a, b) => b[1] - a[1])
    .map(([g, n]) => `${n} ${g}`)
    .join(", ")}`;
}

export function renderSummary(s: RunSummary, c: ChalkInstance, results: readonly CaseResult[] = []): string[] {
  const o = s.outcomes;
  const verdicts = Object.entries(s.verdicts)
    .map(([k, n]) => `${n} ${VERDICT_WORDS[k] ?? k}`)
    .join(" · ");
  const skipped = skippedLine(results);
  const lines = [
    `${s.cases} cases in ${(s.durationMs / 1000).toFixed(1)} s: ${s.cases - s.skipped} run, ${s.skipped} skipped`,
    ...(skipped ? [skipped] : []),
    ...(verdicts ? [`by case: ${verdicts}`] : []),
    `by case and build: ${o.pass} passed, ${o.known} known quirks only, ${o.new} new, ${o.unchecked > 0 ? c.red.bold(`${o.unchecked} could not be checked`) : "0 could not be checked"}, ${o.unjudged} unjudged`,
    `${s.divergences} divergences: ${c.yellow(`${s.known} known`)}, ${s.newDivergences > 0 ? c.red.bold(`${s.newDivergences} new`) : c.green("0 new")}`,
  ];
  if (s.drifted !== undefined) {
    const text = `golden drift: ${s.drifted} answer(s) changed since recorded, ${s.unrecorded ?? 0} without a golden`;
    lines.push(s.drifted > 0 ? c.red.bold(text) : c.green(text));
  }
  if (s.chainMotion) lines.push(...chainMotionLines(s.chainMotion));
  for (const st of s.stale) lines.push(c.magenta(`stale ledger entry ${st.quirk}: ${st.reason}`));
  for (const ex of s.expired) lines.push(c.red(`expired ledger entry ${ex.quirk} (expired ${ex.expires})`));
  for (const u of s.unchecked) lines.push(c.red.bold(`could not check ${uncheckedLine({ ...u, detail: plainDetail(u.detail) })}`));
  return lines;
}

/** The chain moved during the run: what was asked again, and how far each build trailed its node. */
function chainMotionLines(m: NonNullable<RunSummary["chainMotion"]>): string[] {
  const lag = Object.entries(m.lag).map(([b, l]) => `${b} ${(l.p50Ms / 1000).toFixed(1)} s median, ${(l.maxMs / 1000).toFixed(1)} s at most (${l.samples}×)`);
  return [
    `the chain moved during the run: ${m.reasked} ${m.reasked === 1 ? "case was" : "cases were"} asked again once the builds served the node's tip (marked "reasked" in the reports)`,
    ...(m.unsettled
      ? [
          `${m.unsettled} of them never saw the chain hold still through an attempt: their builds with differences could not be checked (the differences are under "reasked.unsettled")`,
        ]
      : []),
    ...(lag.length > 0 ? [`time to serve the node's tip: ${lag.join("; ")}`] : []),
  ];
}

export function conditionLines(conditions: readonly RunCondition[], c: ChalkInstance): string[] {
  return conditions.map((k) => c.yellow(`WARNING: ${k.side === "run" ? "" : `${k.side}: `}${k.detail}`));
}

/** The unjudged case × build pairs, grouped by why. */
function unjudgedLines(results: readonly CaseResult[], c: ChalkInstance, max: number): string[] {
  const byReason = new Map<string, string[]>();
  for (const r of results)
    for (const o of r.outcomes ?? []) {
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 new divergences (GetBlock ×2, getinfo ×1)". */
function freshText(fresh: readonly ClassifiedDivergence[]): string {
  const byMethod = new Map<string, number>();
  for (const d of fresh) byMethod.set(d.method, (byMethod.get(d.method) ?? 0) + 1);
  return `${plural(fresh.length, "new divergence")} (${[...byMethod]
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} ×${n}`)
    .join(", ")})`;
}

/** Why the run itself ends with the exit code it computed. */
function runReasons(s: RunSummary, fresh: readonly ClassifiedDivergence[]): string[] {
  return [
    ...(fresh.length > 0 ? [freshText(fresh)] : []),
    ...((s.drifted ?? 0) > 0 ? [`${plural(s.drifted!, "answer")} drifted from the goldens`] : []),
    ...(s.stale.length > 0 ? [plural(s.stale.length, "stale ledger entry", "stale ledger entries")] : []),
    ...(s.expired.length > 0 ? [plural(s.expired.length, "expired ledger entry", "expired ledger entries")] : []),
  ];
}

interface Ended {
  summary: RunSummary;
  /** The run had an oracle. */
  oracle: boolean;
  interrupted?: string;
  finished: number;
  fresh: ClassifiedDivergence[];
}

/** One line: the exit code and why, in words; `lead` says what a command did when it exits 0 whatever the run found. */
export function verdictLine(exitCode: number, end: Ended | undefined, reports: ReportsOutcome, lead?: string): string {
  const details = reports.written.find((r) => r.label === "JSON")?.path ?? "the JSON report (--json FILE)";
  if (!end) return `exit ${exitCode}`;
  const s = end.summary;
  if (reports.failed.length > 0 && exitCode === 2) {
    return `exit 2: ${reports.failed.map((r) => `the ${r.label} report`).join(" and ")} could not be written (see above)`;
  }
  if (end.interrupted) return `exit ${exitCode}: interrupted by ${end.interrupted}; the reports hold the ${plural(end.finished, "case")} that finished`;
  if (exitCode === 3) {
    const unsettled = s.chainMotion?.unsettled;
    const sides = [
      ...s.unchecked.map((u) => `${u.side === "oracle" ? "the oracle" : u.side} (${u.cases} of ${plural(u.of, "case")})`),
      ...(unsettled ? [`${plural(unsettled, "case")} the chain moved through on every attempt`] : []),
    ].join(", ");
    const also = end.fresh.length > 0 ? `; besides, ${freshText(end.fresh)} where it could` : "";
    return `exit 3: could not check ${sides} — see the "could not check" lines above${also}`;
  }
  const reasons = runReasons(s, end.fresh);
  if (exitCode !== 0 && reasons.length > 0) return `exit ${exitCode}: ${reasons.join("; ")}; see ${details} for details`;
  const unjudged = s.outcomes.unjudged > 0 ? [`${plural(s.outcomes.unjudged, "answer")} unjudged (listed above)`] : [];
  // Nothing found, and yet 1: --strict, which fails an unjudged answer and a run without an oracle.
  if (exitCode === 1) return `exit 1 (--strict): ${[...unjudged, ...(end.oracle ? [] : ["the run has no oracle"])].join("; ")}`;
  if (s.cases === s.skipped) return `exit ${exitCode}: nothing was checked: every case was skipped`;
  // Exit 0 with findings: stale entries allowed (--allow-stale), or goldens recorded all the same.
  const notes = [...reasons, ...(s.known > 0 ? [`${plural(s.known, "divergence")}, each a known quirk in the ledger`] : []), ...unjudged];
  return [`exit ${exitCode}: ${lead ?? (reasons.length > 0 ? "nothing fails the run" : "nothing new")}`, ...notes].join("; ");
}

export function terminalReporter(o: TerminalOptions): TerminalReporter {
  const c = o.chalk ?? new Chalk();
  const indexed: { index: number; result: CaseResult }[] = [];
  let builds: BuildInfo[] = [];
  let facts: LegendFacts = { oracle: true, builds: 0 };
  let ended: Ended | undefined;
  return {
    onEvent(event: RunEvent) {
      if (event.type === "run-start") {
        // Every string a server could have put here, made inert once, on the way in.
        const e = inertDeep(event);
        builds = e.builds;
        facts = { oracle: e.oracle !== undefined, builds: e.builds.length };
        const emulated = builds.filter((b) => b.emulated).length;
        o.write(
          c.bold(
            `zconform · chain ${e.chain} · oracle ${e.oracle ?? "none"} · ${builds.length} builds${emulated ? ` (${emulated} emulated)` : ""} · ${e.cases} cases`,
          ),
        );
        for (const b of builds) {
          const where = [b.grpc && `grpc ${b.grpc}`, b.jsonrpc && `jsonrpc ${b.jsonrpc}`].filter(Boolean).join(", ");
          o.write(
            c.dim(
              `  ${b.name}: ${b.implementation}${b.version ? ` ${b.version}` : ""}${b.protocolVersion ? `, protocol ${b.protocolVersion}` : ""}${b.emulated ? ", EMULATED" : ""}${b.pin ? `, REAL, pinned ${b.pin}` : ""} — ${where}${b.oracle ? `; measured against node ${b.oracle}` : ""}`,
            ),
          );
        }
        for (const line of conditionLines(e.conditions, c)) o.write(line);
        const contacts = [...(e.preflight?.builds ?? []), ...(e.preflight?.oracle ? [e.preflight.oracle] : [])];
        for (const contact of contacts) o.write(c.dim(`  preflight ${contactLine(contact)}`));
        if (e.preflight?.forced) o.write(c.yellow(`  preflight problems ignored (--force): ${e.preflight.problems.join("; ")}`));
      } else if (event.type === "case-result") {
        // The matrix and the lists read no answer's bytes: a slim copy is kept to the end.
        const result = inertDeep(slimResult(event.result));
        indexed.push({ index: event.index, result });
        o.progress?.(`[${event.done}/${event.total}] ${result.caseId}`);
      } else {
        const e = inertDeep(event);
        o.progress?.("");
        o.write("");
        // Completion order is the network's; reports read in corpus order.
        const results = indexed.sort((a, b) => a.index - b.index).map((x) => x.result);
        for (const line of renderMatrix(builds, results, c, facts)) o.write(line);
        const fresh = results.flatMap((r) => r.divergences.filter((d) => d.quirk === null));
        ended = { summary: e.summary, oracle: facts.oracle, ...(e.interrupted ? { interrupted: e.interrupted } : {}), finished: results.length, fresh };
        if (fresh.length > 0) {
          o.write("");
          o.write(c.red.bold(`New divergences (${fresh.length}):`));
          for (const d of fresh.slice(0, o.maxListed ?? 50)) {
            o.write(
              `  ${d.caseId}  ${c.bold(d.build)}  ${d.kind}  ${d.path || "(whole answer)"}  ${d.left}=${valueText(d.leftValue)} ${d.build}=${valueText(d.rightValue)}`,
            );
          }
          if (fresh.length > (o.maxListed ?? 50)) o.write(c.dim(`  … and ${fresh.length - (o.maxListed ?? 50)} more (see the JSON report)`));
        }
        const drifted = results.flatMap((r) => (r.drift ?? []).filter((d) => d.status === "changed").map((d) => ({ r, d })));
        if (drifted.length > 0) {
          o.write("");
          o.write(c.red.bold(`Drift from goldens (${drifted.length}):`));
          for (const { r, d } of drifted.slice(0, o.maxListed ?? 50)) {
            const first = d.divergences[0];
            o.write(
              `  ${r.caseId}  ${c.bold(d.build)}  ${first ? `${first.kind} ${first.path || "(whole answer)"}` : ""}${d.divergences.length > 1 ? ` (+${d.divergences.length - 1})` : ""}`,
            );
          }
        }
        const unjudged = unjudgedLines(results, c, o.maxListed ?? 50);
        if (unjudged.length > 0) {
          o.write("");
          for (const line of unjudged) o.write(line);
        }
        o.write("");
        for (const line of renderSummary(e.summary, c, results)) o.write(line);
        if (e.partial) o.write(c.red(`The run was interrupted${e.interrupted ? ` (${e.interrupted})` : ""}: results are partial.`));
      }
    },
    finish: async () => {},
    closingLines: (exitCode, reports, lead) => [
      ...(reports.written.length > 0 ? [`reports written: ${reports.written.map((r) => `${r.label} ${r.path}`).join(", ")}`] : []),
      c.bold(verdictLine(exitCode, ended, reports, lead)),
    ],
  };
}
