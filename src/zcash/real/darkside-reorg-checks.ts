// What darkside lightwalletd serves once it has followed a reorganization, each answer
// held against what zconform knows independently: the chain's shape (heights, hashes,
// prevHashes) from the bytes it staged, decoded by its own codec; an orphaned block or
// transaction against the oracle's answer over the chain after the reorganization (which
// holds neither). Every difference is looked up in the ledger under the case id
// `darkside/reorg/<check>`: a difference no entry explains is a finding.
//
// The whole chain after the reorganization is also compared byte for byte with the
// oracle by the run (darkside-compare.ts); these checks are what a reorganization adds.

import { create, fromBinary, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import { compareObservations } from "../../core/diff/index.js";
import type { Divergence, DivergenceKind } from "../../core/diff/divergence.js";
import { classify } from "../../core/ledger/classify.js";
import type { PlannedCase } from "../../core/run/plan.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { grpcCodeName } from "../../core/targets/grpc-status.js";
import { bytesToHex, displayHex, sha256d, type DecodedBlock } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { CompactBlockSchema } from "../gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, BlockRangeSchema, ChainSpecSchema, CompactTxStreamer, PoolType, TxFilterSchema } from "../gen/walletrpc/service_pb.js";
import type { GrpcDeriver } from "../oracle/source.js";
import type { CheckResult, DarksideContext } from "./darkside-compare.js";
import type { Convergence, IngestorLog } from "./darkside-reorg-watch.js";

export type ReorgCheckName =
  | "converged"
  | "tip"
  | "block"
  | "block-nullifiers"
  | "range"
  | "range-descending"
  | "nullifier-range"
  | "orphaned-hash"
  | "orphaned-transaction"
  | "served-while-converging"
  | "ingestor";

export interface ReorgDifference {
  path: string;
  kind: DivergenceKind;
  expected?: JsonValue;
  lightwalletd?: JsonValue;
  /** The ledger entry that explains it; null when new. */
  explanation: string | null;
  detail: string;
}

export interface ReorgCheck {
  check: ReorgCheckName;
  rpc: string;
  request: JsonValue;
  heights: number[];
  /** Where the expected answer comes from: the staged bytes, or the oracle over the chain after the reorganization. */
  expectedFrom: "staged" | "oracle";
  /** The status lightwalletd answered with. */
  status: { code: string; message: string };
  result: CheckResult;
  differences: ReorgDifference[];
}

export interface ReorgSubject {
  /** The chain after the reorganization, as zconform decoded the staged bytes. */
  after: ChainModel;
  forkHeight: number;
  /** The blocks the reorganization replaced (what lightwalletd served there before), lowest first. */
  orphaned: readonly DecodedBlock[];
  convergence: Convergence;
  ingestor?: IngestorLog;
}

interface Env {
  target: GrpcTarget;
  derive: GrpcDeriver;
  ctx: DarksideContext;
}

const OK = { code: "OK", message: "" };

function judged(env: Env, check: ReorgCheckName, rpc: string, d: Divergence): ReorgDifference {
  const explanation = classify(env.ctx.ledger, d, { caseId: `darkside/reorg/${check}`, method: rpc, transport: "grpc" }, env.ctx.build);
  return {
    path: d.path,
    kind: d.kind,
    explanation,
    detail: d.detail,
    ...(d.leftValue !== undefined ? { expected: d.leftValue } : {}),
    ...(d.rightValue !== undefined ? { lightwalletd: d.rightValue } : {}),
  };
}

function finish(env: Env, c: Omit<ReorgCheck, "result" | "differences">, found: Divergence[]): ReorgCheck {
  const differences = found.map((d) => judged(env, c.check, c.rpc, d));
  const result: CheckResult = differences.length === 0 ? "equal" : differences.every((d) => d.explanation) ? "explained" : "unexplained";
  return { ...c, result, differences };
}

function diff(kind: DivergenceKind, path: string, expected: JsonValue, got: JsonValue, detail: string): Divergence {
  return { kind, path, left: "expected", right: "lightwalletd", leftValue: expected, rightValue: got, detail };
}

/** Heights, hashes and prevHashes of the answered blocks against the expected ones, in order. */
function shapeDivergences(answered: readonly Uint8Array[], expected: readonly { height: number; block: DecodedBlock }[], indexed: boolean): Divergence[] {
  const out: Divergence[] = [];
  if (answered.length !== expected.length)
    out.push(diff("count", "", expected.length, answered.length, `${answered.length} blocks where ${expected.length} were expected`));
  answered.slice(0, expected.length).forEach((bytes, i) => {
    const want = expected[i]!;
    const cb = fromBinary(CompactBlockSchema, bytes);
    const at = (field: string) => (indexed ? `[${i}].${field}` : field);
    if (Number(cb.height) !== want.height)
      out.push(diff("value", at("height"), String(want.height), String(cb.height), `height ${cb.height} where ${want.height} was expected`));
    const fields: [string, Uint8Array, Uint8Array][] = [
      ["hash", want.block.hash, cb.hash],
      ["prevHash", want.block.header.prevHash, cb.prevHash],
    ];
    for (const [name, w, g] of fields) {
      if (bytesToHex(w) !== bytesToHex(g))
        out.push(diff("value", at(name), bytesToHex(w), bytesToHex(g), `${name} at ${want.height} is not the ${name} of the chain after the reorganization`));
    }
  });
  return out;
}

async function shapeCheck(
  env: Env,
  check: ReorgCheckName,
  method: DescMethod,
  request: Message,
  requestJson: JsonValue,
  expected: readonly { height: number; block: DecodedBlock }[],
  indexed: boolean,
): Promise<ReorgCheck> {
  const obs = await env.target.call(method, request);
  const status = { code: grpcCodeName(obs.code), message: obs.message };
  const found =
    obs.code === 0
      ? shapeDivergences(obs.messages, expected, indexed)
      : [diff("error-vs-ok", "status.code", "OK", status.code, `${status.code} ${obs.message}`)];
  return finish(env, { check, rpc: method.name, request: requestJson, heights: expected.map((e) => e.height), expectedFrom: "staged", status }, found);
}

function planned(method: DescMethod, check: ReorgCheckName, request: Message, requestJson: JsonValue): PlannedCase {
  return {
    case: {
      id: `darkside/reorg/${check}`,
      transport: "grpc",
      method: method.name,
      request: requestJson,
      expect: { kind: "oracle" },
      volatile: ["status.message"],
      unordered: false,
      tags: ["darkside", "reorg"],
      source: { file: "(darkside reorg)", line: 0 },
    },
    rpc: method,
    request,
    requestJson,
  };
}

/** The answer against the oracle's; error texts are recorded, not compared (the corpus does the same). */
async function oracleCheck(
  env: Env,
  check: ReorgCheckName,
  method: DescMethod,
  request: Message,
  requestJson: JsonValue,
  heights: number[],
): Promise<ReorgCheck> {
  const expected = await env.derive(planned(method, check, request, requestJson));
  if (expected?.transport !== "grpc") throw new Error(`the oracle cannot derive ${method.name} ${JSON.stringify(requestJson)}`);
  if (expected.fault) throw new Error(`the oracle failed on ${method.name} ${JSON.stringify(requestJson)}: ${expected.fault.detail}`);
  const obs = await env.target.call(method, request);
  const cmp = compareObservations(expected, obs, { left: "oracle", right: env.ctx.build.name, method, volatile: ["status.message"], patch: false });
  return finish(
    env,
    { check, rpc: method.name, request: requestJson, heights, expectedFrom: "oracle", status: { code: grpcCodeName(obs.code), message: obs.message } },
    [...cmp.divergences],
  );
}

function convergedCheck(env: Env, s: ReorgSubject, tipHeight: number): ReorgCheck {
  const c = s.convergence;
  const late = (field: "tipMs" | "blocksMs" | "cachedMs", what: string): Divergence[] =>
    c[field] === null ? [diff("latency", `convergence.${field}`, c.deadlineMs, null, `${what} not within ${c.deadlineMs} ms`)] : [];
  const found = [
    ...late("tipMs", "GetLatestBlock did not name the branch's tip"),
    ...late("blocksMs", "GetBlock did not serve the branch at every replaced height"),
    ...late("cachedMs", "the ingestor did not cache the branch's tip"),
  ];
  return finish(env, { check: "converged", rpc: "(watch)", request: {}, heights: [tipHeight], expectedFrom: "staged", status: OK }, found);
}

/** Polls in which GetLatestBlock named the branch's tip while GetBlock still served an orphaned block. */
function servedWhileConverging(env: Env, s: ReorgSubject): ReorgCheck {
  const found = s.convergence.orphanedServed.map((o) =>
    diff(
      "value",
      "hash",
      o.expected,
      o.hash,
      `GetBlock ${o.height} served ${o.hash} while GetLatestBlock named the branch's tip (${s.convergence.orphanedPolls} polls)`,
    ),
  );
  return finish(
    env,
    {
      check: "served-while-converging",
      rpc: "GetBlock",
      request: {},
      heights: s.convergence.orphanedServed.map((o) => o.height),
      expectedFrom: "staged",
      status: OK,
    },
    found,
  );
}

/** The ingestor dropped exactly the orphaned blocks, top down, and added the branch, bottom up. */
function ingestorCheck(env: Env, s: ReorgSubject, log: IngestorLog, branch: readonly { height: number; block: DecodedBlock }[]): ReorgCheck {
  const ref = (height: number, b: DecodedBlock) => `${height} ${displayHex(b.hash)}`;
  const dropped = s.orphaned.map((b, i) => ref(s.forkHeight + i, b)).reverse();
  const added = branch.map((b) => ref(b.height, b.block));
  const got = { dropped: log.dropped.map((r) => `${r.height} ${r.hash}`), added: log.added.map((r) => `${r.height} ${r.hash}`) };
  const found: Divergence[] = [];
  if (JSON.stringify(got.dropped) !== JSON.stringify(dropped))
    found.push(diff("value", "dropped", dropped, got.dropped, "the ingestor dropped other blocks than the orphaned ones"));
  if (JSON.stringify(got.added) !== JSON.stringify(added))
    found.push(diff("value", "added", added, got.added, "the ingestor added other blocks than the branch"));
  return finish(env, { check: "ingestor", rpc: "(log)", request: {}, heights: branch.map((b) => b.height), expectedFrom: "staged", status: OK }, found);
}

/** Every check of one reorganization, once lightwalletd has had until the deadline to follow it. */
export async function reorgChecks(target: GrpcTarget, derive: GrpcDeriver, ctx: DarksideContext, s: ReorgSubject): Promise<ReorgCheck[]> {
  const env: Env = { target, derive, ctx };
  const m = CompactTxStreamer.method;
  const tip = s.after.blocks[s.after.blocks.length - 1]!;
  const branch = s.after.blocks.filter((b) => b.height >= s.forkHeight);
  // Across the fork point: from the block below it when the run has one.
  const from = Math.max(s.after.baseHeight, s.forkHeight - 1);
  const across = s.after.blocks.filter((b) => b.height >= from);
  const checks: ReorgCheck[] = [convergedCheck(env, s, tip.height)];

  {
    const obs = await target.call(m.getLatestBlock, create(ChainSpecSchema, {}));
    const status = { code: grpcCodeName(obs.code), message: obs.message };
    const found: Divergence[] = [];
    if (obs.code !== 0) found.push(diff("error-vs-ok", "status.code", "OK", status.code, `${status.code} ${obs.message}`));
    else {
      const id = fromBinary(BlockIDSchema, obs.messages[0] ?? new Uint8Array());
      if (Number(id.height) !== tip.height)
        found.push(diff("value", "height", String(tip.height), String(id.height), `tip height ${id.height}, the branch's is ${tip.height}`));
      if (bytesToHex(id.hash) !== bytesToHex(tip.block.hash))
        found.push(diff("value", "hash", bytesToHex(tip.block.hash), bytesToHex(id.hash), "the tip is not the branch's"));
    }
    checks.push(finish(env, { check: "tip", rpc: "GetLatestBlock", request: {}, heights: [tip.height], expectedFrom: "staged", status }, found));
  }
  for (const b of branch) {
    const id = create(BlockIDSchema, { height: BigInt(b.height) });
    checks.push(await shapeCheck(env, "block", m.getBlock, id, { height: String(b.height) }, [b], false));
    checks.push(await shapeCheck(env, "block-nullifiers", m.getBlockNullifiers, id, { height: String(b.height) }, [b], false));
  }
  const range = (start: number, end: number) =>
    create(BlockRangeSchema, {
      start: { height: BigInt(start) },
      end: { height: BigInt(end) },
      poolTypes: [PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD],
    });
  const rangeJson = (start: number, end: number): JsonValue => ({
    start: { height: String(start) },
    end: { height: String(end) },
    poolTypes: ["TRANSPARENT", "SAPLING", "ORCHARD"],
  });
  checks.push(await shapeCheck(env, "range", m.getBlockRange, range(from, tip.height), rangeJson(from, tip.height), across, true));
  checks.push(await shapeCheck(env, "range-descending", m.getBlockRange, range(tip.height, from), rangeJson(tip.height, from), [...across].reverse(), true));
  checks.push(await shapeCheck(env, "nullifier-range", m.getBlockRangeNullifiers, range(from, tip.height), rangeJson(from, tip.height), across, true));

  const orphanedTip = s.orphaned[s.orphaned.length - 1]!;
  const byHash = create(BlockIDSchema, { hash: orphanedTip.hash });
  const byHashJson = { hash: Buffer.from(orphanedTip.hash).toString("base64") };
  const orphanedHeights = [s.forkHeight + s.orphaned.length - 1];
  checks.push(await oracleCheck(env, "orphaned-hash", m.getBlock, byHash, byHashJson, orphanedHeights));
  checks.push(await oracleCheck(env, "orphaned-hash", m.getBlockNullifiers, byHash, byHashJson, orphanedHeights));

  // Looked up by the id darkside gives a transaction (common/darkside.go darksideSetTxID):
  // its txid up to v4, double-SHA256 of its bytes for v5 and later.
  const kept = new Set(s.after.blocks.flatMap((b) => b.block.rawTransactions.map((raw) => bytesToHex(sha256d(raw)))));
  for (const [i, b] of s.orphaned.entries()) {
    for (const raw of b.rawTransactions) {
      const id = sha256d(raw);
      if (kept.has(bytesToHex(id))) continue;
      checks.push(
        await oracleCheck(env, "orphaned-transaction", m.getTransaction, create(TxFilterSchema, { hash: id }), { hash: Buffer.from(id).toString("base64") }, [
          s.forkHeight + i,
        ]),
      );
    }
  }
  checks.push(servedWhileConverging(env, s));
  if (s.ingestor) checks.push(ingestorCheck(env, s, s.ingestor, branch));
  return checks;
}
