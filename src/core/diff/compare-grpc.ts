// Comparing two gRPC answers. Wire bytes first: when status and every message are
// byte-identical nothing is decoded. Otherwise: status, then the stream as a sequence
// (count, order, whole-stream multiplicity), then each differing message field by field.

import type { DescMessage } from "@bufbuild/protobuf";
import { bytesEqual } from "../canon/index.js";
import { decodeForm, materialize, type GrpcCanonical, type GrpcMessageForm } from "../canon/grpc.js";
import { appendIndex } from "../canon/paths.js";
import type { GrpcObservation } from "../targets/observation.js";
import { brief, type Divergence } from "./divergence.js";
import { encodingDifference } from "./encoding.js";
import { diffMessages } from "./fields.js";
import type { Sides } from "./kinds.js";
import { compareSequences, sequenceDivergences, type SequenceOutcome } from "./sequence.js";

/** Byte-identical answers: same status, same fault kind, same message bytes in order.
 * Allocates nothing; this is what a sweep over millions of blocks runs. */
export function sameGrpcWire(a: GrpcObservation, b: GrpcObservation): boolean {
  if (a.code !== b.code || a.message !== b.message) return false;
  if (a.fault?.kind !== b.fault?.kind) return false;
  const ma = a.messages;
  const mb = b.messages;
  if (ma.length !== mb.length) return false;
  for (let i = 0; i < ma.length; i++) if (!bytesEqual(ma[i]!, mb[i]!)) return false;
  return true;
}

export function compareGrpc(a: GrpcCanonical, b: GrpcCanonical, s: Sides): Divergence[] {
  return compareGrpcDetailed(a, b, s).divergences;
}

/** The divergences, and how the two message sequences lined up (for the patch). */
export function compareGrpcDetailed(a: GrpcCanonical, b: GrpcCanonical, s: Sides): { divergences: Divergence[]; sequence?: SequenceOutcome } {
  const out: Divergence[] = [];
  // Names too: a client timeout carries DEADLINE_EXCEEDED's number but is no server status.
  const codeDiffers = a.status.code !== b.status.code || a.status.name !== b.status.name;
  if (codeDiffers) {
    const kind = a.status.code === 0 || b.status.code === 0 ? "error-vs-ok" : "error-code";
    out.push({
      kind,
      path: "status.code",
      left: s.left,
      right: s.right,
      leftValue: a.status.name,
      rightValue: b.status.name,
      detail: `${statusText(a)} vs ${statusText(b)}`,
    });
  } else if (a.status.message !== b.status.message) {
    out.push({
      kind: "value",
      path: "status.message",
      left: s.left,
      right: s.right,
      leftValue: a.status.message,
      rightValue: b.status.message,
      detail: `${brief(a.status.message)} vs ${brief(b.status.message)}`,
    });
  }
  if (!codeDiffers && a.fault?.kind !== b.fault?.kind) {
    out.push({
      kind: "value",
      path: "fault",
      left: s.left,
      right: s.right,
      leftValue: a.fault?.kind ?? null,
      rightValue: b.fault?.kind ?? null,
      detail: `fault ${a.fault?.kind ?? "none"} vs ${b.fault?.kind ?? "none"}`,
    });
  }
  const na = a.messages.length;
  const nb = b.messages.length;
  // A failed unary call has no message; the status difference already says so.
  if (codeDiffers && (na === 0 || nb === 0) && (!a.streaming || na + nb === 0)) return { divergences: out };
  const o = compareSequences(
    a.messages.map((m) => latin1(m.compared)),
    b.messages.map((m) => latin1(m.compared)),
  );
  // Paths name messages as they arrived; in a sorted (unordered) stream the position
  // after sorting would point at nothing the server sent.
  const label = (side: "left" | "right", i: number) => (side === "left" ? a : b).messages[i]!.arrival;
  out.push(...sequenceDivergences("", s, o, na, nb, "message", label));
  if (o.kind !== "differ") return { divergences: out, sequence: o };
  for (const [i, j] of o.pairs) {
    const before = out.length;
    const li = label("left", i);
    const rj = label("right", j);
    diffPair(a.schema, a.messages[i]!, b.messages[j]!, a.streaming ? appendIndex("", li) : "", s, out);
    if (li !== rj) for (let k = before; k < out.length; k++) out[k]!.detail += ` (right message [${rj}])`;
  }
  return { divergences: out, sequence: o };
}

function statusText(c: GrpcCanonical): string {
  const m = c.status.message && c.status.message !== c.fault?.detail ? ` ${brief(c.status.message, 60)}` : "";
  const f = c.fault ? ` (${c.fault.kind}: ${c.fault.detail})` : "";
  return `${c.status.name}${m}${f}`;
}

function latin1(u: Uint8Array): string {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString("latin1");
}

/** Two messages whose compared bytes differ: undecodable, encoding-only, or field diffs. */
function diffPair(schema: DescMessage, ma: GrpcMessageForm, mb: GrpcMessageForm, path: string, s: Sides, out: Divergence[]): void {
  decodeForm(ma, schema);
  decodeForm(mb, schema);
  if (ma.undecodable || mb.undecodable) {
    const why = (m: GrpcMessageForm) =>
      m.undecodable ? `undecodable${m.undecodable.offset === undefined ? "" : ` at offset ${m.undecodable.offset}`}: ${m.undecodable.reason}` : "decodes";
    const shownForm = (m: GrpcMessageForm) => (m.undecodable ? materialize(m, schema).json : undefined);
    out.push({
      kind: "value",
      path,
      left: s.left,
      right: s.right,
      leftValue: shownForm(ma),
      rightValue: shownForm(mb),
      detail: `left ${why(ma)}; right ${why(mb)}`,
    });
    return;
  }
  const before = out.length;
  diffMessages(schema, ma.decoded!, mb.decoded!, path, s, out);
  if (out.length === before) {
    // Equal field by field (unknown fields included) means equal re-encodings up to the
    // order of unknown fields: the bytes differ only in how the values were encoded.
    out.push({
      kind: "encoding-only",
      path,
      left: s.left,
      right: s.right,
      detail: `equal values, different bytes: ${encodingDifference(ma.compared, mb.compared, schema)}`,
    });
  }
}
