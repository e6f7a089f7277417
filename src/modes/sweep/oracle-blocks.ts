// The oracle's side of a sweep: for each height, the CompactBlock a spec-correct
// (lightwallet-protocol v0.5.0) GetBlockRange sends, derived from Zebra JSON-RPC the way
// src/zcash/oracle derives GetBlockRange: `getblock <height> 1` for the hash and the tree sizes,
// `getblock <hash> 0` for the bytes (by the hash the first call gave, so a reorganization
// between the two cannot mix blocks), then src/zcash/codec's compactBlock with the requested
// pools. Heights are asked for in JSON-RPC batches (one HTTP request per batch and
// verbosity, through the shared JSON-RPC client's batch) instead of two round trips per
// block. A node that does not answer batches (the body is not an array) is asked call by
// call, a few calls at a time.

import { toBinary } from "@bufbuild/protobuf";
import { CompactBlockSchema } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import type { PoolType } from "../../zcash/gen/walletrpc/service_pb.js";
import type { JsonRpcEndpoint } from "../../core/targets/endpoint.js";
import { describeEndpoint } from "../../core/targets/endpoint.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { JsonRpcObservation } from "../../core/targets/observation.js";
import { compactBlock, decodeBlock, displayHex, hexToBytes } from "../../zcash/codec/index.js";

export const DEFAULT_ORACLE_BATCH = 100;

export class OracleBlockError extends Error {
  constructor(
    readonly height: number,
    message: string,
  ) {
    super(`oracle, height ${height}: ${message}`);
    this.name = "OracleBlockError";
  }
}

export interface OracleBlocks {
  readonly label: string;
  /** Compact block bytes for each height, in order; throws OracleBlockError. */
  fetch(heights: readonly number[]): Promise<Uint8Array[]>;
  close(): Promise<void>;
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

/** A batch of raw blocks has no useful size limit: the heights per batch bound it. */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The parsed body of a good answer; a fault is thrown with the client's detail. */
function parsed(obs: JsonRpcObservation): unknown {
  if (obs.fault)
    throw new Error(obs.fault.kind === "http-status" ? `${obs.fault.detail}: ${Buffer.from(obs.body).toString("utf8").slice(0, 200)}` : obs.fault.detail);
  return JSON.parse(Buffer.from(obs.body).toString("utf8"));
}

export function oracleBlocks(endpoint: JsonRpcEndpoint, poolTypes: readonly PoolType[], opts: { deadlineMs?: number } = {}): OracleBlocks {
  const target = jsonRpcTarget(endpoint, { connections: 4, deadlineMs: opts.deadlineMs ?? 120_000, maxMessageBytes: UNLIMITED });
  let batches = true;

  /** One answer per call, in call order. */
  async function calls(method: string, params: unknown[][]): Promise<RpcAnswer[]> {
    if (batches) {
      const obs = await target.batch(method, params);
      if (obs.fault?.kind !== "wrong-id") {
        const answer = parsed(obs) as (RpcAnswer & { id?: unknown })[];
        const byId = new Map<unknown, RpcAnswer>(answer.map((a) => [a.id, a]));
        return params.map((_, id) => byId.get(id) ?? { error: { message: "missing from the batch answer" } });
      }
      batches = false;
    }
    const out: RpcAnswer[] = [];
    for (let i = 0; i < params.length; i += 8) {
      const part = params.slice(i, i + 8).map(async (p) => parsed(await target.call(method, p, { id: 1 })) as RpcAnswer);
      out.push(...(await Promise.all(part)));
    }
    return out;
  }

  function result(a: RpcAnswer, height: number, what: string): unknown {
    if (a.error) throw new OracleBlockError(height, `${what}: error ${String(a.error.code)} ${String(a.error.message)}`);
    return a.result;
  }

  return {
    label: describeEndpoint(endpoint),
    async fetch(heights) {
      let infos: RpcAnswer[];
      try {
        infos = await calls(
          "getblock",
          heights.map((h) => [String(h), 1]),
        );
      } catch (e) {
        throw new OracleBlockError(heights[0]!, `getblock … 1: ${(e as Error).message}`);
      }
      const meta = heights.map((h, i) => {
        const info = result(infos[i]!, h, `getblock ${h} 1`) as { hash?: unknown; height?: unknown; trees?: Record<string, { size?: number } | undefined> };
        if (typeof info?.hash !== "string" || info.height !== h) throw new OracleBlockError(h, `getblock ${h} 1 gave no hash or another height`);
        const size = (pool: string) => info.trees?.[pool]?.size ?? 0;
        return { hash: info.hash.toLowerCase(), sizes: { sapling: size("sapling"), orchard: size("orchard"), ironwood: size("ironwood") } };
      });
      let raws: RpcAnswer[];
      try {
        raws = await calls(
          "getblock",
          meta.map((m) => [m.hash, 0]),
        );
      } catch (e) {
        throw new OracleBlockError(heights[0]!, `getblock <hash> 0: ${(e as Error).message}`);
      }
      return heights.map((h, i) => {
        const hex = result(raws[i]!, h, `getblock ${meta[i]!.hash} 0`);
        if (typeof hex !== "string") throw new OracleBlockError(h, "getblock <hash> 0 did not return hex");
        const block = decodeBlock(hexToBytes(hex));
        if (displayHex(block.hash) !== meta[i]!.hash) throw new OracleBlockError(h, `getblock ${meta[i]!.hash} 0 returned block ${displayHex(block.hash)}`);
        return toBinary(CompactBlockSchema, compactBlock(block, { poolTypes, chainMetadata: meta[i]!.sizes, height: h }));
      });
    },
    close: () => target.close(),
  };
}
