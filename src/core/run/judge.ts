// Judging one case: canonical forms of every answer, the verdict over all builds, and
// each build's divergences from what it is measured against (the oracle, the case's
// expectation, or — without either — the majority of the builds).

import type { JsonValue } from "@bufbuild/protobuf";
import { canonOf, grpcJson, type Canonical, type CanonOptions } from "../canon/index.js";
import { grpcCodeName } from "../canon/grpc-status.js";
import { compareCanonical } from "../diff/compare.js";
import type { Divergence } from "../diff/divergence.js";
import { expectationDivergences } from "../diff/expect.js";
import type { PatchOp } from "../diff/patch.js";
import { verdictAgainstEach, verdictOf, type Verdict } from "../diff/verdict.js";
import type { Observation } from "../targets/observation.js";
import type { PlannedCase } from "./plan.js";
import type { Answer } from "../results/result.js";
import { boundPatch, boundStrings, DEFAULT_KEEPING, elide, totalBytes, type Keeping } from "../results/bound.js";
import { sharedForms, type SharedForms } from "./shared-forms.js";

export const ORACLE = "oracle";

export interface Judgement {
  verdict: Verdict;
  /** Per build, what it diverges in and from whom. */
  divergences: { build: string; divergences: readonly Divergence[] }[];
  answers: Answer[];
  oracle?: Answer;
  /** The oracle's answers under older protocol rules ("oracle@<version>") and the answers of the nodes some builds are backed by ("oracle:<name>"). */
  otherOracles?: Answer[];
  excluded: { side: string; paths: string[] }[];
  patches: { left: string; right: string; ops: PatchOp[]; omittedOps?: number }[];
}

function canonOptions(pc: PlannedCase): CanonOptions {
  const c = pc.case;
  if (c.transport === "jsonrpc") return { volatile: c.volatile, ...(c.unorderedKeys ? { unorderedKeys: c.unorderedKeys } : {}) };
  const streaming = pc.rpc!.methodKind === "server_streaming";
  return {
    schema: pc.rpc!.output,
    streaming,
    volatile: c.volatile,
    unordered: c.unordered,
    lazy: true,
    ...(c.openEnded ? { openEnded: true } : {}),
    ...(c.cancelAfter !== undefined ? { cancelAfter: c.cancelAfter } : {}),
    ...(c.deadlineMs !== undefined ? { deadlineMs: c.deadlineMs } : {}),
  };
}

