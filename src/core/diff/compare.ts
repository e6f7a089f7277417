// compareObservations: the one comparison policy, readable in one place.
//   1. Wire bytes: same status and byte-identical messages (or body) → no divergence,
//      nothing decoded.
//   2. Otherwise canonicalize both sides (volatile fields cut, unordered streams sorted)
//      and classify: status / error codes, message count, order, whole-stream
//      multiplicity, then field by field (byte order, multiplicity, shape, presence,
//      value), and encoding-only when values are equal but bytes are not.
//   3. A JSON Patch between the two JSON forms, for reports.
// A difference in anything not declared volatile always yields at least one divergence.

import type { DescMessage, DescMethod, JsonValue } from "@bufbuild/protobuf";
import { bytesEqual, canonOf, sameCanonical, type Canonical } from "../canon/index.js";
import { grpcJson, materialize, type GrpcCanonical } from "../canon/grpc.js";
import type { Exclusion } from "../canon/volatile.js";
import type { Observation } from "../targets/observation.js";
import { compareGrpcDetailed, sameGrpcWire } from "./compare-grpc.js";
import { compareJsonRpc, sameJsonRpcWire } from "./compare-json.js";
import type { Divergence } from "./divergence.js";
import { jsonPatch, type PatchOp } from "./patch.js";
import type { SequenceOutcome } from "./sequence.js";

export interface CompareOptions {
  /** Names of the two sides: build names, "oracle" or "expected". Left is the reference. */
  left: string;
  right: string;
  /** gRPC: the rpc (gives the output schema and whether it streams) … */
  method?: DescMethod;
  /** … or the output schema and the streaming flag. */
  schema?: DescMessage;
  streaming?: boolean;
  /** The case's declarations. */
  volatile?: readonly string[];
  unordered?: boolean;
  /** JSON-RPC objects whose key order is not compared. */
  unorderedKeys?: readonly string[];
  /** A stream the client may have ended after a quiet period (see canon/grpc.ts). */
  openEnded?: boolean;
  /** A stream the client cancels after this many messages (see canon/grpc.ts). */
  cancelAfter?: number;
  /** Compute the JSON Patch; default true. */
  patch?: boolean;
}

export interface Comparison {
  left: string;
  right: string;
  /** Byte-identical on the wire; nothing was decoded. */
  identical: boolean;
  divergences: readonly Divergence[];
  /** What the volatile declarations removed from each side. */
  excluded: { left: readonly Exclusion[]; right: readonly Exclusion[] };
  /** The declared volatile paths. */
  volatile: readonly string[];
  /** Whether stream messages were sorted before comparison (declared unordered). */
  unordered: boolean;
  /** RFC 6902 operations from the left JSON form to the right one, for reading (see
   * patchOf for streams); empty when nothing diverges, and for a JSON-RPC body over 1 MiB. */
  patch: readonly PatchOp[];
}

const NONE: readonly never[] = Object.freeze([]);
/** The largest JSON-RPC body a patch is made for (the size above which reports keep an answer elided). */
const PATCHED_JSONRPC_BYTES = 1024 * 1024;
const NO_EXCLUSIONS = Object.freeze({ left: NONE, right: NONE });

export function compareObservations(a: Observation, b: Observation, o: CompareOptions): Comparison {
  if (a.transport !== b.transport) throw new Error(`cannot compare a ${a.transport} answer with a ${b.transport} answer`);
  const same = a.transport === "grpc" ? sameGrpcWire(a, b as typeof a) : sameJsonRpcWire(a, b as typeof a);
  const volatile = o.volatile ?? NONE;
  if (same) return { left: o.left, right: o.right, identical: true, divergences: NONE, excluded: NO_EXCLUSIONS, volatile, unordered: false, patch: NONE };
  const schema = o.method?.output ?? o.schema;
  const streaming = o.method ? o.method.methodKind === "server_streaming" || o.method.methodKind === "bidi_streaming" : o.streaming;
  const opts = {
    schema,
    streaming,
    volatile,
    unordered: o.unordered,
    lazy: true,
    ...(o.openEnded ? { openEnded: true } : {}),
    ...(o.unorderedKeys ? { unorderedKeys: o.unorderedKeys } : {}),
    ...(o.cancelAfter !== undefined ? { cancelAfter: o.cancelAfter } : {}),
  };
  return compareCanonical(canonOf(a, opts), canonOf(b, opts), o);
}

