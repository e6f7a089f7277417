// Test helper: planned cases for the deriver, gRPC calls to a fixture server, and the
// comparison of the two answers with compareObservations (so that a failure names the
// field paths that differ).

import { create, type DescMethod, type Message } from "@bufbuild/protobuf";
import { expect } from "@jest/globals";
import type { Case } from "../../core/corpus/case.js";
import { compareObservations } from "../../core/diff/compare.js";
import type { Divergence } from "../../core/diff/divergence.js";
import { CompactTxStreamer } from "../gen/walletrpc/service_pb.js";
import type { PlannedCase } from "../../core/run/plan.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { GrpcObservation, Observation } from "../../core/targets/observation.js";
import type { GrpcDeriver } from "./source.js";
import { UNORDERED_RPCS, type RpcName } from "./underivable.js";

export function rpcOf(name: RpcName): DescMethod {
  const m = CompactTxStreamer.methods.find((x) => x.name === name);
  if (!m) throw new Error(`no rpc ${name}`);
  return m;
}

/** A request message of the rpc's input type. */
export function request(name: RpcName, init: Record<string, unknown> = {}): Message {
  return create(rpcOf(name).input, init as never) as Message;
}

export type Req = Message | Uint8Array | (Message | Uint8Array)[];

export function plannedCase(name: RpcName, req: Req, id = "test"): PlannedCase {
  const c: Case = {
    id: `${name}/${id}`,
    transport: "grpc",
    method: name,
    request: {},
    expect: { kind: "oracle" },
    volatile: [],
    unordered: UNORDERED_RPCS.has(name),
    tags: [],
    source: { file: "(test)", line: 0 },
  };
  return { case: c, rpc: rpcOf(name), request: req };
}

export async function derived(derive: GrpcDeriver, name: RpcName, req: Req): Promise<GrpcObservation> {
  const obs = await derive(plannedCase(name, req));
  if (obs === undefined) throw new Error(`${name}: the oracle derived nothing`);
  if (obs.transport !== "grpc") throw new Error(`${name}: not a gRPC observation`);
  return obs;
}

export interface CompareOpts {
  volatile?: string[];
  unordered?: boolean;
}

export function divergences(name: RpcName, oracle: Observation, build: Observation, o: CompareOpts = {}, right = "build"): readonly Divergence[] {
  return compareObservations(oracle, build, {
    left: "oracle",
    right,
    method: rpcOf(name),
    volatile: o.volatile ?? [],
    unordered: o.unordered ?? UNORDERED_RPCS.has(name),
  }).divergences;
}

/** Only what a failure message needs: kind, path and detail. */
export function brief(ds: readonly Divergence[]): { kind: string; path: string; detail?: string }[] {
  return ds.map((d) => ({ kind: d.kind, path: d.path, ...(d.detail ? { detail: d.detail } : {}) }));
}

/**
 * The oracle's answer and the server's for one request, compared. Error answers are
 * compared by code (their texts differ by design: the oracle's start with "oracle: ");
 * `error` says whether the answer is meant to be one.
 */
export async function expectSameAnswer(
  derive: GrpcDeriver,
  server: GrpcTarget,
  name: RpcName,
  req: Req,
  o: CompareOpts & { error?: boolean } = {},
): Promise<GrpcObservation> {
  const [mine, theirs] = await Promise.all([derived(derive, name, req), server.call(rpcOf(name), req)]);
  expect(theirs.fault).toBeUndefined();
  expect(mine.fault).toBeUndefined();
  const volatile = [...(o.volatile ?? []), ...(o.error ? ["status.message"] : [])];
  expect({ request: label(name, req), divergences: brief(divergences(name, mine, theirs, { ...o, volatile })) }).toEqual({
    request: label(name, req),
    divergences: [],
  });
  expect({ request: label(name, req), failed: mine.code !== 0 }).toEqual({ request: label(name, req), failed: o.error ?? false });
  return mine;
}

function label(name: RpcName, req: Req): string {
  const one = (r: Message | Uint8Array) =>
    r instanceof Uint8Array
      ? `wire ${Buffer.from(r).toString("hex")}`
      : JSON.stringify(r, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v));
  return `${name} ${Array.isArray(req) ? `[${req.map(one).join(", ")}]` : one(req)}`;
}

/** A JSON-RPC target that records the methods it is asked. */
export function recording(target: JsonRpcTarget): { target: JsonRpcTarget; calls: { method: string; params: readonly unknown[] }[] } {
  const calls: { method: string; params: readonly unknown[] }[] = [];
  return {
    calls,
    target: {
      ...target,
      url: target.url,
      endpoint: target.endpoint,
      call: (method, params = [], opts) => {
        calls.push({ method, params });
        return target.call(method, params, opts);
      },
      close: () => target.close(),
      abort: () => target.abort(),
    },
  };
}
