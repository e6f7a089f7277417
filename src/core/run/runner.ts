// Runs planned cases against every build: each call under its build's concurrency limit
// and deadline, the oracle asked beside them, each case judged and its divergences
// classified as soon as all its answers are in. A build that is down, hangs or answers
// garbage yields an observation with a fault (the targets guarantee it), never a crash.

import { protocolIn } from "../corpus/protocol-version.js";
import type { Build } from "../targets/config.js";
import type { GrpcCallOptions, GrpcTarget } from "../targets/grpc.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Observation } from "../targets/observation.js";
import type { Case } from "../corpus/case.js";
import type { Divergence } from "../diff/divergence.js";
import { broadcastRisk } from "./broadcast.js";
import { judgeCase } from "./judge.js";
import { limiter, mapLimited, type Limiter } from "./limit.js";
import type { GrpcPlannedRequest, PlannedCase } from "./plan.js";
import type { Protocol } from "./protocol.js";
import type { CaseResult, ClassifiedDivergence } from "../results/result.js";
import { outcomesOf } from "../results/outcome.js";
import type { Keeping } from "../results/bound.js";
import { onMovingChain, settledAtStart, type LagSamples, type MotionOptions } from "./moving-chain.js";
import { askedClearly } from "./deadline-ask.js";

export interface OracleSource {
  /** e.g. the oracle's JSON-RPC URL. */
  label: string;
  /**
   * The expected answer for a case, or undefined when the oracle cannot say; with
   * `protocol`, the answer under that older protocol version's rules.
   */
  answer(pc: PlannedCase, protocol?: string): Promise<Observation | undefined>;
}

export interface Connections {
  grpc: ReadonlyMap<string, GrpcTarget>;
  jsonrpc: ReadonlyMap<string, JsonRpcTarget>;
}

export type Classifier = (d: Divergence, build: Build, c: Case) => string | null;

export interface RunOptions {
  /** Says which cases could broadcast (see broadcast.ts). */
  protocol: Pick<Protocol, "sendsTransaction">;
  builds: readonly Build[];
  connections: Connections;
  oracle?: OracleSource;
  /** The nodes, by name, that builds with their own `oracle` are measured against. */
  nodeOracles?: ReadonlyMap<string, OracleSource>;
  /** The ledger's classification; without one every divergence is new. */
  classify?: Classifier;
  /** Protocol version each build speaks, when known. */
  protocolVersions?: ReadonlyMap<string, string>;
  /** Cases in flight at once. */
  caseConcurrency?: number;
  /** Each result as it completes; `index` is its place in the plan. */
  onResult?: (r: CaseResult, done: number, total: number, index: number) => void;
  /**
   * Stops starting new cases. Calls in flight are the caller's to abort (closing the
   * targets); a case that was in flight when the signal came is no result.
   */
  signal?: AbortSignal;
  /** Send cases that carry a valid transaction (see broadcast.ts); default false. */
  allowBroadcast?: boolean;
  /** Why such cases are not sent, when it is more than the default reason. */
  broadcastRefused?: string;
  /** How much of each answer results keep (see results/bound.ts). */
  keep?: Keeping;
  /** Return every result at the end (default); false: onResult has them, and they are not held here too. */
  collect?: boolean;
  /** The chain may move during the run: diverging cases are asked again once builds caught up (moving-chain.ts). */
  motion?: MotionOptions;
}

/** Every JSON-RPC case asks with the same id, so the echoed ids never differ between sides. */
export const JSONRPC_CASE_ID = 1;

function buildsFor(c: Case, builds: readonly Build[]): Build[] {
  return builds.filter(
    (b) => (c.transport === "grpc" ? b.grpc : b.jsonrpc) !== undefined && (c.servedBy === undefined || c.servedBy.includes(b.implementation)),
  );
}

/** The builds of a case that follow the run's node: one measured against a node of its own (`oracle`) never reaches this node's tip. */
function followers(c: Case, builds: readonly Build[]): Build[] {
  return followingNode(buildsFor(c, builds));
}

const followingNode = (builds: readonly Build[]) => builds.filter((b) => b.oracle === undefined);

/** What a gRPC case asks of the call beyond its request: how its stream ends, and the deadline it sends. */
export function caseCallOptions(c: Case): Pick<GrpcCallOptions, "quietMs" | "cancelAfter" | "serverDeadlineMs"> {
  return {
    ...(c.openEnded ? { quietMs: c.openEnded.quietMs } : {}),
    ...(c.cancelAfter !== undefined ? { cancelAfter: c.cancelAfter } : {}),
    ...(c.deadlineMs !== undefined ? { serverDeadlineMs: c.deadlineMs } : {}),
  };
}

