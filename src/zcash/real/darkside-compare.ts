// lightwalletd in darkside mode against the oracle, over the blocks it was staged with:
// the block rpcs asked of both, each answer compared byte for byte, and every
// difference either explained by what darkside mode is known to do differently from a
// node-backed lightwalletd, or left unexplained (a finding, in lightwalletd or in
// zconform). A difference is explained by an entry of the ledger that holds for every
// lightwalletd (darkside or not), or by one of two darkside behaviours, both read from
// lightwalletd v0.5.4's common/darkside.go:
//
// - darkside-txid: darkside answers getblock and getrawtransaction with txids it computes
//   itself as double-SHA256 of the transaction bytes, which is the txid only up to v4;
//   for v5 and later (ZIP 244) every txid lightwalletd shows, and every lookup by txid,
//   uses that hash instead. Explained only when the value lightwalletd shows is exactly
//   that hash of the transaction zconform decoded at that place.
// - darkside-tree-size: darkside counts chainMetadata tree sizes from the sizes given to
//   Reset (0 here: no real tree state before a run's first block is known), adding each
//   block's Sapling outputs and Orchard actions; where the oracle cannot know the tree
//   either (the run starts after the pool's activation) it reports 0. Explained only when
//   the oracle does not know the tree and lightwalletd's value is exactly the count of
//   outputs (actions) from the first staged block through this one.

