// `zconform merge`: the shard reports of one run joined into the report an unsharded run
// would have written.
//
// - Every shard must come from the same run setup: every top-level field other than the
//   ones recomputed here (schema version, tool, chain, oracle, builds, and whatever
//   fields later schema versions add) must be identical across shards, and the shards
//   must be 1..n of one n, each once, with no case in two of them. Against the embedded
//   fixture network (chain "fixture") each shard started its own servers on free ports,
//   so there loopback endpoints are compared without their port.
// - Cases come back in corpus order: gRPC before JSON-RPC, then file, then line — the
//   order src/core/corpus/load.ts reads them in — from each result's `source` ("file:line").
// - The summary is recomputed from the cases, and the ledger findings with it: an entry
//   is stale only when no shard showed it, since a shard alone cannot tell (its cases
//   may be elsewhere). That needs the ledger the shards ran with. Expiry is judged on
//   the day the earliest shard started, so merging later does not change the verdict.
// - startedAt is the earliest shard's, finishedAt the latest's, summary.durationMs the
//   longest shard's (the wall time of a parallel matrix), partial if any shard was.

import { isDeepStrictEqual } from "node:util";
import { ledgerFindings } from "../../core/ledger/findings.js";
import { ledgerOnChain, type Quirk } from "../../core/ledger/quirk.js";
import type { JsonReport } from "../../core/report/json.js";
import type { CaseResult } from "../../core/results/result.js";
import { REPORT_SCHEMA_VERSION } from "../../core/results/result.js";
import { exitCodeOf, summarize } from "../../core/run/session.js";

export class MergeError extends Error {}

export interface ShardReport {
  /** Where it came from, for messages. */
  file: string;
  report: JsonReport;
}

export interface MergeOptions {
  /** The ledger the shards ran with; required when any shard used one. */
  ledger?: readonly Quirk[];
  allowStale?: boolean;
}

/**
 * Fields recomputed by the merge; every other top-level field must agree. Each shard ran
 * its own preflight (timings differ): the merged report keeps the first shard's.
 */
const RECOMPUTED = new Set(["startedAt", "finishedAt", "partial", "exitCode", "shard", "summary", "cases", "divergences", "preflight"]);

/** Corpus order: gRPC before JSON-RPC, then file, then line (case id breaks ties). */
export function corpusOrder(a: CaseResult, b: CaseResult): number {
  const where = (r: CaseResult) => {
    const i = r.source.lastIndexOf(":");
    return { file: i < 0 ? r.source : r.source.slice(0, i), line: i < 0 ? 0 : Number(r.source.slice(i + 1)) };
  };
  const t = (r: CaseResult) => (r.transport === "grpc" ? 0 : 1);
  const wa = where(a);
  const wb = where(b);
  return t(a) - t(b) || (wa.file < wb.file ? -1 : wa.file > wb.file ? 1 : 0) || wa.line - wb.line || (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0);
}

const LOOPBACK = /^(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\])):\d+/;

/** The value with every loopback URL's port removed (for the fixture's ephemeral ports). */
function withoutLoopbackPorts(v: unknown): unknown {
  if (typeof v === "string") return v.replace(LOOPBACK, "$1");
  if (Array.isArray(v)) return v.map(withoutLoopbackPorts);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withoutLoopbackPorts(x)]));
  return v;
}

/** Throws unless the document is a corpus run's report (reports before schema 3 have no `kind`: they are run reports). */
export function checkRunReport(file: string, doc: { kind?: unknown }): void {
  const kind = doc.kind ?? "run";
  if (kind !== "run") {
    throw new MergeError(`${file} is a ${String(kind)} report; merge joins the corpus reports of \`run\`/\`demo --shard k/n\``);
  }
}

