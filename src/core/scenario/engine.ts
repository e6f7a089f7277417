// Runs one scenario: each step's action (through the chain mover, or on held streams),
// then its checks, all at once, each polled until the builds converge on the oracle's
// answer or its deadline passes. Tip events go to the tip watch as they happen.
// Protocol-agnostic: the chain moves through a ChainMover, tips are read through a probe.

import type { ChainProfile } from "../corpus/chain-profile.js";
import type { Anchors } from "../corpus/anchors.js";
import { limiter, type Limiter } from "../run/limit.js";
import { planCase, type GrpcPlannedRequest, type PlannedCase } from "../run/plan.js";
import type { Protocol } from "../run/protocol.js";
import { runCase, type Classifier, type Connections, type OracleSource, type RunOptions } from "../run/runner.js";
import type { Build } from "../targets/config.js";
import type { GrpcCallObservation, GrpcTarget } from "../targets/grpc.js";
import type { Observation } from "../targets/observation.js";
import { converge } from "./converge.js";
import { holdStream, type HeldCall } from "./held.js";
import type { ChainMover, TipId } from "./mover.js";
import type { ActionRecord, BuildTime, CheckRecord, ScenarioRecord, StepRecord } from "./record.js";
import type { Action, Check, Scenario, Step } from "./scenario.js";
import { watchTips, type TipProbe, type TipWatch } from "./tip-watch.js";
import { afterArrived } from "../targets/client-clock.js";

export interface ScenarioEnv {
  protocol: Protocol;
  builds: readonly Build[];
  /** The builds' targets, opened by the caller. */
  connections: Connections;
  /**
   * A fresh oracle: one is made for every poll, since an oracle may keep what it derived
   * for a chain that does not move (a block by hash, a mined transaction).
   */
  oracle: () => OracleSource;
  /** The chain's fixed anchors; the scenario adds the tip and what it made (anchors below). */
  chain: ChainProfile;
  mover: ChainMover;
  probe: TipProbe;
  classify?: Classifier;
  protocolVersions?: ReadonlyMap<string, string>;
  /** How often an unconverged check is asked again; default 25 ms. */
  pollMs?: number;
  /** How often a build that lags the node is asked for its tip; default 5 ms. */
  probeMs?: number;
  /** Each step as it finishes. */
  onStep?: (step: StepRecord) => void;
  /** Stops the scenario where it stands (Ctrl-C): its record ends with the steps that finished. */
  signal?: AbortSignal;
}

/** What a scenario stopped by its signal records as its error. */
export function interruptedBy(signal: AbortSignal): string {
  const r = signal.reason as { signal?: unknown } | undefined;
  return `interrupted by ${typeof r?.signal === "string" ? r.signal : "abort"}`;
}

/** `work`, or a rejection as soon as the signal fires (what `work` still does is left to the caller's cleanup). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Error(interruptedBy(signal)));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Error(interruptedBy(signal)));
    signal.addEventListener("abort", stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

/**
 * The anchors a scenario adds to its chain's: `tip`, `tip_hash`; after a reorganization
 * `fork_point`, `orphaned_first_hash`, `orphaned_tip_hash`; `tx_<name>` for each sent
 * transaction (its display-order txid).
 */
function tipAnchors(tip: TipId): Record<string, number | string> {
  return { tip: tip.height, tip_hash: tip.hash };
}

interface Held {
  pc: PlannedCase;
  calls: HeldCall[];
  /** The oracle's answer the stream is judged against, and whether the tip has moved since (then it is kept). */
  expected: Observation | undefined;
  frozenAt: number | undefined;
}

