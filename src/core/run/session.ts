// A whole run: open the builds' targets, resolve the chain's anchors, plan the corpus,
// run it, classify against the ledger, and feed one event stream to the reporters.
// Whatever happens (a build down, an interruption), the reporters still get run-end
// and write what there is.

import type { Case } from "../corpus/case.js";
import { withDynamic, type ChainProfile } from "../corpus/chain-profile.js";
import { classify } from "../ledger/classify.js";
import { ledgerFindings } from "../ledger/findings.js";
import type { Quirk } from "../ledger/quirk.js";
import { describeEndpoint, secretsOf, type Build, type RunConfig } from "../targets/config.js";
import { grpcTarget, type GrpcTarget } from "../targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../targets/jsonrpc.js";
import { jsonRpcOracle, type GrpcDeriver } from "../../zcash/oracle/source.js";
import { VERSION } from "../../version.js";
import type { BuildInfo, Reporter, RunEvent, RunSummary } from "../results/events.js";
import { planCases } from "./plan.js";
import { scrubber } from "./redact.js";
import type { CaseResult } from "../results/result.js";
import { REPORT_SCHEMA_VERSION } from "../results/result.js";
import { runCases, type Connections } from "./runner.js";
import { gatherStartupFacts, PreflightError } from "./startup.js";

export interface SessionOptions {
  config: RunConfig;
  cases: readonly Case[];
  chain: ChainProfile;
  ledger: readonly Quirk[];
  reporters: readonly Reporter[];
  /** Derivation of gRPC answers from the oracle (src/zcash/oracle). */
  deriveGrpc?: (oracle: JsonRpcTarget) => GrpcDeriver;
  allowStale?: boolean;
  signal?: AbortSignal;
  shard?: { index: number; count: number };
  caseConcurrency?: number;
  today?: Date;
  /** Compare answers with goldens recorded under this folder (golden/<chain>/<build>/…). */
  goldenRoot?: string;
  /** Send cases that carry a valid transaction; honoured only on a regtest chain. */
  allowBroadcast?: boolean;
  /** Go on when the preflight finds no reachable build or the wrong chain (it still reports it). */
  force?: boolean;
}

export interface SessionResult {
  results: CaseResult[];
  summary: RunSummary;
  exitCode: number;
  partial: boolean;
}

function openConnections(builds: readonly Build[]): Connections {
  const grpc = new Map<string, GrpcTarget>();
  const jsonrpc = new Map<string, JsonRpcTarget>();
  for (const b of builds) {
    if (b.grpc) grpc.set(b.name, grpcTarget(b.grpc));
    if (b.jsonrpc) jsonrpc.set(b.name, jsonRpcTarget(b.jsonrpc, { connections: b.concurrency }));
  }
  return { grpc, jsonrpc };
}

