// A whole run: open the builds' targets, resolve the chain's anchors, plan the corpus,
// run it, classify against the ledger, and feed one event stream to the reporters.
// Whatever happens (a build down, an interruption), the reporters still get run-end
// and write what there is.

import type { Case } from "../corpus/case.js";
import { needsLive, unlearntAnchors, withDynamic, type ChainProfile } from "../corpus/chain-profile.js";
import { classify, type BuildIdentity } from "../ledger/classify.js";
import { ledgerFindings } from "../ledger/findings.js";
import { ledgerOnChain, type Quirk } from "../ledger/quirk.js";
import { DEFAULT_MAX_RUN_BYTES, describeEndpoint, secretsOf, type Build, type JsonRpcEndpoint, type RunConfig } from "../targets/config.js";
import { grpcTarget, type GrpcTarget } from "../targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../targets/jsonrpc.js";
import { byteBudget, type ByteBudget } from "./limit.js";
import { budgetedGrpc, budgetedJsonRpc } from "./run-bytes.js";
import { DEFAULT_UNRESPONSIVE_AFTER, responsiveGrpc, responsiveJsonRpc } from "./unresponsive.js";
import { VERSION } from "../../version.js";
import type { BuildInfo, Reporter, RunEvent, RunSummary } from "../results/events.js";
import { planCase, planCases, type PlannedCase } from "./plan.js";
import { scrubber } from "./redact.js";
import { redactBytes, redactForms, secretForms } from "../targets/secrets.js";
import { serversForbidBroadcast } from "./broadcast.js";
import { DEFAULT_KEEPING } from "../results/bound.js";
import type { CaseResult, Drift } from "../results/result.js";
import { slimResult } from "../results/slim.js";
import { REPORT_SCHEMA_VERSION } from "../results/result.js";
import type { Protocol } from "./protocol.js";
import { runCases, type Connections } from "./runner.js";
import { lagFigures, type ChainTip, type MotionOptions } from "./moving-chain.js";
import { OUTCOME_KINDS, outcomesWithDrift, type OutcomeKind } from "../results/outcome.js";
import { uncheckedSides } from "../results/unchecked.js";
import { runConditions } from "../targets/conditions.js";
import { settlePreflight } from "./preflight.js";
import { knownBuilds } from "./known-builds.js";
import type { CaseRef } from "../ledger/findings.js";

export interface SessionOptions {
  config: RunConfig;
  cases: readonly Case[];
  /** Cases of the corpus that --case or --method left out: ledger entries covering one are not judged stale. */
  leftOut?: readonly CaseRef[];
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
  /** Exit 1 also on an unjudged answer, or when the run has no oracle (`--strict`). */
  strict?: boolean;
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
    // The build's limits are the targets' defaults, so startup calls keep them too. A
    // call to a build found unresponsive is not sent: it neither waits for the byte
    // budget nor holds any of it.
    const limits = { deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, maxCallBytes: b.maxCallBytes };
    const after = b.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER;
    if (b.grpc)
      grpc.set(b.name, responsiveGrpc(budgetedGrpc(grpcTarget(b.grpc, { ...limits, maxMessages: b.maxStreamMessages }), budget, limits), after, b.deadlineMs));
    if (b.jsonrpc)
      jsonrpc.set(
        b.name,
        responsiveJsonRpc(budgetedJsonRpc(jsonRpcTarget(b.jsonrpc, { ...limits, connections: b.concurrency }), budget, limits), after, b.deadlineMs),
      );
  }
  return { grpc, jsonrpc };
}

/** A node the run measures against: the run's default deadline and unresponsive rule, the client's own body limit. */
function nodeTarget(node: { jsonrpc: JsonRpcEndpoint }, defaults: RunConfig["defaults"], budget: ByteBudget): JsonRpcTarget {
  // A node keeps the run's limits as builds do: a body over maxMessageBytes is cut there.
  const target = jsonRpcTarget(node.jsonrpc, { deadlineMs: defaults.deadlineMs, maxMessageBytes: defaults.maxMessageBytes });
  const budgeted = budgetedJsonRpc(target, budget, { maxMessageBytes: defaults.maxMessageBytes, maxCallBytes: defaults.maxCallBytes });
  return responsiveJsonRpc(budgeted, defaults.unresponsiveAfter ?? DEFAULT_UNRESPONSIVE_AFTER, defaults.deadlineMs);
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

export function summarize(
  results: readonly CaseResult[],
  findings: ReturnType<typeof ledgerFindings>,
  durationMs: number,
  builds: readonly string[],
): RunSummary {
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
    ...(results.some((r) => r.drift)
      ? {
          drifted: results.reduce((n, r) => n + (r.drift ?? []).filter((d) => d.status === "changed").length, 0),
          unrecorded: results.reduce((n, r) => n + (r.drift ?? []).filter((d) => d.status === "unrecorded").length, 0),
        }
      : {}),
    durationMs,
  };
}