export async function runScenario(s: Scenario, env: ScenarioEnv): Promise<ScenarioRecord> {
  const t0 = performance.now();
  const grpcBuilds = env.builds.filter((b) => b.grpc);
  const watch = watchTips(
    grpcBuilds.map((b) => b.name),
    env.probe,
    env.probeMs ?? 5,
  );
  const limits = new Map(env.builds.map((b) => [b.name, limiter(b.concurrency)]));
  const made: Record<string, number | string> = {};
  const held = new Map<string, Held>();
  const steps: StepRecord[] = [];
  let error: string | undefined;
  try {
    if (env.signal?.aborted) throw new Error(interruptedBy(env.signal));
    await env.mover.reset();
    const start = await env.mover.tip();
    watch.baseline(start);
    Object.assign(made, tipAnchors(start));
    const anchors = (): Anchors => ({ ...env.chain.anchors, ...made });
    for (const step of s.steps) {
      const atMs = performance.now() - t0;
      const action = await untilAborted(act(step, env, { anchors, made, held, watch, limits }), env.signal);
      const actionEnd = performance.now();
      const checks = await untilAborted(
        Promise.all([...(action.judged ? [action.judged] : []), ...step.checks.map((c) => runCheck(c, env, anchors(), held, limits, actionEnd))]),
        env.signal,
      );
      const record: StepRecord = {
        index: step.index,
        ...(step.title !== undefined ? { title: step.title } : {}),
        source: `${step.source.file}:${step.source.line}`,
        atMs: Math.round(atMs),
        actionMs: Math.round(actionEnd - t0 - atMs),
        action: action.record,
        checks,
      };
      steps.push(record);
      env.onStep?.(record);
    }
  } catch (e) {
    error = (e as Error).message;
  } finally {
    for (const h of held.values()) await Promise.all(h.calls.map((c) => c.cancel()));
    await watch.stop();
  }
  return {
    id: s.id,
    ...(s.title !== undefined ? { title: s.title } : {}),
    source: `${s.source.file}:${s.source.line}`,
    durationMs: Math.round(performance.now() - t0),
    steps,
    tips: watch.records().map((r) => ({
      kind: r.event.kind,
      height: r.event.height,
      hash: r.event.hash,
      ...(r.event.forkPoint !== undefined ? { forkPoint: r.event.forkPoint } : {}),
      atMs: Math.round(r.event.at - t0),
      served: Object.fromEntries(grpcBuilds.map((b) => [b.name, r.served.get(b.name) ?? null])),
    })),
    ...(error !== undefined ? { error } : {}),
  };
}

interface Run {
  anchors: () => Anchors;
  made: Record<string, number | string>;
  held: Map<string, Held>;
  watch: TipWatch;
  limits: ReadonlyMap<string, Limiter>;
}

/** Held streams are judged against the oracle's answer just before the tip first moves after they opened. */
async function freezeHeld(env: ScenarioEnv, held: Map<string, Held>): Promise<void> {
  for (const h of held.values()) {
    if (h.frozenAt !== undefined) continue;
    h.expected = await env.oracle().answer(h.pc);
    h.frozenAt = performance.now();
  }
}

async function act(step: Step, env: ScenarioEnv, run: Run): Promise<{ record: ActionRecord; judged?: CheckRecord }> {
  const a: Action = step.action;
  switch (a.kind) {
    case "mine": {
      await freezeHeld(env, run.held);
      const tips: TipId[] = [];
      let last = performance.now();
      for (let i = 0; i < a.blocks; i++) {
        if (i > 0 && a.everyMs > 0) await sleep(last + a.everyMs - performance.now(), env.signal);
        last = performance.now();
        const tip = await env.mover.mine();
        run.watch.record({ kind: "block", ...tip, at: performance.now() });
        Object.assign(run.made, tipAnchors(tip));
        tips.push(tip);
      }
      return { record: { kind: "mine", blocks: a.blocks, tips } };
    }
    case "send": {
      const txs: { name: string; txid: string }[] = [];
      for (const name of a.txs) {
        const txid = await env.mover.send();
        run.made[`tx_${name}`] = txid;
        txs.push({ name, txid });
      }
      return { record: { kind: "send", txs } };
    }
    case "reorg": {
      await freezeHeld(env, run.held);
      const include = a.include.map((name) => String(run.made[`tx_${name}`]));
      const r = await env.mover.reorg(a.depth, include);
      run.watch.record({ kind: "reorg", ...r.tip, forkPoint: r.forkPoint, at: performance.now() });
      Object.assign(run.made, tipAnchors(r.tip), {
        fork_point: r.forkPoint,
        orphaned_first_hash: r.orphaned[0]!,
        orphaned_tip_hash: r.orphaned[r.orphaned.length - 1]!,
      });
      return { record: { kind: "reorg", depth: a.depth, include: a.include, forkPoint: r.forkPoint, orphaned: r.orphaned, tip: r.tip } };
    }
    case "wait":
      await sleep(a.ms, env.signal);
      return { record: { kind: "wait", ms: a.ms } };
    case "wait-tip": {
      const reached = await run.watch.atTip(a.deadlineMs);
      return { record: { kind: "wait-tip", builds: [...reached].map(([build, ms]) => ({ build, ms })) } };
    }
    case "open": {
      const pc = planCase(a.check.case, run.anchors(), env.chain.name, env.protocol);
      if (pc.skipped || !pc.rpc) throw new Error(`stream ${a.stream}: ${pc.skipped ?? "not a gRPC call"}`);
      const calls = env.builds.filter((b) => b.grpc).map((b) => holdStream(b, pc.rpc!, pc.request as GrpcPlannedRequest, a.pauseAfter));
      run.held.set(a.stream, { pc, calls, expected: await env.oracle().answer(pc), frozenAt: undefined });
      return { record: { kind: "open", stream: a.stream, method: pc.case.method } };
    }
    case "read": {
      const h = run.held.get(a.stream)!;
      run.held.delete(a.stream);
      if (h.frozenAt === undefined) h.expected = await env.oracle().answer(h.pc);
      const since = h.frozenAt ?? performance.now();
      for (const c of h.calls) c.release();
      const ended = await Promise.all(h.calls.map((c) => endWithin(c, since + a.deadlineMs)));
      const builds: BuildTime[] = ended.map(({ call, inTime }) => ({ build: call.build, ms: inTime ? Math.round(call.endedAt()! - since) : null }));
      const observed = new Map(ended.map((o) => [o.call.build, o.obs]));
      const result = await judge(h.pc, env, run.limits, observed, h.expected);
      const judged: CheckRecord = {
        id: a.stream,
        caseId: h.pc.case.id,
        method: h.pc.case.method,
        deadlineMs: a.deadlineMs,
        stream: a.stream,
        builds: builds.map((b) => ({ ...b, outcome: result.outcomes?.find((o) => o.build === b.build)?.outcome ?? "unchecked" })),
        result,
      };
      return { record: { kind: "read", stream: a.stream, builds }, judged };
    }
    case "close": {
      const h = run.held.get(a.stream)!;
      run.held.delete(a.stream);
      await Promise.all(h.calls.map((c) => c.cancel()));
      return { record: { kind: "close", stream: a.stream } };
    }
  }
}