export function compareCanonical(a: Canonical, b: Canonical, o: { left: string; right: string; patch?: boolean }): Comparison {
  const s = { left: o.left, right: o.right };
  let divergences: Divergence[];
  let sequence: SequenceOutcome | undefined;
  if (a.transport === "grpc" && b.transport === "grpc") ({ divergences, sequence } = compareGrpcDetailed(a, b, s));
  else if (a.transport === "jsonrpc" && b.transport === "jsonrpc") divergences = compareJsonRpc(a, b, s);
  else throw new Error(`cannot compare a ${a.transport} answer with a ${b.transport} answer`);
  if (divergences.length === 0 && !sameCanonical(a, b)) {
    divergences.push({ kind: "value", path: "", left: s.left, right: s.right, detail: "compared bytes differ (no finer classification)" });
  }
  return {
    left: o.left,
    right: o.right,
    identical: wireIdentical(a, b),
    divergences,
    excluded: { left: a.excluded, right: b.excluded },
    volatile: a.volatile,
    unordered: a.transport === "grpc" && a.unordered,
    patch: o.patch === false || divergences.length === 0 ? NONE : patchOf(a, b, sequence),
  };
}

/**
 * The patch between two answers. For a stream it is built message by message, over the
 * messages that differ (paired ones, and those only one side has), so that one changed
 * block in a long range costs one block's JSON; for a stream that only differs in order
 * or repetition it is empty, the divergence says it all. Paths use left indexes.
 */
function patchOf(a: Canonical, b: Canonical, sequence: SequenceOutcome | undefined): PatchOp[] {
  // Reports keep no JSON of a JSON-RPC answer above 1 MiB; a patch would copy all of it.
  if (a.transport === "jsonrpc" && b.transport === "jsonrpc" && Math.max(a.raw.length, b.raw.length) > PATCHED_JSONRPC_BYTES) return [];
  if (a.transport !== "grpc" || b.transport !== "grpc" || !a.streaming) return jsonPatch(jsonForm(a), jsonForm(b));
  const json = (c: GrpcCanonical, i: number) => materialize(c.messages[i]!, c.schema).json!;
  const all = (n: number) => Array.from({ length: n }, (_, i) => i);
  const seq = sequence ?? { kind: "differ" as const, pairs: [], leftOnly: all(a.messages.length), rightOnly: all(b.messages.length) };
  if (seq.kind !== "differ") return [];
  const ops: PatchOp[] = [];
  for (const [i, j] of seq.pairs) for (const op of jsonPatch(json(a, i), json(b, j))) ops.push({ ...op, path: `/${i}${op.path}` });
  for (const i of seq.leftOnly) ops.push({ op: "remove", path: `/${i}`, old: json(a, i) });
  for (const j of seq.rightOnly) ops.push({ op: "add", path: `/${j}`, value: json(b, j) });
  return ops;
}

/** The JSON document a report shows for an answer. */
export function jsonForm(c: Canonical): JsonValue {
  if (c.transport === "grpc") return grpcJson(c);
  return c.body ?? { $notJson: c.notJson ?? "", bytes: Buffer.from(c.raw).toString("hex") };
}

function wireIdentical(a: Canonical, b: Canonical): boolean {
  if (a.transport === "jsonrpc" || b.transport === "jsonrpc") {
    return a.transport === "jsonrpc" && b.transport === "jsonrpc" && a.httpStatus === b.httpStatus && bytesEqual(a.raw, b.raw);
  }
  if (a.status.code !== b.status.code || a.messages.length !== b.messages.length) return false;
  const wa = [...a.messages].sort((x, y) => x.arrival - y.arrival);
  const wb = [...b.messages].sort((x, y) => x.arrival - y.arrival);
  return wa.every((m, i) => bytesEqual(m.wire, wb[i]!.wire));
}
