// Coverage of the protocol by a corpus: for each rpc, request field, enum value and
// JSON-RPC method, how many cases exercise it, and which ones none does; and, where the
// protocol says so, which of those methods each real server version serves. Requests are
// planned with a chain profile's anchors exactly as a run would plan them, so a case
// counts by the request a server would receive.

import type { Case } from "../../core/corpus/case.js";
import { frozenAnchors, type ChainProfile } from "../../core/corpus/chain-profile.js";
import { planCases, type GrpcPlannedRequest } from "../../core/run/plan.js";
import type { Protocol } from "../../core/run/protocol.js";
import { inventory } from "./inventory.js";
import { formatServed, servedCoverage, type JsonRpcServedBy, type ServedCoverage } from "./served.js";
import { emptyExercised, walkRequest } from "./walk.js";

export interface Coverage {
  chain: string;
  cases: number;
  /** Cases whose requests were planned on the chain (and so walked). */
  planned: number;
  /**
   * Cases not planned on the chain, each with why: `unplannable` (an anchor the chain
   * profile lacks) or `other-chains` (the case declares `chains:` without this one). Their
   * rpc counts, their fields do not.
   */
  skipped: { id: string; kind: "unplannable" | "other-chains"; reason: string }[];
  /** Where the dynamic anchors (the live tip) stood for planning, when the profile has them. */
  frozenTip?: { height: number; hash: string };
  /**
   * Cases planned with a value a run takes from the oracle's mempool at its start (a
   * `mempool_txid` dynamic anchor; planned here with a placeholder): a run skips them,
   * saying so, when that mempool is empty.
   */
  atRunStart: { id: string; anchor: string }[];
  rpcs: { name: string; cases: number }[];
  /** Per field path, the cases that set it, per rpc whose request reaches it. */
  fields: { path: string; cases: number; byRpc: Record<string, number> }[];
  enumValues: { name: string; cases: number }[];
  jsonrpcMethods: { name: string; cases: number }[];
  /** Per real server version the protocol names, which of the JSON-RPC methods it serves, read from its source. */
  jsonrpcServedBy: ServedCoverage[];
  unexercised: {
    rpcs: string[];
    fields: string[];
    /** `Rpc Field.path` for fields some rpc reaches but none of its cases sets. */
    fieldsByRpc: string[];
    enumValues: string[];
    jsonrpcMethods: string[];
  };
  /** Raw requests that did not decode as their rpc's request type. */
  undecodable: number;
}

export function coverageOf(cases: readonly Case[], chain: ChainProfile, protocol: Pick<Protocol, "service" | "jsonRpcMethods"> & JsonRpcServedBy): Coverage {
  const inv = inventory(protocol);
  const planned = planCases(cases, frozenAnchors(chain), chain.name, protocol);
  const withoutMempool = planCases(cases, frozenAnchors(chain, { mempool: false }), chain.name, protocol);
  const mempoolAnchors = Object.entries(chain.dynamic)
    .filter(([, kind]) => kind === "mempool_txid")
    .map(([name]) => name);
  const atRunStart = withoutMempool.flatMap((pc, i) => {
    const anchor = mempoolAnchors.find((a) => pc.skipped?.endsWith(`no anchor "${a}"`));
    return anchor && !planned[i]!.skipped ? [{ id: pc.case.id, anchor }] : [];
  });
  const count = new Map<string, number>();
  const bump = (key: string) => count.set(key, (count.get(key) ?? 0) + 1);
  const skipped: Coverage["skipped"] = [];
  let undecodable = 0;
  for (const pc of planned) {
    const c = pc.case;
    bump(`${c.transport} ${c.method}`);
    if (pc.skipped) {
      skipped.push({ id: c.id, kind: c.chains && !c.chains.includes(chain.name) ? "other-chains" : "unplannable", reason: pc.skipped });
      continue;
    }
    if (c.transport !== "grpc" || !pc.rpc) continue;
    const seen = emptyExercised();
    walkRequest(pc.rpc.input, pc.request as GrpcPlannedRequest, seen);
    undecodable += seen.undecodable;
    for (const f of seen.fields) {
      bump(`field ${f}`);
      bump(`field ${pc.rpc.name} ${f}`);
    }
    for (const e of seen.enumValues) bump(`enum ${e}`);
  }
  const n = (key: string) => count.get(key) ?? 0;
  const rpcs = inv.rpcs.map((m) => ({ name: m.name, cases: n(`grpc ${m.name}`) }));
  const fields = inv.fields.map((f) => ({
    path: f.path,
    cases: n(`field ${f.path}`),
    byRpc: Object.fromEntries(f.rpcs.map((r) => [r, n(`field ${r} ${f.path}`)])),
  }));
  const enumValues = inv.enumValues.map((e) => ({ name: e.name, cases: n(`enum ${e.name}`) }));
  const jsonrpcMethods = inv.jsonrpcMethods.map((m) => ({ name: m, cases: n(`jsonrpc ${m}`) }));
  // A field only matters for an rpc that has cases at all; an rpc without any is listed once, above.
  const fieldsByRpc = fields.flatMap((f) =>
    Object.entries(f.byRpc)
      .filter(([rpc, k]) => k === 0 && f.cases > 0 && n(`grpc ${rpc}`) > 0)
      .map(([rpc]) => `${rpc} ${f.path}`),
  );
  return {
    chain: chain.name,
    cases: cases.length,
    planned: planned.length - skipped.length,
    skipped,
    ...(Object.keys(chain.dynamic).length > 0 && chain.frozenAt !== undefined && chain.frozenHash !== undefined
      ? { frozenTip: { height: chain.frozenAt, hash: chain.frozenHash } }
      : {}),
    atRunStart,
    rpcs,
    fields,
    enumValues,
    jsonrpcMethods,
    jsonrpcServedBy: servedCoverage(inv.jsonrpcMethods, protocol.jsonRpcServedBy ?? []),
    unexercised: {
      rpcs: rpcs.filter((r) => r.cases === 0).map((r) => r.name),
      fields: fields.filter((f) => f.cases === 0).map((f) => f.path),
      fieldsByRpc,
      enumValues: enumValues.filter((e) => e.cases === 0).map((e) => e.name),
      jsonrpcMethods: jsonrpcMethods.filter((m) => m.cases === 0).map((m) => m.name),
    },
    undecodable,
  };
}

