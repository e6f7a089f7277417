// Wire cost per transport: the same chain data fetched over gRPC and over JSON-RPC from a
// build that serves both, with the bytes each answer took and the time to turn it into
// something a client can use. This lives beside the latency probe because both measure
// what a transport costs rather than what an answer says; `zconform wirecost` is its own
// command because a user asks "how big" separately from "how slow".
//
// Bytes are the answer's payload: gRPC frames (5-byte prefix + message) or the JSON-RPC
// body; HTTP/2 and HTTP/1.1 framing and headers are not counted. Decode time is the
// median over repeated decodes of one captured answer:
//   gRPC:     fromBinary of the message; for GetTransaction also the Zcash decode of
//             its raw bytes (what a client does next)
//   JSON-RPC: JSON.parse; for hex results (getblock 0, getrawtransaction 0) also the hex
//             decode and the Zcash block or transaction decode.

import { fromBinary, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { CompactBlockSchema } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import { RawTransactionSchema, TreeStateSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { MissingAnchorError, resolveAnchors, type Anchors } from "../../core/corpus/anchors.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { grpcCodeName } from "../../core/targets/grpc-status.js";
import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { decodeBlock, decodeTransaction, hexToBytes } from "../../zcash/codec/index.js";
import { probeSpec } from "./probe.js";
import { percentile } from "./stats.js";

type Decoder = (answer: Uint8Array) => unknown;

interface Variant {
  transport: "grpc" | "jsonrpc";
  /** gRPC: rpc name; JSON-RPC: method. */
  call: string;
  /** gRPC: the request in protobuf JSON; JSON-RPC: the params. */
  request: JsonValue;
  decodedInto: string;
  decode: Decoder;
}

export interface WireItem {
  data: string;
  variants: Variant[];
}

const grpcDecode =
  (schema: DescMessage): Decoder =>
  (b) =>
    fromBinary(schema, b);
const jsonResult = (b: Uint8Array) => (JSON.parse(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8")) as { result?: unknown }).result;
/** The result as bytes from hex; a build that answers an object here (Zaino's verbose 0) does not decode. */
const hexResult = (b: Uint8Array): Uint8Array => {
  const r = jsonResult(b);
  if (typeof r !== "string")
    throw new Error(
      `the result is ${r === null ? "null" : Array.isArray(r) ? "an array" : `a${typeof r === "object" ? "n object" : ` ${typeof r}`}`}, not hex`,
    );
  return hexToBytes(r);
};

export const WIRE_ITEMS: readonly WireItem[] = [
  {
    data: "block ${block_many_txs}",
    variants: [
      { transport: "grpc", call: "GetBlock", request: { height: "${block_many_txs}" }, decodedInto: "CompactBlock", decode: grpcDecode(CompactBlockSchema) },
      {
        transport: "jsonrpc",
        call: "getblock",
        request: ["${block_many_txs|str}", 0],
        decodedInto: "full block (hex → decoded block)",
        decode: (b) => decodeBlock(hexResult(b)),
      },
      { transport: "jsonrpc", call: "getblock", request: ["${block_many_txs|str}", 1], decodedInto: "block object (txids only)", decode: jsonResult },
    ],
  },
  {
    data: "transaction ${txid_sapling_v4}",
    variants: [
      {
        transport: "grpc",
        call: "GetTransaction",
        request: { hash: "${txid_sapling_v4|le}" },
        decodedInto: "RawTransaction → decoded transaction",
        decode: (b) => decodeTransaction(fromBinary(RawTransactionSchema, b).data),
      },
      {
        transport: "jsonrpc",
        call: "getrawtransaction",
        request: ["${txid_sapling_v4}", 0],
        decodedInto: "hex → decoded transaction",
        decode: (b) => decodeTransaction(hexResult(b)),
      },
      { transport: "jsonrpc", call: "getrawtransaction", request: ["${txid_sapling_v4}", 1], decodedInto: "transaction object", decode: jsonResult },
    ],
  },
  {
    data: "tree state at ${tip}",
    variants: [
      { transport: "grpc", call: "GetTreeState", request: { height: "${tip}" }, decodedInto: "TreeState", decode: grpcDecode(TreeStateSchema) },
      { transport: "jsonrpc", call: "z_gettreestate", request: ["${tip|str}"], decodedInto: "tree state object", decode: jsonResult },
    ],
  },
];

export interface WireRow {
  data: string;
  build: string;
  transport: "grpc" | "jsonrpc";
  call: string;
  request: JsonValue;
  status: string;
  /** Payload bytes of the answer (see the file header). */
  wireBytes: number;
  /** Median call time, ms. */
  callMs: number;
  /** Median decode time, ms (NaN when the answer failed or does not decode). */
  decodeMs: number;
  decodedInto: string;
  decodeError?: string;
}

/** Median ms of `fn`, each sample a loop of enough runs to last about 2 ms, after ~20 ms of warm-up. */
export function timeDecode(fn: () => unknown, samples = 9): number {
  for (const t = performance.now(); performance.now() - t < 20; ) fn();
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) fn();
    if (performance.now() - t >= 2 || reps >= 1 << 16) break;
    reps *= 2;
  }
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) fn();
    times.push((performance.now() - t) / reps);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

export interface WireBuild {
  name: string;
  grpc: GrpcTarget;
  jsonrpc: JsonRpcTarget;
}

async function measure(b: WireBuild, data: string, v: Variant, anchors: Anchors, calls: number): Promise<WireRow | { skipped: string }> {
  let request: JsonValue;
  try {
    request = resolveAnchors(v.request, anchors) as JsonValue;
  } catch (e) {
    if (e instanceof MissingAnchorError) return { skipped: `the chain has no anchor "${e.anchor}"` };
    throw e;
  }
  const times: number[] = [];
  let answer: Uint8Array | undefined;
  let status = "OK";
  let wireBytes = 0;
  for (let i = 0; i < calls; i++) {
    if (v.transport === "grpc") {
      const spec = probeSpec(v.call, anchors, v.request);
      if ("skipped" in spec) return spec;
      const obs = await b.grpc.call(spec.rpc, spec.request, { deadlineMs: 30_000 });
      times.push(obs.timing.totalMs);
      wireBytes = obs.wireBytes;
      status = obs.fault ? `${grpcCodeName(obs.code)} (${obs.fault.kind})` : grpcCodeName(obs.code);
      answer = obs.code === 0 && obs.messages.length === 1 ? obs.messages[0] : undefined;
    } else {
      const obs = await b.jsonrpc.call(v.call, request as unknown[], { id: 1 });
      times.push(obs.timing.totalMs);
      wireBytes = obs.wireBytes;
      const parsed = obs.fault ? undefined : (JSON.parse(Buffer.from(obs.body).toString("utf8")) as { error?: { code?: number } | null });
      status = obs.fault ? `fault ${obs.fault.kind}` : parsed?.error ? `error ${parsed.error.code}` : "OK";
      answer = status === "OK" ? obs.body : undefined;
    }
  }
  const row: WireRow = {
    data,
    build: b.name,
    transport: v.transport,
    call: v.call,
    request,
    status,
    wireBytes,
    callMs: percentile(
      times.sort((x, y) => x - y),
      50,
    ),
    decodeMs: NaN,
    decodedInto: v.decodedInto,
  };
  if (answer) {
    const a = answer;
    try {
      v.decode(a);
      row.decodeMs = timeDecode(() => v.decode(a));
    } catch (e) {
      row.decodeError = (e as Error).message;
    }
  }
  return row;
}

export async function runWireCost(builds: readonly WireBuild[], anchors: Anchors, calls: number): Promise<{ rows: WireRow[]; skipped: string[] }> {
  const rows: WireRow[] = [];
  const skipped: string[] = [];
  // One build at a time: decode timings are CPU-bound and must not share the core.
  for (const b of builds) {
    for (const item of WIRE_ITEMS) {
      let data: string;
      try {
        data = String(resolveAnchors(item.data, anchors));
      } catch (e) {
        if (!(e instanceof MissingAnchorError)) throw e;
        skipped.push(`${item.data}: the chain has no anchor "${e.anchor}"`);
        continue;
      }
      for (const v of item.variants) {
        const r = await measure(b, data, v, anchors, calls);
        if ("skipped" in r) skipped.push(`${b.name} ${v.call}: ${r.skipped}`);
        else rows.push(r);
      }
    }
  }
  return { rows, skipped: [...new Set(skipped)] };
}