/**
 * How long a run waits for its builds to serve a tip the node moved to during the run
 * (lightwalletd and Zaino poll their node every few seconds; a build still behind after
 * this is judged as it answers), and how many times a case is asked again: a block every
 * few seconds on a loaded machine can move through two attempts in a row.
 */
const CHAIN_MOTION = { settleMs: 30_000, retries: 5 } as const;

/** Exit codes of run, demo and record (README, "Exit codes"). */
export const EXIT = { ok: 0, findings: 1, usage: 2, unchecked: 3, sigint: 130, sigterm: 143 } as const;

/**
 * 0 when every divergence is known; 1 for new divergences, drift, expired entries, or
 * stale ones (unless allowed); 3 when any build or the oracle could not be checked on
 * some case, whatever else was found: the run does not know what it did not see. With
 * `strict`, also 1 for an unjudged answer or a run without an oracle.
 */
export function exitCodeOf(s: RunSummary, allowStale: boolean, strict?: { oracle: boolean }): number {
  if ((s.outcomes?.unchecked ?? 0) > 0) return EXIT.unchecked;
  // Strict (--strict): what was measured against nothing fails too.
  const unmeasured = strict !== undefined && (!strict.oracle || (s.outcomes?.unjudged ?? 0) > 0);
  return unmeasured || s.newDivergences > 0 || (s.drifted ?? 0) > 0 || s.expired.length > 0 || (!allowStale && s.stale.length > 0) ? EXIT.findings : EXIT.ok;
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
  // An answer whose every divergence is an intermittent quirk (a cold cache after a start)
  // is not the steady answer a golden holds: it is not compared with it.
  const intermittent = new Set(ledger.filter((q) => q.intermittent !== undefined).map((q) => q.id));
  const onlyIntermittent = (r: CaseResult, build: string) => {
    const ds = r.divergences.filter((d) => d.build === build);
    return ds.length > 0 && ds.every((d) => d.quirk !== null && intermittent.has(d.quirk));
  };
  const withDrift = (r: CaseResult): CaseResult => {
    if (!o.drift || r.skipped) return r;
    const drift = o.drift(r).filter((d) => !onlyIntermittent(r, d.build));
    return { ...r, drift, outcomes: r.outcomes && outcomesWithDrift(r.outcomes, drift) };
  };
  const emit = (e: RunEvent) => {
    const safe = scrub(e);
    o.reporters.forEach((r) => r.onEvent(safe));
  };
  const budget = byteBudget(o.config.maxRunBytes ?? DEFAULT_MAX_RUN_BYTES);
  const conns = openConnections(o.config.builds, budget);
  const oracleTarget = o.config.oracle ? nodeTarget(o.config.oracle, o.config.defaults, budget) : undefined;
  const unknownNode = o.config.builds.find((b) => b.oracle !== undefined && !o.config.nodeOracles?.[b.oracle]);
  if (unknownNode) throw new Error(`build ${unknownNode.name} is backed by node ${JSON.stringify(unknownNode.oracle)}, which the run's config does not name`);
  const nodeTargets = new Map(Object.entries(o.config.nodeOracles ?? {}).map(([name, n]) => [name, nodeTarget(n, o.config.defaults, budget)]));
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
      connections: conns,
      builds: o.config.builds,
      network: o.chain.network,
      ...(o.chain.chainName ? { chainName: o.chain.chainName } : {}),
      needTip: Object.keys(o.chain.dynamic).length > 0 || o.chain.discover === true,
      needMempoolTxid: needsLive(o.chain, "mempool_txid"),
      ...(o.chain.discover ? { discover: { anchors: o.chain.anchors } } : {}),
    };
    const { tip, mempoolTxid, protocolVersions: versions, preflight, servers, anchors: discovered, anchorsUnread } = await o.protocol.startFacts(startInput);
    // A config problem stops the run; a server it could not reach answers every case with that (preflight.ts).
    const sent = await settlePreflight(preflight, {
      connections: conns,
      ...(oracleTarget ? { oracle: oracleTarget } : {}),
      force: o.force === true,
      interrupted: o.signal?.aborted === true,
    });
    const broadcastRefused =
      o.allowBroadcast === true && o.chain.network === "regtest" ? serversForbidBroadcast(await o.protocol.serverChains(startInput)) : undefined;
    const live = { ...(tip ? { tip } : {}), ...(mempoolTxid ? { mempoolTxid } : {}), ...(discovered ? { anchors: discovered } : {}) };
    const planned = planCases(o.cases, withDynamic(o.chain, live), o.chain.name, o.protocol, unlearntAnchors(o.chain, live));
    const known = knownBuilds(o.config.builds, servers);
    const builds = o.config.builds.map((b) => ({ ...buildInfo(b, versions.get(b.name), o.config.nodeOracles), ...known.get(b.name)!.info }));
    emit({
      type: "run-start",
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: "zconform", version: VERSION },
      startedAt: new Date().toISOString(),
      chain: o.chain.name,
      builds,
      ...(o.config.oracle ? { oracle: describeEndpoint(o.config.oracle.jsonrpc) } : {}),
      conditions: [
        ...runConditions(o.config),
        ...[...known.values()].flatMap((k) => k.condition ?? []),
        ...(anchorsUnread
          ? [
              {
                kind: "anchors-unread" as const,
                side: "run",
                detail: `the chain's anchors could not be read: ${anchorsUnread}; cases that need them are skipped`,
              },
            ]
          : []),
      ],
      cases: planned.length,
      ...(o.shard ? { shard: o.shard } : {}),
      preflight,
    });
    const byName = new Map(o.config.builds.map((b) => [b.name, b]));
    // Any chain may move while the run asks: a diverging case is asked again once the builds serve the node's new tip.
    const motion: MotionOptions | undefined =
      sent.oracle && tip && o.protocol.tips
        ? {
            tips: o.protocol.tips(sent.oracle, sent.connections),
            startTip: tip,
            ...CHAIN_MOTION,
            replan: (pc: PlannedCase, at: ChainTip) =>
              planCase(pc.case, withDynamic(o.chain, { ...live, tip: at }), o.chain.name, o.protocol, unlearntAnchors(o.chain, live)),
          }
        : undefined;
    const identity = (b: Build): BuildIdentity => ({ ...known.get(b.name)!.identity, protocolVersion: versions.get(b.name) });
    const run = await runCases(planned, {
      protocol: o.protocol,
      builds: o.config.builds,
      connections: sent.connections,
      ...(sent.oracle ? { oracle: o.protocol.oracle(sent.oracle) } : {}),
      ...(nodeTargets.size > 0 ? { nodeOracles: new Map([...nodeTargets].map(([n, t]) => [n, o.protocol.oracle(t)])) } : {}),
      classify: (d, b, c) => classify(ledger, d, { caseId: c.id, method: c.method, transport: c.transport }, identity(byName.get(b.name)!)),
      protocolVersions: versions,
      caseConcurrency: o.caseConcurrency,
      signal: o.signal,
      allowBroadcast: o.allowBroadcast === true && o.chain.network === "regtest" && broadcastRefused === undefined,
      ...(broadcastRefused ? { broadcastRefused } : {}),
      ...(motion ? { motion } : {}),
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
    const all = ledgerFindings(ledger, results, o.config.builds.map(identity), o.today, o.leftOut);
    // An interrupted run cannot tell a stale entry: the cases that show it may not have run.
    const findings = partial ? { ...all, stale: [] } : all;
    const reasked = results.filter((r) => r.reasked).length;
    const unsettled = results.filter((r) => r.reasked?.unsettled).length;
    const summary: RunSummary = {
      ...summarize(
        results,
        findings,
        performance.now() - t0,
        o.config.builds.map((b) => b.name),
      ),
      ...(reasked > 0 || run.lag.size > 0 ? { chainMotion: { reasked, ...(unsettled > 0 ? { unsettled } : {}), lag: lagFigures(run.lag) } } : {}),
    };
    // A shard cannot tell stale entries: the cases that show one may be in another
    // shard. `zconform merge` judges staleness over all shards.
    const interrupted = partial ? interruption(o.signal) : undefined;
    const exitCode =
      interrupted?.exitCode ??
      exitCodeOf(summary, (o.allowStale ?? false) || o.shard !== undefined, o.strict ? { oracle: o.config.oracle !== undefined } : undefined);
    emit({ type: "run-end", summary, partial, finishedAt: new Date().toISOString(), exitCode, ...(interrupted ? { interrupted: interrupted.signal } : {}) });
    return { results: safeResults.filter((r) => r !== undefined), summary: scrub(summary), exitCode, partial };
  } finally {
    // Closing is bounded (a server that never answers the goodbye is cut off), and an
    // interruption while it runs still cuts every connection at once.
    await Promise.all([
      ...[...conns.grpc.values()].map((t) => t.close()),
      ...[...conns.jsonrpc.values()].map((t) => t.close()),
      oracleTarget?.close(),
      ...[...nodeTargets.values()].map((t) => t.close()),
    ]);
    o.signal?.removeEventListener("abort", abortAll);
    // Each reporter writes its file whatever happened to the others.
    const failed: string[] = [];
    for (const r of o.reporters) {
      try {
        await r.finish();
      } catch (e) {
        failed.push(scrub((e as Error).message ?? String(e)));
      }
    }
    // biome-ignore lint/correctness/noUnsafeFinally: a report not written is the outcome callers must see, after every reporter has had its turn
    if (failed.length > 0) throw new ReportWriteError(failed);
  }
}

/** Reports that could not be written; the others were. */
export class ReportWriteError extends Error {
  constructor(readonly failures: string[]) {
    super(failures.map((f) => `report not written: ${f}`).join("\n"));
  }
}