async function ask(pc: PlannedCase, build: Build, conns: Connections): Promise<Observation> {
  const c = pc.case;
  const limits = { deadlineMs: build.deadlineMs, maxMessageBytes: build.maxMessageBytes, maxCallBytes: build.maxCallBytes };
  if (c.transport === "grpc") {
    const target = conns.grpc.get(build.name)!;
    const call = () =>
      target.call(pc.rpc!, pc.request as GrpcPlannedRequest, {
        ...limits,
        maxMessages: build.maxStreamMessages,
        ...caseCallOptions(c),
      });
    return askedClearly(call, c.deadlineMs);
  }
  const target = conns.jsonrpc.get(build.name)!;
  return target.call(c.method, pc.request as unknown[], { ...limits, id: JSONRPC_CASE_ID });
}

function nodeOracle(o: RunOptions, name: string): OracleSource {
  const source = o.nodeOracles?.get(name);
  if (!source) throw new Error(`a build is backed by node ${JSON.stringify(name)}, which the run has no oracle for`);
  return source;
}

function skippedResult(pc: PlannedCase, reason: string): CaseResult {
  const c = pc.case;
  return {
    caseId: c.id,
    method: c.method,
    transport: c.transport,
    ...(c.title ? { title: c.title } : {}),
    expect: expectText(c),
    tags: c.tags,
    source: `${c.source.file}:${c.source.line}`,
    skipped: reason,
    answers: [],
    divergences: [],
    volatile: c.volatile,
    excluded: [],
    unordered: c.unordered,
    patches: [],
  };
}

/** The protocol versions, spoken by the case's builds, that its expectation does not cover. */
function olderVersions(c: Case, builds: readonly Build[], versions: ReadonlyMap<string, string> | undefined): string[] {
  if (c.protocol === undefined || !versions) return [];
  const out = new Set<string>();
  for (const b of builds) {
    const v = versions.get(b.name);
    if (v !== undefined && protocolNote(c, v) !== undefined) out.add(v);
  }
  return [...out];
}

/**
 * When a case's expectation holds only from some protocol version on and the build
 * speaks an older one, its divergences say so: what counts as correct depends on the
 * version (GetBlock's transparent data became the rule in v0.4.1).
 */
export function protocolNote(c: Case, version: string | undefined): string | undefined {
  if (c.protocol === undefined || version === undefined) return undefined;
  if (protocolIn(version, c.protocol) !== false) return undefined;
  return `the case's expectation holds for protocol ${c.protocol}; this build speaks ${version}`;
}

export function expectText(c: Case): string {
  return c.expect.kind === "error" ? `error ${c.expect.codes.join("|")}` : c.expect.kind;
}

/**
 * One case against every build that serves it. Undefined when the run was interrupted
 * before every build was asked: a call still waiting for its build's concurrency slot is
 * not sent after an interruption, and a case with answers missing is no result at all.
 */