/** `shared`: the forms already made for the case's other sides (answers with the same bytes share them). */
export function answerOf(
  side: string,
  obs: Observation,
  canon: Canonical,
  protocolVersion?: string,
  keep: Keeping = DEFAULT_KEEPING,
  shared: SharedForms = sharedForms(),
): Answer {
  const parts = obs.transport === "grpc" ? obs.messages : [obs.body];
  // Above the inline size neither the hex nor the decoded form is kept: both are bigger
  // than the bytes, and a report would hold them as one string.
  const elided = totalBytes(parts) > keep.inlineBytes ? elide(parts, keep) : undefined;
  const bytes = (json: () => JsonValue | undefined) => {
    if (elided) return { hex: [], elided };
    const { hex, json: j } = shared(obs.transport, parts, () => {
      const made = json();
      return { hex: parts.map((m) => Buffer.from(m).toString("hex")), ...(made === undefined ? {} : { json: made }) };
    });
    return j === undefined ? { hex } : { hex, json: j };
  };
  const base = {
    side,
    transport: obs.transport,
    wireBytes: obs.wireBytes,
    ms: Math.round(obs.timing.totalMs * 100) / 100,
    ...(obs.timing.firstByteMs !== undefined ? { firstByteMs: Math.round(obs.timing.firstByteMs * 100) / 100 } : {}),
    ...(obs.fault ? { fault: boundStrings(obs.fault, keep) } : {}),
    ...(obs.transport === "grpc" && obs.endedBy ? { endedBy: obs.endedBy } : {}),
    ...(obs.transport === "grpc" && obs.askedAgain ? { askedAgain: obs.askedAgain.map((ms) => Math.round(ms)) } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
  };
  if (obs.transport === "grpc" && canon.transport === "grpc") {
    return {
      ...base,
      status: obs.fault ? `fault:${obs.fault.kind}` : grpcCodeName(obs.code),
      // A client timeout has no status code: the synthesized DEADLINE_EXCEEDED is not the server's.
      code: obs.code === 0 || obs.fault?.kind === "timeout" ? null : obs.code,
      message: boundStrings(obs.message, keep),
      count: obs.messages.length,
      ...bytes(() => grpcJson(canon)),
    };
  }
  if (obs.transport !== "jsonrpc" || canon.transport !== "jsonrpc") throw new Error("transport mismatch");
  const outcome = canon.outcome;
  const code = outcome.kind === "error" && typeof outcome.code === "number" ? outcome.code : null;
  return {
    ...base,
    status: obs.fault ? `fault:${obs.fault.kind}` : outcome.kind === "error" ? `error ${String(outcome.code)}` : "OK",
    code,
    message: outcome.kind === "error" ? boundStrings(String(outcome.message), keep) : "",
    count: 1,
    ...bytes(() => canon.body as JsonValue | undefined),
  };
}

/**
 * What each build is compared with. With a reference group, builds outside it are
 * compared with its first member (or with the oracle when the oracle is the reference);
 * when there is no reference (a split), everyone is compared with the largest group.
 */
function referenceSide(
  verdict: Verdict,
  canon: Map<string, Canonical>,
  oracle: Canonical | undefined,
): { name: string; canon: Canonical; members: string[] } | undefined {
  if (oracle && verdict.reference === "oracle") {
    const members = verdict.groups.find((g) => !verdict.deviants.includes(g[0]!) && !verdict.unavailable.includes(g[0]!)) ?? [];
    return { name: ORACLE, canon: oracle, members: verdict.verdict === "all-vs-oracle" || verdict.verdict === "split" ? [] : members };
  }
  const top = verdict.groups[0];
  if (!top || top.length === 0) return undefined;
  return { name: top[0]!, canon: canon.get(top[0]!)!, members: top };
}

/**
 * Each build against the answer it is measured by: its own node's ("oracle:<name>") when it
 * is backed by another node than the run's oracle, else the oracle's for the protocol
 * version it speaks (`byVersion` holds the answers derived under older rules), else the
 * oracle's. Undefined when every build is measured against the oracle itself.
 */
function perBuildOracles(
  canon: ReadonlyMap<string, Canonical>,
  oracle: Canonical,
  byVersion: ReadonlyMap<string, Canonical>,
  versions: ReadonlyMap<string, string>,
  nodes: ReadonlyMap<string, { name: string; canon: Canonical }>,
): { sides: Map<string, { name: string; canon: Canonical }> } | undefined {
  const sides = new Map<string, { name: string; canon: Canonical }>();
  let other = false;
  for (const build of canon.keys()) {
    const node = nodes.get(build);
    const v = versions.get(build);
    const legacy = v === undefined ? undefined : byVersion.get(v);
    if (node || legacy) other = true;
    sides.set(build, node ?? (legacy ? { name: `${ORACLE}@${v}`, canon: legacy } : { name: ORACLE, canon: oracle }));
  }
  return other ? { sides } : undefined;
}

/** The node a build is backed by, and its answer, for builds not measured against the run's oracle. */
export interface NodeAnswers {
  /** Build name → node name. */
  nodeOf: ReadonlyMap<string, string>;
  /** Node name → its answer (absent: it cannot derive one). */
  answers: ReadonlyMap<string, Observation | undefined>;
}

export function judgeCase(
  pc: PlannedCase,
  observations: ReadonlyMap<string, Observation>,
  oracle: Observation | undefined,
  protocolVersions: ReadonlyMap<string, string> = new Map(),
  /** Oracle answers under older protocol rules, by version (builds speaking it are measured against them). */
  olderOracles: ReadonlyMap<string, Observation> = new Map(),
  keep: Keeping = DEFAULT_KEEPING,
  nodes: NodeAnswers = { nodeOf: new Map(), answers: new Map() },
): Judgement {
  const c = pc.case;
  const opts = canonOptions(pc);
  const canon = new Map<string, Canonical>();
  for (const [build, obs] of observations) canon.set(build, canonOf(obs, opts));
  const oracleCanon = oracle ? canonOf(oracle, opts) : undefined;
  const olderCanon = new Map([...olderOracles].map(([v, obs]) => [v, canonOf(obs, opts)]));
  const nodeCanon = new Map([...nodes.answers].flatMap(([n, obs]) => (obs ? [[n, canonOf(obs, opts)] as const] : [])));
  // A node that cannot derive the answer leaves the case without an oracle, as the run's oracle does.
  const nodesAnswer = [...new Set(nodes.nodeOf.values())].every((n) => nodeCanon.has(n));
  const useOracle = c.expect.kind === "oracle" && nodesAnswer ? oracleCanon : undefined;
  const buildNodes = new Map([...nodes.nodeOf].flatMap(([b, n]) => (canon.has(b) ? [[b, { name: `${ORACLE}:${n}`, canon: nodeCanon.get(n)! }] as const] : [])));
  const perBuild = useOracle ? perBuildOracles(canon, useOracle, olderCanon, protocolVersions, buildNodes) : undefined;
  const verdict = perBuild
    ? verdictAgainstEach(canon, new Map([...perBuild.sides].map(([b, s]) => [b, s.canon])))
    : verdictOf(canon, useOracle, { expect: c.expect.kind === "error" || c.expect.kind === "ok" ? c.expect : undefined });

  const divergences: Judgement["divergences"] = [];
  const patches: Judgement["patches"] = [];
  // A build that gave no well-formed answer could not be checked: what it sent before the
  // fault is kept, never compared (a hostile build's 64 MiB of garbage would be diffed,
  // patched and dropped).
  const judged = new Map([...canon].filter(([, cb]) => !cb.fault));
  for (const build of canon.keys()) if (!judged.has(build)) divergences.push({ build, divergences: [] });
  if (perBuild) {
    for (const [build, cb] of judged) {
      const side = perBuild.sides.get(build)!;
      const cmp = compareCanonical(side.canon, cb, { left: side.name, right: build });
      divergences.push({ build, divergences: cmp.divergences });
      if (cmp.patch.length > 0) patches.push({ left: side.name, right: build, ops: [...cmp.patch] });
    }
  } else if (c.expect.kind === "error") {
    for (const [build, cb] of judged) divergences.push({ build, divergences: expectationDivergences(build, cb, c.expect) });
  } else {
    const ref = referenceSide(verdict, canon, useOracle);
    for (const [build, cb] of judged) {
      const failed = c.expect.kind === "ok" ? expectationDivergences(build, cb, c.expect) : [];
      if (failed.length > 0) {
        divergences.push({ build, divergences: failed });
        continue;
      }
      if (!ref || ref.members.includes(build)) {
        divergences.push({ build, divergences: [] });
        continue;
      }
      const cmp = compareCanonical(ref.canon, cb, { left: ref.name, right: build });
      divergences.push({ build, divergences: cmp.divergences });
      if (cmp.patch.length > 0) patches.push({ left: ref.name, right: build, ops: [...cmp.patch] });
    }
  }

  const shared = sharedForms();
  const answers = [...observations].map(([build, obs]) => answerOf(build, obs, canon.get(build)!, protocolVersions.get(build), keep, shared));
  const excluded = [...canon].map(([side, cb]) => ({ side, paths: cb.excluded.map((e) => e.path) })).filter((e) => e.paths.length > 0);
  return {
    verdict,
    divergences: boundStrings(divergences, keep),
    answers,
    ...(oracle && oracleCanon ? { oracle: answerOf(ORACLE, oracle, oracleCanon, undefined, keep, shared) } : {}),
    ...(olderOracles.size + nodeCanon.size > 0
      ? {
          otherOracles: [
            ...[...olderOracles].map(([v, obs]) => answerOf(`${ORACLE}@${v}`, obs, olderCanon.get(v)!, v, keep, shared)),
            ...[...nodeCanon].map(([n, cn]) => answerOf(`${ORACLE}:${n}`, nodes.answers.get(n)!, cn, undefined, keep, shared)),
          ],
        }
      : {}),
    excluded,
    patches: boundStrings(
      patches.map((p) => boundPatch(p, keep)),
      keep,
    ),
  };
}