function checkShards(inputs: readonly ShardReport[]): void {
  if (inputs.length === 0) throw new MergeError("nothing to merge: give the shard reports");
  for (const { file, report } of inputs) {
    checkRunReport(file, report);
    if (report.schemaVersion !== REPORT_SCHEMA_VERSION) {
      throw new MergeError(`${file} has report schema version ${report.schemaVersion}; this zconform reads version ${REPORT_SCHEMA_VERSION}`);
    }
    if (!report.shard) throw new MergeError(`${file} is not a shard report (it was run without --shard)`);
  }
  const first = inputs[0]!;
  const comparable = first.report.chain === "fixture" ? withoutLoopbackPorts : (v: unknown) => v;
  for (const other of inputs.slice(1)) {
    for (const key of new Set([...Object.keys(first.report), ...Object.keys(other.report)])) {
      if (RECOMPUTED.has(key)) continue;
      const a = (first.report as unknown as Record<string, unknown>)[key];
      const b = (other.report as unknown as Record<string, unknown>)[key];
      if (!isDeepStrictEqual(comparable(a), comparable(b))) {
        throw new MergeError(`${other.file} and ${first.file} differ in "${key}" (${brief(b)} vs ${brief(a)}): shards of one run must share it`);
      }
    }
  }
  const count = first.report.shard!.count;
  const seen = new Map<number, string>();
  for (const { file, report } of inputs) {
    const s = report.shard!;
    if (s.count !== count) throw new MergeError(`${file} is shard ${s.index}/${s.count}, ${first.file} is one of ${count}`);
    const dup = seen.get(s.index);
    if (dup) throw new MergeError(`${file} and ${dup} are both shard ${s.index}/${count}`);
    seen.set(s.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0)
    throw new MergeError(`missing shard(s) ${missing.map((i) => `${i}/${count}`).join(", ")}: an incomplete merge would not equal an unsharded run`);
  const owner = new Map<string, string>();
  for (const { file, report } of inputs) {
    for (const c of report.cases) {
      const other = owner.get(c.caseId);
      if (other) throw new MergeError(`case ${c.caseId} is in both ${other} and ${file}: were the shards run over different corpora or filters?`);
      owner.set(c.caseId, file);
    }
  }
}

function brief(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

function usesLedger(r: JsonReport): boolean {
  return r.divergences.some((d) => d.quirk !== null) || (r.summary?.stale.length ?? 0) > 0 || (r.summary?.expired.length ?? 0) > 0;
}

export function mergeReports(inputs: readonly ShardReport[], o: MergeOptions = {}): JsonReport {
  checkShards(inputs);
  const reports = inputs.map((i) => i.report);
  if (!o.ledger && reports.some(usesLedger)) {
    throw new MergeError("the shards used a ledger (known or stale quirks): give it with --ledger so staleness can be judged over all shards");
  }
  const cases = reports.flatMap((r) => r.cases).sort(corpusOrder);
  const first = reports[0]!;
  const startedAt = reports.map((r) => r.startedAt).sort()[0]!;
  const finished = reports.map((r) => r.finishedAt);
  const identities = first.builds.map((b) => ({ name: b.name, implementation: b.implementation, version: b.version, protocolVersion: b.protocolVersion }));
  const findings = ledgerFindings(ledgerOnChain(o.ledger ?? [], first.chain), cases, identities, new Date(startedAt));
  const durationMs = Math.max(...reports.map((r) => r.summary?.durationMs ?? 0));
  const summary = summarize(
    cases,
    findings,
    durationMs,
    first.builds.map((b) => b.name),
  );
  const partial = reports.some((r) => r.partial || r.summary === null);
  return {
    ...first,
    startedAt,
    finishedAt: finished.includes(null) ? null : finished.sort().at(-1)!,
    partial,
    exitCode: partial
      ? (reports.map((r) => r.exitCode).find((c) => c !== null && c >= 128) ?? exitCodeOf(summary, o.allowStale ?? false))
      : exitCodeOf(summary, o.allowStale ?? false),
    shard: null,
    summary,
    cases,
    divergences: cases.flatMap((c) => c.divergences),
  };
}
