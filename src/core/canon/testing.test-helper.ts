// Builders of synthetic observations for tests of canon and diff (and of whatever
// consumes them): only the fields those modules read are meaningful.

import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { CompactBlockSchema, CompactTxSchema, type CompactBlock } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import type { Fault, GrpcObservation, JsonRpcObservation } from "../targets/observation.js";

const timing = { startedAt: 0, totalMs: 1 };

export function grpcObs(messages: Uint8Array[], status: { code?: number; message?: string; method?: string; fault?: Fault } = {}): GrpcObservation {
  return {
    transport: "grpc",
    method: status.method ?? "Test",
    code: status.code ?? 0,
    message: status.message ?? "",
    messages,
    headers: {},
    trailers: {},
    wireBytes: messages.reduce((n, m) => n + 5 + m.length, 0),
    timing,
    fault: status.fault,
  };
}

/** Encodes messages of one schema with toBinary. */
export function encodeAll<D extends DescMessage>(schema: D, msgs: MessageShape<D>[]): Uint8Array[] {
  return msgs.map((m) => toBinary(schema, m));
}

export function rpcObs(body: string | Uint8Array, httpStatus = 200, fault?: Fault): JsonRpcObservation {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return { transport: "jsonrpc", method: "test", httpStatus, body: bytes, wireBytes: bytes.length, timing, fault };
}

export function bytes(...parts: (number | number[] | Uint8Array)[]): Uint8Array {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === "number") out.push(p);
    else out.push(...p);
  }
  return new Uint8Array(out);
}

/** Deterministic filler bytes: seed, seed+1, … (mod 256). */
export function seq(n: number, seed = 1): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (seed + i) & 0xff);
}

/** A compact block shaped like a real one (two transactions, Sapling outputs, Orchard
 * actions, transparent parts, tree sizes); the contents are synthetic. */
export function sampleBlock(height: number, seed = height): CompactBlock {
  const tx = (i: number) =>
    create(CompactTxSchema, {
      index: BigInt(i),
      txid: seq(32, seed + i),
      fee: 10000 + i,
      spends: [{ nf: seq(32, seed + 40 + i) }],
      outputs: [
        { cmu: seq(32, seed + 50 + i), ephemeralKey: seq(32, seed + 60 + i), ciphertext: seq(52, seed + 70 + i) },
        { cmu: seq(32, seed + 80 + i), ephemeralKey: seq(32, seed + 90 + i), ciphertext: seq(52, seed + 100 + i) },
      ],
      actions: [
        { nullifier: seq(32, seed + 110 + i), cmx: seq(32, seed + 120 + i), ephemeralKey: seq(32, seed + 130 + i), ciphertext: seq(52, seed + 140 + i) },
      ],
      vin: i === 0 ? [] : [{ prevoutTxid: seq(32, seed + 150 + i), prevoutIndex: i }],
      vout: [{ value: 100000n * BigInt(i + 1), scriptPubKey: seq(25, seed + 160 + i) }],
    });
  return create(CompactBlockSchema, {
    height: BigInt(height),
    hash: seq(32, seed),
    prevHash: seq(32, seed + 7),
    time: 1700000000 + height,
    vtx: [tx(0), tx(1)],
    chainMetadata: { saplingCommitmentTreeSize: 1000 + height, orchardCommitmentTreeSize: 500 + height },
  });
}
