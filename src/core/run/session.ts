// A whole run: open the builds' targets, resolve the chain's anchors, plan the corpus,
// run it, classify against the ledger, and feed one event stream to the reporters.
// Whatever happens (a build down, an interruption), the reporters still get run-end
// and write what there is.

import type { Case } from "../corpus/case.js";
import { needsLive, unlearntAnchors, withDynamic, type ChainProfile } from "../corpus/chain-profile.js";
import { classify } from "../ledger/classify.js";
import { ledgerFindings } from "../ledger/findings.js";
import { ledgerOnChain, type Quirk } from "../ledger/quirk.js";
import { DEFAULT_MAX_RUN_BYTES, describeEndpoint, secretsOf, type Build, type RunConfig } from "../targets/config.js";
import { grpcTarget, type GrpcTarget } from "../targets/grpc.js";
import { DEFAULT_JSONRPC_MAX_BYTES, jsonRpcTarget, type JsonRpcTarget } from "../targets/jsonrpc.js";
import { byteBudget, type ByteBudget } from "./limit.js";
import { budgetedGrpc, budgetedJsonRpc } from "./run-bytes.js";
import { VERSION } from "../../version.js";
import type { BuildInfo, Reporter, RunEvent, RunSummary } from "../results/events.js";
import { planCases } from "./plan.js";
import { scrubber } from "./redact.js";
import { redactBytes, redactForms, secretForms } from "../targets/secrets.js";
import { serversForbidBroadcast } from "./broadcast.js";
import { DEFAULT_KEEPING } from "../results/bound.js";
import type { CaseResult, Drift } from "../results/result.js";
import { slimResult } from "../results/slim.js";
import { REPORT_SCHEMA_VERSION } from "../results/result.js";
import type { Protocol } from "./protocol.js";
import { runCases, type Connections } from "./runner.js";
import { OUTCOME_KINDS, outcomesWithDrift, type OutcomeKind } from "../results/outcome.js";
import { uncheckedSides } from "../results/unchecked.js";
import { runConditions } from "../targets/conditions.js";
import { PreflightError } from "./preflight.js";

export interface SessionOptions {
  config: RunConfig;
  cases: readonly Case[];
  chain: ChainProfile;
  ledger: readonly Quirk[];
  reporters: readonly Reporter[];
  /** The protocol the builds serve (src/zcash/protocol.ts for lightwallet servers). */
  protocol: Protocol;
  allowStale?: boolean;
  /**
   * Interrupts the run: no new case starts, calls in flight are cut at once, and the
   * reports are written with what finished. Its reason may carry `{ signal, exitCode }`.
   */
  signal?: AbortSignal;
  shard?: { index: number; count: number };
  caseConcurrency?: number;
  today?: Date;
  /** Each judged case's answers against their recorded goldens (src/modes/golden). */
  drift?: (r: CaseResult) => Drift[];
  /** Send cases that carry a valid transaction; honoured only on a regtest chain. */
  allowBroadcast?: boolean;
  /** Write the whole bytes of answers too large to keep in results to this folder. */
  spillDir?: string;
  /** Keep every answer whole, however large (goldens need the bytes; the calls' limits still hold). */
  wholeAnswers?: boolean;
  /** Go on when the preflight finds no reachable build or the wrong chain (it still reports it). */
  force?: boolean;
  /**
   * Hand every result back at the end (default). false: only the reporters get them
   * (`results` is empty), so the run does not hold every answer of every case for a
   * caller that reads only the exit code.
   */
  collect?: boolean;
}

export interface SessionResult {
  results: CaseResult[];
  summary: RunSummary;
  exitCode: number;
  partial: boolean;
}

function openConnections(builds: readonly Build[], budget: ByteBudget): Connections {
  const grpc = new Map<string, GrpcTarget>();
  const jsonrpc = new Map<string, JsonRpcTarget>();
  for (const b of builds) {
    // The build's limits are the targets' defaults, so startup calls keep them too.
    const limits = { deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, maxCallBytes: b.maxCallBytes };
    if (b.grpc) grpc.set(b.name, budgetedGrpc(grpcTarget(b.grpc, { ...limits, maxMessages: b.maxStreamMessages }), budget, limits));
    if (b.jsonrpc) jsonrpc.set(b.name, budgetedJsonRpc(jsonRpcTarget(b.jsonrpc, { ...limits, connections: b.concurrency }), budget, limits));
  }
  return { grpc, jsonrpc };
}