/** A held call's end, or past the deadline the call cancelled and taken as the client's end: the server did not end it. */
async function endWithin(call: HeldCall, deadline: number): Promise<{ call: HeldCall; obs: GrpcCallObservation; inTime: boolean }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Late only once the loop has read what arrived: after a stall, an end that came in time is not late.
  const late = new Promise<"late">((r) => (timer = afterArrived(() => r("late"), Math.max(0, deadline - performance.now()))));
  const first = await Promise.race([call.ended, late]);
  clearTimeout(timer);
  if (first !== "late") return { call, obs: first, inTime: true };
  const soFar = call.soFar();
  await call.cancel();
  return {
    call,
    inTime: false,
    obs: { ...soFar, code: 1, message: "the stream was still open at the deadline; the client cancelled it", endedBy: "cancelled" },
  };
}

/** Judges observations already in hand (held streams) as the runner judges any case: the same comparison, ledger and outcomes. */
function judge(
  pc: PlannedCase,
  env: ScenarioEnv,
  limits: ReadonlyMap<string, Limiter>,
  observed: ReadonlyMap<string, Observation>,
  expected: Observation | undefined,
) {
  const targets = new Map<string, GrpcTarget>([...observed].map(([build, obs]) => [build, answering(obs as GrpcCallObservation)]));
  const options: RunOptions = {
    ...runOptions(env),
    builds: env.builds.filter((b) => observed.has(b.name)),
    connections: { grpc: targets, jsonrpc: new Map() },
    oracle: { label: "the oracle's answer when the stream was judged", answer: async () => expected },
  };
  return runCase(pc, options, limits).then((r) => r!);
}

/** A target that answers with what the build already sent. */
function answering(obs: GrpcCallObservation): GrpcTarget {
  return { url: "", endpoint: { url: "" } as GrpcTarget["endpoint"], call: async () => obs, close: async () => {}, abort: () => {} };
}

function runOptions(env: ScenarioEnv): RunOptions {
  return {
    protocol: env.protocol,
    builds: env.builds,
    connections: env.connections,
    oracle: env.oracle(),
    ...(env.classify ? { classify: env.classify } : {}),
    ...(env.protocolVersions ? { protocolVersions: env.protocolVersions } : {}),
  };
}

async function runCheck(
  c: Check,
  env: ScenarioEnv,
  anchors: Anchors,
  held: Map<string, Held>,
  limits: ReadonlyMap<string, Limiter>,
  since: number,
): Promise<CheckRecord> {
  const h = c.stream !== undefined ? held.get(c.stream) : undefined;
  const pc = h ? h.pc : planCase(c.case, anchors, env.chain.name, env.protocol);
  const base = { id: c.id, caseId: c.case.id, method: c.case.method, deadlineMs: c.deadlineMs, ...(c.stream !== undefined ? { stream: c.stream } : {}) };
  const poll = h
    ? async () => judge(pc, env, limits, new Map(h.calls.map((call) => [call.build, call.soFar()])), await env.oracle().answer(pc))
    : () => runCase(pc, runOptions(env), limits);
  const got = await converge(poll, since, c.deadlineMs, env.pollMs ?? 25);
  if (!got) throw new Error(`check ${c.id} was interrupted`);
  return { ...base, ...(got.result.skipped ? { skipped: got.result.skipped } : {}), builds: got.builds, result: got.result };
}

/** A pause that an interruption ends (rejecting, so the action stops), leaving no timer behind. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(interruptedBy(signal)));
    const stop = () => {
      clearTimeout(timer);
      reject(new Error(interruptedBy(signal!)));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", stop);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", stop, { once: true });
  });
}