/** The text the command prints: totals, then every gap. */
export function formatCoverage(c: Coverage): string[] {
  const ratio = (covered: number, total: number) => `${covered}/${total}`;
  const u = c.unexercised;
  const section = (title: string, items: readonly string[]) => (items.length === 0 ? [] : ["", `${title}:`, ...items.map((i) => `  ${i}`)]);
  const skipped = (kind: Coverage["skipped"][number]["kind"]) => c.skipped.filter((s) => s.kind === kind).map((s) => `${s.id}: ${s.reason}`);
  const unplannable = skipped("unplannable");
  const elsewhere = skipped("other-chains");
  return [
    `corpus coverage on chain ${c.chain}: ${c.cases} cases, ${c.planned} planned, ${unplannable.length} not plannable, ${elsewhere.length} for other chains only`,
    ...(c.frozenTip ? [`  the live tip is planned at the profile's frozen block ${c.frozenTip.height} (${c.frozenTip.hash}); a run asks the oracle`] : []),
    ...(c.atRunStart.length > 0
      ? [`  ${c.atRunStart.length} planned cases take a transaction from the oracle's mempool at run start; a run skips them, saying so, when it is empty`]
      : []),
    `  gRPC rpcs          ${ratio(c.rpcs.length - u.rpcs.length, c.rpcs.length)}`,
    `  request fields     ${ratio(c.fields.length - u.fields.length, c.fields.length)}`,
    `  enum values        ${ratio(c.enumValues.length - u.enumValues.length, c.enumValues.length)}`,
    `  JSON-RPC methods   ${ratio(c.jsonrpcMethods.length - u.jsonrpcMethods.length, c.jsonrpcMethods.length)}`,
    ...section("cases not plannable on this chain (their fields are not counted)", unplannable),
    ...section("cases declared for other chains", elsewhere),
    ...section(
      "cases planned with a mempool transaction the run takes from the oracle",
      c.atRunStart.map((a) => `${a.id}: \${${a.anchor}}`),
    ),
    ...section("rpcs without a case", u.rpcs),
    ...section("request fields no case sets to a non-default value", u.fields),
    ...section("fields set for some rpcs but not these", u.fieldsByRpc),
    ...section("enum values no request carries", u.enumValues),
    ...section("JSON-RPC methods without a case", u.jsonrpcMethods),
    ...section("JSON-RPC methods each server version serves (from its source)", formatServed(c.jsonrpcServedBy, c.jsonrpcMethods.length)),
    ...(c.undecodable > 0 ? ["", `${c.undecodable} raw request message(s) did not decode; they count for their rpc only`] : []),
  ];
}