/** A build as reports show it; `nodes` describes the node it is measured against when that is not the run's oracle. */
export function buildInfo(b: Build, protocolVersion: string | undefined, nodes?: RunConfig["nodeOracles"]): BuildInfo {
  const node = b.oracle !== undefined ? nodes?.[b.oracle] : undefined;
  return {
    name: b.name,
    implementation: b.implementation,
    ...(b.version ? { version: b.version } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    emulated: b.emulated,
    ...(b.profile ? { profile: b.profile } : {}),
    ...(b.pin ? { pin: b.pin } : {}),
    ...(b.grpc ? { grpc: describeEndpoint(b.grpc) } : {}),
    ...(b.jsonrpc ? { jsonrpc: describeEndpoint(b.jsonrpc) } : {}),
    ...(b.oracle !== undefined ? { oracle: node ? `${b.oracle} ${describeEndpoint(node.jsonrpc)}` : b.oracle } : {}),
  };
}

export function summarize(results: readonly CaseResult[], findings: ReturnType<typeof ledgerFindings>, durationMs: number, builds: readonly string[]): RunSummary {
  const verdicts: Record<string, number> = {};
  const outcomes = Object.fromEntries(OUTCOME_KINDS.map((k) => [k, 0])) as Record<OutcomeKind, number>;
  let divergences = 0;
  let fresh = 0;
  for (const r of results) {
    if (r.verdict) verdicts[r.verdict.verdict] = (verdicts[r.verdict.verdict] ?? 0) + 1;
    for (const o of r.outcomes ?? []) outcomes[o.outcome]++;
    divergences += r.divergences.length;
    fresh += r.divergences.filter((d) => d.quirk === null).length;
  }
  return {
    cases: results.length,
    skipped: results.filter((r) => r.skipped).length,
    verdicts,
    outcomes,
    unchecked: uncheckedSides(results, builds),
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

/** Exit codes of run, demo and record (README, "Exit codes"). */
export const EXIT = { ok: 0, findings: 1, usage: 2, unchecked: 3, sigint: 130, sigterm: 143 } as const;

/**
 * 0 when every divergence is known; 1 for new divergences, drift, expired entries, or
 * stale ones (unless allowed); 3 when any build or the oracle could not be checked on
 * some case, whatever else was found: the run does not know what it did not see.
 */
export function exitCodeOf(s: RunSummary, allowStale: boolean): number {
  if ((s.outcomes?.unchecked ?? 0) > 0) return EXIT.unchecked;
  return s.newDivergences > 0 || (s.drifted ?? 0) > 0 || s.expired.length > 0 || (!allowStale && s.stale.length > 0) ? EXIT.findings : EXIT.ok;
}

/** The signal and exit code an interruption carries, from the abort reason. */
export function interruption(signal: AbortSignal | undefined): { signal: string; exitCode: number } | undefined {
  if (!signal?.aborted) return undefined;
  const r = signal.reason as { signal?: unknown; exitCode?: unknown } | undefined;
  return {
    signal: typeof r?.signal === "string" ? r.signal : "abort",
    exitCode: typeof r?.exitCode === "number" ? r.exitCode : EXIT.sigint,
  };
}

export async function runSession(o: SessionOptions): Promise<SessionResult> {
  const t0 = performance.now();
  const ledger = ledgerOnChain(o.ledger, o.chain.name);
  // Reporters (and the results handed back) only ever see copies with secrets masked.
  const secrets = secretsOf(o.config);
  const forms = secretForms(secrets);
  const scrub = scrubber(secrets);
  // Per plan index: the masked result (what reporters and the caller get, unless it
  // does not collect them), and the same result slimmed (results/slim.ts), which is all
  // the ledger and the summary read: the whole answers are held once at most, not once
  // as judged and again as masked.
  const safeResults: CaseResult[] = [];
  const judged: CaseResult[] = [];
  // Drift is judged after the case, against the answers the runner kept.
  const withDrift = (r: CaseResult): CaseResult => {
    if (!o.drift || r.skipped) return r;
    const drift = o.drift(r);
    return { ...r, drift, outcomes: r.outcomes && outcomesWithDrift(r.outcomes, drift) };
  };
  const emit = (e: RunEvent) => {
    const safe = scrub(e);
    o.reporters.forEach((r) => r.onEvent(safe));
  };
  const budget = byteBudget(o.config.maxRunBytes ?? DEFAULT_MAX_RUN_BYTES);
  const conns = openConnections(o.config.builds, budget);
  // The oracle gets the run's default deadline; its body limit stays the client's, which
  // is above Zebra's own 50 MiB response cap.
  const oracleTarget = o.config.oracle
    ? budgetedJsonRpc(jsonRpcTarget(o.config.oracle.jsonrpc, { deadlineMs: o.config.defaults.deadlineMs }), budget,
      { maxMessageBytes: DEFAULT_JSONRPC_MAX_BYTES, maxCallBytes: DEFAULT_JSONRPC_MAX_BYTES })
    : undefined;
  const unknownNode = o.config.builds.find((b) => b.oracle !== undefined && !o.config.nodeOracles?.[b.oracle]);
  if (unknownNode) throw new Error(`build ${unknownNode.name} is backed by node ${JSON.stringify(unknownNode.oracle)}, which the run's config does not name`);
  const nodeTargets = new Map(Object.entries(o.config.nodeOracles ?? {}).map(([name, n]) => [name,
    budgetedJsonRpc(jsonRpcTarget(n.jsonrpc, { deadlineMs: o.config.defaults.deadlineMs }), budget,
      { maxMessageBytes: DEFAULT_JSONRPC_MAX_BYTES, maxCallBytes: DEFAULT_JSONRPC_MAX_BYTES })]));
  // An interruption cuts every call in flight at once (they resolve with a fault, and
  // the cases they belong to are dropped as unfinished) instead of waiting for deadlines.
  const abortAll = () => {
    for (const t of conns.grpc.values()) t.abort();
    // Tearing down a connection pool can only fail if it is already gone.
    for (const t of conns.jsonrpc.values()) t.abort().catch(() => undefined);
    oracleTarget?.abort().catch(() => undefined);
    for (const t of nodeTargets.values()) t.abort().catch(() => undefined);
  };
  if (o.signal?.aborted) abortAll();
  o.signal?.addEventListener("abort", abortAll, { once: true });
  try {
    const startInput = {
      ...(oracleTarget ? { oracle: oracleTarget, oracleDeadlineMs: o.config.defaults.deadlineMs } : {}),
      connections: conns, builds: o.config.builds, network: o.chain.network, ...(o.chain.chainName ? { chainName: o.chain.chainName } : {}), needTip: Object.keys(o.chain.dynamic).length > 0, needMempoolTxid: needsLive(o.chain, "mempool_txid"),
    };
    const { tip, mempoolTxid, protocolVersions: versions, preflight } = await o.protocol.startFacts(startInput);
    // Interrupted during the preflight, the run ends as interrupted, not as a failed preflight.
    if (preflight.problems.length > 0 && !o.signal?.aborted) {
      if (!o.force) throw new PreflightError(preflight);
      preflight.forced = true;
    }
    const broadcastRefused = o.allowBroadcast === true && o.chain.network === "regtest"
      ? serversForbidBroadcast(await o.protocol.serverChains(startInput))
      : undefined;
    const live = { ...(tip ? { tip } : {}), ...(mempoolTxid ? { mempoolTxid } : {}) };
    const planned = planCases(o.cases, withDynamic(o.chain, live), o.chain.name, o.protocol, unlearntAnchors(o.chain, live));
    const builds = o.config.builds.map((b) => buildInfo(b, versions.get(b.name), o.config.nodeOracles));
    emit({
      type: "run-start", schemaVersion: REPORT_SCHEMA_VERSION, tool: { name: "zconform", version: VERSION },
      startedAt: new Date().toISOString(), chain: o.chain.name, builds,
      ...(o.config.oracle ? { oracle: describeEndpoint(o.config.oracle.jsonrpc) } : {}),
      conditions: runConditions(o.config),
      cases: planned.length, ...(o.shard ? { shard: o.shard } : {}), preflight,
    });
    const byName = new Map(o.config.builds.map((b) => [b.name, b]));
    const identity = (b: Build) => ({ name: b.name, implementation: b.implementation, version: b.version, protocolVersion: versions.get(b.name) });
    const run = await runCases(planned, {
      protocol: o.protocol,
      builds: o.config.builds,
      connections: conns,
      ...(oracleTarget ? { oracle: o.protocol.oracle(oracleTarget) } : {}),
      ...(nodeTargets.size > 0 ? { nodeOracles: new Map([...nodeTargets].map(([n, t]) => [n, o.protocol.oracle(t)])) } : {}),
      classify: (d, b, c) => classify(ledger, d, { caseId: c.id, method: c.method, transport: c.transport }, identity(byName.get(b.name)!)),
      protocolVersions: versions,
      caseConcurrency: o.caseConcurrency,
      signal: o.signal,
      allowBroadcast: o.allowBroadcast === true && o.chain.network === "regtest" && broadcastRefused === undefined,
      ...(broadcastRefused ? { broadcastRefused } : {}),
      keep: {
        ...DEFAULT_KEEPING,
        ...(o.wholeAnswers || o.drift ? { inlineBytes: Number.MAX_SAFE_INTEGER } : {}),
        ...(o.spillDir ? { spillDir: o.spillDir } : {}),
        ...(forms.length > 0 ? { maskBytes: (b: Buffer) => redactBytes(b, forms), maskText: (t: string) => redactForms(t, forms) } : {}),
      },
      onResult: (raw, done, total, index) => {
        const result = withDrift(raw);
        judged[index] = slimResult(result);
        const safe = scrub(result);
        if (o.collect !== false) safeResults[index] = safe;
        o.reporters.forEach((r) => r.onEvent({ type: "case-result", result: safe, done, total, index }));
      },
      collect: false,
    });
    const { partial } = run;
    const results = judged.filter((r) => r !== undefined);
    const all = ledgerFindings(ledger, results, o.config.builds.map(identity), o.today);
    // An interrupted run cannot tell a stale entry: the cases that show it may not have run.
    const findings = partial ? { ...all, stale: [] } : all;
    const summary = summarize(results, findings, performance.now() - t0, o.config.builds.map((b) => b.name));
    // A shard cannot tell stale entries: the cases that show one may be in another
    // shard. `zconform merge` judges staleness over all shards.
    const interrupted = partial ? interruption(o.signal) : undefined;
    const exitCode = interrupted?.exitCode ?? exitCodeOf(summary, (o.allowStale ?? false) || o.shard !== undefined);
    emit({ type: "run-end", summary, partial, finishedAt: new Date().toISOString(), exitCode, ...(interrupted ? { interrupted: interrupted.signal } : {}) });
    return { results: safeResults.filter((r) => r !== undefined), summary: scrub(summary), exitCode, partial };
  } finally {
    o.signal?.removeEventListener("abort", abortAll);
    await Promise.all([...conns.grpc.values()].map((t) => t.close()));
    await Promise.all([...conns.jsonrpc.values()].map((t) => t.close()));
    await oracleTarget?.close();
    await Promise.all([...nodeTargets.values()].map((t) => t.close()));
    // Each reporter writes its file whatever happened to the others.
    const failed: string[] = [];
    for (const r of o.reporters) {
      try {
        await r.finish();
      } catch (e) {
        failed.push(scrub((e as Error).message ?? String(e)));
      }
    }
    if (failed.length > 0) throw new ReportWriteError(failed);
  }
}

/** Reports that could not be written; the others were. */
export class ReportWriteError extends Error {
  constructor(readonly failures: string[]) {
    super(failures.map((f) => `report not written: ${f}`).join("\n"));
  }
}