import { create, fromBinary, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import { compareObservations } from "../../core/diff/index.js";
import type { DivergenceKind } from "../../core/diff/divergence.js";
import { classify, type BuildIdentity } from "../../core/ledger/classify.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { PlannedCase } from "../../core/run/plan.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import type { GrpcObservation } from "../../core/targets/observation.js";
import { bytesToHex, sha256d } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { CompactBlockSchema, type CompactBlock } from "../gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, BlockRangeSchema, ChainSpecSchema, CompactTxStreamer, PoolType, TxFilterSchema } from "../gen/walletrpc/service_pb.js";
import type { GrpcDeriver } from "../oracle/source.js";
import { ORACLE_PREFIX } from "../oracle/status.js";

export type Explanation = "darkside-txid" | "darkside-tree-size";

export const DARKSIDE_EXPLANATIONS: Readonly<Record<Explanation, string>> = {
  "darkside-txid": "darkside computes txids as double-SHA256 of the transaction bytes (common/darkside.go darksideSetTxID), not ZIP 244 for v5+",
  "darkside-tree-size":
    "darkside counts tree sizes from the Reset start size (common/darkside.go addBlockActive); the oracle cannot know a tree whose start precedes the staged blocks",
};

export interface DarksideDifference {
  path: string;
  kind: DivergenceKind;
  oracle?: JsonValue;
  lightwalletd?: JsonValue;
  /** A darkside behaviour, or the id of the ledger entry that explains it; null when new. */
  explanation: string | null;
  explainedBy: "darkside" | "ledger" | null;
  detail: string;
}

export type CheckResult = "equal" | "explained" | "unexplained";

export interface DarksideCheck {
  rpc: string;
  /** The request in its JSON form. */
  request: JsonValue;
  /** The block heights the answer covers. */
  heights: number[];
  result: CheckResult;
  differences: DarksideDifference[];
}

const rpc = (name: string): DescMethod => CompactTxStreamer.methods.find((m) => m.name === name)!;

function planned(method: DescMethod, request: Message, requestJson: JsonValue): PlannedCase {
  return {
    case: {
      id: `darkside/${method.name}`,
      transport: "grpc",
      method: method.name,
      request: requestJson,
      expect: { kind: "oracle" },
      volatile: [],
      unordered: false,
      tags: ["darkside"],
      source: { file: "(darkside)", line: 0 },
    },
    rpc: method,
    request,
    requestJson,
  };
}

/** The count of a pool's note commitments from the first staged block through `height`. */
function countedFromStart(model: ChainModel, pool: "sapling" | "orchard", height: number): number {
  let n = 0;
  for (const b of model.blocks) {
    if (b.height > height) break;
    for (const tx of b.block.transactions) n += pool === "sapling" ? (tx.sapling?.outputs.length ?? 0) : (tx.orchard?.actions.length ?? 0);
  }
  return n;
}

const TXID = /^(?:\[(\d+)\]\.)?vtx\[\d+\]\.txid$/;
const TREE = /^(?:\[(\d+)\]\.)?chainMetadata\.(sapling|orchard)CommitmentTreeSize$/;

/** Which known darkside behaviour, if any, accounts for one difference in a block answer. */
function explainBlock(
  model: ChainModel,
  lwdBlocks: readonly (CompactBlock | undefined)[],
  path: string,
  lwdValue: JsonValue | undefined,
  oracleValue: JsonValue | undefined,
): Explanation | null {
  const t = TXID.exec(path);
  if (t) {
    // Found by value: where the two sides keep different transactions, the path's index
    // is the oracle's, not lightwalletd's.
    const cb = lwdBlocks[Number(t[1] ?? 0)];
    const block = cb && model.blockAt(Number(cb.height));
    if (!block) return null;
    const i = block.block.rawTransactions.findIndex((raw) => bytesToHex(sha256d(raw)) === lwdValue);
    return i >= 0 && block.block.transactions[i]!.version >= 5 && bytesToHex(block.block.txids[i]!) === oracleValue ? "darkside-txid" : null;
  }
  const s = TREE.exec(path);
  if (s) {
    const cb = lwdBlocks[Number(s[1] ?? 0)];
    const block = cb && model.blockAt(Number(cb.height));
    if (!block || block.trees !== undefined) return null;
    const oracleZero = oracleValue === undefined || oracleValue === 0 || oracleValue === "0";
    return oracleZero && Number(lwdValue ?? 0) === countedFromStart(model, s[2] as "sapling" | "orchard", block.height) ? "darkside-tree-size" : null;
  }
  return null;
}

function decodeBlocks(obs: GrpcObservation): (CompactBlock | undefined)[] {
  return obs.messages.map((m) => {
    try {
      return fromBinary(CompactBlockSchema, m);
    } catch {
      return undefined;
    }
  });
}

type Explain = (path: string, lightwalletd: JsonValue | undefined, oracle: JsonValue | undefined) => Explanation | null;

export interface DarksideContext {
  ledger: readonly Quirk[];
  build: BuildIdentity;
}

/**
 * The oracle's rejection as lightwalletd words it: the oracle prefixes the text the
 * lightwalletd check uses (oracle/status.ts), so the texts are compared too.
 */
function unprefixed(oracle: GrpcObservation): GrpcObservation {
  return oracle.code !== 0 && oracle.message.startsWith(ORACLE_PREFIX) ? { ...oracle, message: oracle.message.slice(ORACLE_PREFIX.length) } : oracle;
}

function check(
  ctx: DarksideContext,
  method: DescMethod,
  requestJson: JsonValue,
  heights: number[],
  lwd: GrpcObservation,
  oracle: GrpcObservation,
  explain: Explain,
): DarksideCheck {
  const cmp = compareObservations(unprefixed(oracle), lwd, { left: "oracle", right: ctx.build.name, method, patch: false });
  const differences = cmp.divergences.map((d): DarksideDifference => {
    const darkside = explain(d.path, d.rightValue, d.leftValue);
    const quirk = darkside ? null : classify(ctx.ledger, d, { caseId: `darkside/${method.name}`, method: method.name, transport: "grpc" }, ctx.build);
    return {
      path: d.path,
      kind: d.kind,
      explanation: darkside ?? quirk,
      explainedBy: darkside ? "darkside" : quirk ? "ledger" : null,
      detail: d.detail,
      ...(d.leftValue !== undefined ? { oracle: d.leftValue } : {}),
      ...(d.rightValue !== undefined ? { lightwalletd: d.rightValue } : {}),
    };
  });
  const result: CheckResult = differences.length === 0 ? "equal" : differences.every((d) => d.explanation) ? "explained" : "unexplained";
  return { rpc: method.name, request: requestJson, heights, result, differences };
}

/**
 * GetLatestBlock; GetBlock and GetBlockNullifiers of every height; GetBlockRange (shielded
 * pools, and all pools) and GetBlockRangeNullifiers over the whole run; GetTransaction of
 * every transaction by its txid.
 */
export async function compareDarkside(lwd: GrpcTarget, derive: GrpcDeriver, model: ChainModel, ctx: DarksideContext): Promise<DarksideCheck[]> {
  const checks: DarksideCheck[] = [];
  const ask = async (name: string, request: Message, requestJson: JsonValue) => {
    const method = rpc(name);
    const expected = await derive(planned(method, request, requestJson));
    if (expected?.transport !== "grpc") throw new Error(`the oracle cannot derive ${name} ${JSON.stringify(requestJson)}`);
    if (expected.fault) throw new Error(`the oracle failed on ${name} ${JSON.stringify(requestJson)}: ${expected.fault.detail}`);
    return { method, lwd: await lwd.call(method, request), oracle: expected };
  };
  const blockAnswer = async (name: string, request: Message, requestJson: JsonValue, heights: number[]) => {
    const a = await ask(name, request, requestJson);
    const lwdBlocks = decodeBlocks(a.lwd);
    checks.push(check(ctx, a.method, requestJson, heights, a.lwd, a.oracle, (p, l, o) => explainBlock(model, lwdBlocks, p, l, o)));
  };
  const all = model.blocks.map((b) => b.height);
  {
    const a = await ask("GetLatestBlock", create(ChainSpecSchema, {}), {});
    checks.push(check(ctx, a.method, {}, [model.tipHeight], a.lwd, a.oracle, () => null));
  }
  for (const h of all) {
    await blockAnswer("GetBlock", create(BlockIDSchema, { height: BigInt(h) }), { height: String(h) }, [h]);
    await blockAnswer("GetBlockNullifiers", create(BlockIDSchema, { height: BigInt(h) }), { height: String(h) }, [h]);
  }
  const range = (pools: PoolType[]) =>
    create(BlockRangeSchema, {
      start: { height: BigInt(model.baseHeight) },
      end: { height: BigInt(model.tipHeight) },
      poolTypes: pools,
    });
  const rangeJson = (pools: string[]): JsonValue => ({
    start: { height: String(model.baseHeight) },
    end: { height: String(model.tipHeight) },
    ...(pools.length ? { poolTypes: pools } : {}),
  });
  await blockAnswer("GetBlockRange", range([]), rangeJson([]), all);
  await blockAnswer("GetBlockRange", range([PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD]), rangeJson(["TRANSPARENT", "SAPLING", "ORCHARD"]), all);
  await blockAnswer("GetBlockRangeNullifiers", range([]), rangeJson([]), all);
  for (const b of model.blocks) {
    for (let i = 0; i < b.block.transactions.length; i++)
      checks.push(await transactionCheck(ctx, lwd, ask, b.block.txids[i]!, b.block.rawTransactions[i]!, b.block.transactions[i]!.version, b.height));
  }
  return checks;
}

type Ask = (name: string, request: Message, requestJson: JsonValue) => Promise<{ method: DescMethod; lwd: GrpcObservation; oracle: GrpcObservation }>;

/**
 * GetTransaction by the real txid. Where darkside does not find a v5+ transaction by it,
 * the same transaction asked by its double-SHA256 must give the oracle's answer exactly:
 * then the only difference is darkside's txid.
 */
async function transactionCheck(
  ctx: DarksideContext,
  lwd: GrpcTarget,
  ask: Ask,
  txid: Uint8Array,
  raw: Uint8Array,
  version: number,
  height: number,
): Promise<DarksideCheck> {
  const json = { hash: Buffer.from(txid).toString("base64") };
  const a = await ask("GetTransaction", create(TxFilterSchema, { hash: txid }), json);
  const c = check(ctx, a.method, json, [height], a.lwd, a.oracle, () => null);
  if (c.result === "equal" || version < 5 || a.lwd.code !== 5) return c;
  const byDarksideId = await lwd.call(a.method, create(TxFilterSchema, { hash: sha256d(raw) }));
  const again = check(ctx, a.method, json, [height], byDarksideId, a.oracle, () => null);
  if (again.result !== "equal") return c;
  return { ...c, result: "explained", differences: c.differences.map((d) => ({ ...d, explanation: "darkside-txid", explainedBy: "darkside" as const })) };
}