export async function runCase(pc: PlannedCase, o: RunOptions, limits: ReadonlyMap<string, Limiter>): Promise<CaseResult | undefined> {
  const c = pc.case;
  if (pc.skipped) return skippedResult(pc, pc.skipped);
  const builds = buildsFor(c, o.builds);
  if (builds.length === 0) {
    return skippedResult(pc, c.servedBy ? `no configured ${c.servedBy.join("/")} build serves ${c.transport}` : `no configured build serves ${c.transport}`);
  }
  // Checked before anything is sent, to the builds or to the oracle.
  const risk = o.allowBroadcast ? undefined : broadcastRisk(pc, o.protocol);
  if (risk) return skippedResult(pc, o.broadcastRefused ?? risk);
  const asksOracle = c.expect.kind === "oracle" && o.oracle !== undefined;
  const older = asksOracle
    ? olderVersions(
        c,
        builds.filter((b) => b.oracle === undefined),
        o.protocolVersions,
      )
    : [];
  const nodeOf = new Map(asksOracle ? builds.flatMap((b) => (b.oracle !== undefined ? [[b.name, b.oracle] as const] : [])) : []);
  const nodes = [...new Set(nodeOf.values())];
  const [answers, oracle, olderAnswers, nodeAnswers] = await Promise.all([
    Promise.all(builds.map((b) => limits.get(b.name)!.run(async () => (o.signal?.aborted ? undefined : ask(pc, b, o.connections))))),
    asksOracle ? o.oracle!.answer(pc) : Promise.resolve(undefined),
    Promise.all(older.map((v) => o.oracle!.answer(pc, v))),
    Promise.all(nodes.map((n) => nodeOracle(o, n).answer(pc))),
  ]);
  if (answers.some((a) => a === undefined) || o.signal?.aborted) return undefined;
  const observations = new Map(builds.map((b, i) => [b.name, answers[i]!]));
  const olderOracles = new Map(older.flatMap((v, i) => (olderAnswers[i] ? [[v, olderAnswers[i]!] as const] : [])));
  const j = judgeCase(pc, observations, oracle, o.protocolVersions, olderOracles, o.keep, {
    nodeOf,
    answers: new Map(nodes.map((n, i) => [n, nodeAnswers[i]])),
  });
  const byName = new Map(builds.map((b) => [b.name, b]));
  // A build that gave no well-formed answer could not be checked: its outcome says so,
  // and a timeout or a refused connection is not a difference in what it answers. When
  // the oracle answer a case is measured against faulted, no build could be checked.
  const oracleFaulted = c.expect.kind === "oracle" && [oracle, ...olderOracles.values(), ...nodeAnswers].some((x) => x?.fault);
  const faulted = new Set(builds.filter((b) => oracleFaulted || observations.get(b.name)!.fault).map((b) => b.name));
  const divergences: ClassifiedDivergence[] = j.divergences.flatMap(({ build, divergences: ds }) => {
    if (faulted.has(build)) return [];
    const v = o.protocolVersions?.get(build);
    const note = v !== undefined && olderOracles.has(v) ? undefined : protocolNote(c, v);
    return ds.map((d) => {
      const quirk = o.classify ? o.classify(d, byName.get(build)!, c) : null;
      // Between two builds, with no oracle to say who is right, the known quirk may be the
      // other side's: the divergence is then that build's, seen from its side.
      const other = quirk === null && o.classify ? byName.get(d.left) : undefined;
      const mirrored = other ? mirror(d) : undefined;
      const theirs = other && mirrored ? o.classify!(mirrored, other, c) : null;
      if (theirs !== null && mirrored) return { ...mirrored, caseId: c.id, method: c.method, transport: c.transport, build: other!.name, quirk: theirs };
      return { ...d, caseId: c.id, method: c.method, transport: c.transport, build, quirk, ...(note ? { protocolNote: note } : {}) };
    });
  });
  const outcomes = outcomesOf({
    expect: c.expect.kind,
    answers: j.answers,
    ...(j.oracle ? { oracle: j.oracle } : {}),
    ...(j.otherOracles ? { otherOracles: j.otherOracles } : {}),
    oracleConfigured: o.oracle !== undefined,
    divergences,
  });
  return {
    caseId: c.id,
    method: c.method,
    transport: c.transport,
    ...(c.title ? { title: c.title } : {}),
    expect: expectText(c),
    tags: c.tags,
    source: `${c.source.file}:${c.source.line}`,
    ...(pc.requestJson !== undefined ? { request: pc.requestJson } : {}),
    verdict: j.verdict,
    outcomes,
    answers: j.answers,
    ...(j.oracle ? { oracle: j.oracle } : {}),
    ...(j.otherOracles ? { otherOracles: j.otherOracles } : {}),
    divergences,
    volatile: c.volatile,
    ...(c.wallClock ? { wallClock: c.wallClock } : {}),
    ...(c.unorderedKeys ? { unorderedKeys: c.unorderedKeys } : {}),
    excluded: j.excluded,
    unordered: c.unordered,
    patches: j.patches.filter((p) => !faulted.has(p.right)),
    ...(c.openEnded ? { openEnded: true as const } : {}),
    ...(c.cancelAfter !== undefined ? { cancelAfter: c.cancelAfter } : {}),
    ...(c.deadlineMs !== undefined ? { deadlineMs: c.deadlineMs } : {}),
  };
}

/** A divergence between two builds as the other build would show it. */
function mirror(d: Divergence): Divergence {
  const { leftValue, rightValue, factor, ...rest } = d;
  return {
    ...rest,
    left: d.right,
    right: d.left,
    ...(rightValue !== undefined ? { leftValue: rightValue } : {}),
    ...(leftValue !== undefined ? { rightValue: leftValue } : {}),
    ...(factor !== undefined && factor !== 0 ? { factor: 1 / factor } : {}),
  };
}

/** Runs every planned case; results keep plan order. Interrupted runs return what finished. */
export async function runCases(planned: readonly PlannedCase[], o: RunOptions): Promise<{ results: CaseResult[]; partial: boolean; lag: LagSamples }> {
  const limits = new Map(o.builds.map((b) => [b.name, limiter(b.concurrency)]));
  const lag: LagSamples = new Map();
  const motion = o.motion;
  const settled = motion ? await settledAtStart(followingNode(o.builds), motion) : undefined;
  const one = (pc: PlannedCase) =>
    motion && settled && !pc.skipped
      ? onMovingChain(
          (tip) => runCase(tip && motion.replan ? motion.replan(pc, tip) : pc, o, limits),
          followers(pc.case, o.builds),
          motion,
          lag,
          o.signal,
          settled,
          (tip) => motion.replan !== undefined && JSON.stringify(motion.replan(pc, tip).requestJson) !== JSON.stringify(pc.requestJson),
        )
      : runCase(pc, o, limits);
  let done = 0;
  let partial = false;
  const results = await mapLimited(planned, o.caseConcurrency ?? 16, async (pc, index) => {
    if (o.signal?.aborted) {
      partial = true;
      return undefined;
    }
    const r = await one(pc);
    if (r === undefined) {
      partial = true;
      return undefined;
    }
    done++;
    o.onResult?.(r, done, planned.length, index);
    return o.collect === false ? undefined : r;
  });
  return { results: results.filter((r): r is CaseResult => r !== undefined), partial, lag };
}