export function buildInfo(b: Build, protocolVersion: string | undefined): BuildInfo {
  return {
    name: b.name,
    implementation: b.implementation,
    ...(b.version ? { version: b.version } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    emulated: b.emulated,
    ...(b.profile ? { profile: b.profile } : {}),
    ...(b.grpc ? { grpc: describeEndpoint(b.grpc) } : {}),
    ...(b.jsonrpc ? { jsonrpc: describeEndpoint(b.jsonrpc) } : {}),
  };
}

export function summarize(results: readonly CaseResult[], findings: ReturnType<typeof ledgerFindings>, durationMs: number): RunSummary {
  const verdicts: Record<string, number> = {};
  let divergences = 0;
  let fresh = 0;
  for (const r of results) {
    if (r.verdict) verdicts[r.verdict.verdict] = (verdicts[r.verdict.verdict] ?? 0) + 1;
    divergences += r.divergences.length;
    fresh += r.divergences.filter((d) => d.quirk === null).length;
  }
  return {
    cases: results.length,
    skipped: results.filter((r) => r.skipped).length,
    verdicts,
    divergences,
    newDivergences: fresh,
    known: divergences - fresh,
    stale: findings.stale.map((s) => ({ quirk: s.quirk, reason: s.reason })),
    expired: findings.expired.map((e) => ({ quirk: e.quirk, expires: e.expires })),
    ...(results.some((r) => r.drift) ? {
      drifted: results.reduce((n, r) => n + (r.drift ?? []).filter((d) => d.status === "changed").length, 0),
      unrecorded: results.reduce((n, r) => n + (r.drift ?? []).filter((d) => d.status === "unrecorded").length, 0),
    } : {}),
    durationMs,
  };
}

/** 0 when every divergence is known; 1 for new divergences, drift, expired entries, or stale ones (unless allowed). */
export function exitCodeOf(s: RunSummary, allowStale: boolean): number {
  return s.newDivergences > 0 || (s.drifted ?? 0) > 0 || s.expired.length > 0 || (!allowStale && s.stale.length > 0) ? 1 : 0;
}

export async function runSession(o: SessionOptions): Promise<SessionResult> {
  const t0 = performance.now();
  // Reporters (and the results handed back) only ever see copies with secrets masked.
  const scrub = scrubber(secretsOf(o.config));
  const safeResults = new Map<CaseResult, CaseResult>();
  const emit = (e: RunEvent) => {
    const safe = scrub(e);
    o.reporters.forEach((r) => r.onEvent(safe));
  };
  const conns = openConnections(o.config.builds);
  // The oracle gets the run's default deadline; its body limit stays the client's, which
  // is above Zebra's own 50 MiB response cap.
  const oracleTarget = o.config.oracle ? jsonRpcTarget(o.config.oracle.jsonrpc, { deadlineMs: o.config.defaults.deadlineMs }) : undefined;
  try {
    const facts = await gatherStartupFacts({
      builds: o.config.builds, grpc: conns.grpc, jsonrpc: conns.jsonrpc,
      ...(oracleTarget ? { oracle: { target: oracleTarget, limits: { deadlineMs: o.config.defaults.deadlineMs } } } : {}),
      network: o.chain.network, needTip: Object.keys(o.chain.dynamic).length > 0,
    });
    const { tip, protocolVersions: versions, preflight } = facts;
    if (preflight.problems.length > 0) {
      if (!o.force) throw new PreflightError(preflight);
      preflight.forced = true;
    }
    const anchors = tip ? withDynamic(o.chain, tip) : o.chain.anchors;
    const planned = planCases(o.cases, anchors, o.chain.name);
    const builds = o.config.builds.map((b) => buildInfo(b, versions.get(b.name)));
    emit({
      type: "run-start", schemaVersion: REPORT_SCHEMA_VERSION, tool: { name: "zconform", version: VERSION },
      startedAt: new Date().toISOString(), chain: o.chain.name, builds,
      ...(o.config.oracle ? { oracle: describeEndpoint(o.config.oracle.jsonrpc) } : {}),
      cases: planned.length, ...(o.shard ? { shard: o.shard } : {}), preflight,
    });
    const byName = new Map(o.config.builds.map((b) => [b.name, b]));
    const identity = (b: Build) => ({ name: b.name, implementation: b.implementation, version: b.version, protocolVersion: versions.get(b.name) });
    const { results, partial } = await runCases(planned, {
      builds: o.config.builds,
      connections: conns,
      ...(oracleTarget ? { oracle: jsonRpcOracle(oracleTarget, o.deriveGrpc?.(oracleTarget)) } : {}),
      classify: (d, b, c) => classify(o.ledger, d, { caseId: c.id, method: c.method, transport: c.transport }, identity(byName.get(b.name)!)),
      protocolVersions: versions,
      caseConcurrency: o.caseConcurrency,
      signal: o.signal,
      allowBroadcast: o.allowBroadcast === true && o.chain.network === "regtest",
      ...(o.goldenRoot ? { golden: { root: o.goldenRoot, chain: o.chain.name } } : {}),
      onResult: (result, done, total, index) => {
        const safe = scrub(result);
        safeResults.set(result, safe);
        o.reporters.forEach((r) => r.onEvent({ type: "case-result", result: safe, done, total, index }));
      },
    });
    const findings = ledgerFindings(o.ledger, results, o.config.builds.map(identity), o.today);
    const summary = summarize(results, findings, performance.now() - t0);
    // A shard cannot tell stale entries: the cases that show one may be in another
    // shard. `zconform merge` judges staleness over all shards.
    const exitCode = exitCodeOf(summary, (o.allowStale ?? false) || o.shard !== undefined);
    emit({ type: "run-end", summary, partial, finishedAt: new Date().toISOString(), exitCode });
    return { results: results.map((r) => safeResults.get(r) ?? scrub(r)), summary: scrub(summary), exitCode, partial };
  } finally {
    await Promise.all([...conns.grpc.values()].map((t) => t.close()));
    await Promise.all([...conns.jsonrpc.values()].map((t) => t.close()));
    await oracleTarget?.close();
    for (const r of o.reporters) await r.finish();
  }
}
