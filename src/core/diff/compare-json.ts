// Comparing two JSON-RPC answers: HTTP status, error vs result, error codes, then the
// bodies value by value (shape, presence, arrays as sequences, leaves).

import canonicalize from "canonicalize";
import type { JsonValue } from "@bufbuild/protobuf";
import { bytesEqual } from "../canon/index.js";
import type { JsonRpcCanonical, JsonRpcOutcome } from "../canon/jsonrpc.js";
import { appendIndex, appendKey } from "../canon/paths.js";
import { isObject } from "../canon/volatile.js";
import type { JsonRpcObservation } from "../targets/observation.js";
import { brief, type Divergence } from "./divergence.js";
import { classifyLeaf, type Sides } from "./kinds.js";
import { compareSequences, sequenceDivergences } from "./sequence.js";

export function sameJsonRpcWire(a: JsonRpcObservation, b: JsonRpcObservation): boolean {
  return a.httpStatus === b.httpStatus && a.fault?.kind === b.fault?.kind && bytesEqual(a.body, b.body);
}

export type JsonType = "null" | "boolean" | "number" | "string" | "array" | "object";

export function jsonType(v: JsonValue): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v as JsonType;
}

export function compareJsonRpc(a: JsonRpcCanonical, b: JsonRpcCanonical, s: Sides): Divergence[] {
  const out: Divergence[] = [];
  const d = (kind: Divergence["kind"], path: string, detail: string, leftValue?: JsonValue, rightValue?: JsonValue): void => {
    const x: Divergence = { kind, path, left: s.left, right: s.right, detail };
    if (leftValue !== undefined) x.leftValue = leftValue;
    if (rightValue !== undefined) x.rightValue = rightValue;
    out.push(x);
  };
  if (a.httpStatus !== b.httpStatus) {
    const okA = a.httpStatus >= 200 && a.httpStatus < 300;
    const okB = b.httpStatus >= 200 && b.httpStatus < 300;
    d(okA === okB ? (okA ? "value" : "error-code") : "error-vs-ok", "http.status", `HTTP ${a.httpStatus} vs ${b.httpStatus}`, a.httpStatus, b.httpStatus);
  }
  if (a.fault?.kind !== b.fault?.kind) d("value", "fault", `fault ${a.fault?.kind ?? "none"} vs ${b.fault?.kind ?? "none"}`, a.fault?.kind ?? null, b.fault?.kind ?? null);
  if (a.body === undefined || b.body === undefined) {
    if (a.body === undefined && b.body === undefined) {
      if (!bytesEqual(a.raw, b.raw)) d("value", "", `bodies are not JSON and differ (${a.raw.length} vs ${b.raw.length} bytes)`);
    } else {
      const side = a.body === undefined ? "left" : "right";
      d("json-shape", "", `${side} body is not JSON (${(a.notJson ?? b.notJson)!})`);
    }
    return out;
  }
  const skip = new Set<string>();
  const oa = a.outcome;
  const ob = b.outcome;
  const code = (o: JsonRpcOutcome): JsonValue | undefined => (o.kind === "error" ? o.code : undefined);
  if ((oa.kind === "error") !== (ob.kind === "error")) {
    d("error-vs-ok", "error.code", `${outcomeText(oa)} vs ${outcomeText(ob)}`, code(oa), code(ob));
    skip.add("error").add("result");
  } else if (oa.kind === "error" && ob.kind === "error" && canonicalize(oa.code) !== canonicalize(ob.code)) {
    d("error-code", "error.code", `${outcomeText(oa)} vs ${outcomeText(ob)}`, oa.code, ob.code);
    skip.add("error.code");
  }
  walkJson(a.body, b.body, "", s, out, skip);
  if (out.length === 0 && !bytesEqual(a.compared, b.compared)) d("value", "", "canonical bytes differ");
  if (out.length === 0 && a.jcsAll && b.jcsAll && bytesEqual(a.jcsAll, b.jcsAll) && !bytesEqual(a.raw, b.raw)) {
    const la = a.lossyNumbers.join();
    const lb = b.lossyNumbers.join();
    if (la !== lb) d("value", "", `integers beyond 2^53 differ in their text: ${la || "none"} vs ${lb || "none"}`);
    else d("encoding-only", "", `same JSON value, different bytes (${a.raw.length} vs ${b.raw.length}: whitespace, key order, escapes or number spelling)`);
  }
  return out;
}

function outcomeText(o: JsonRpcOutcome): string {
  return o.kind === "error" ? `error ${brief(o.code)} ${brief(o.message, 60)}` : o.kind === "result" ? "a result" : "neither result nor error";
}

/** Value-level comparison of two JSON values; paths in `skip` are not compared. */
export function walkJson(a: JsonValue, b: JsonValue, path: string, s: Sides, out: Divergence[], skip: ReadonlySet<string> = new Set()): void {
  if (skip.has(path)) return;
  const ta = jsonType(a);
  const tb = jsonType(b);
  if (ta !== tb) {
    out.push({ kind: "json-shape", path, left: s.left, right: s.right, leftValue: a, rightValue: b, detail: `${ta} vs ${tb}` });
    return;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const p = appendKey(path, k);
      if (skip.has(p)) continue;
      const ha = Object.prototype.hasOwnProperty.call(a, k);
      const hb = Object.prototype.hasOwnProperty.call(b, k);
      if (ha && hb) walkJson(a[k], b[k], p, s, out, skip);
      else if (ha) out.push({ kind: "missing-field", path: p, left: s.left, right: s.right, leftValue: a[k], detail: `right lacks ${p}, left has ${brief(a[k])}` });
      else out.push({ kind: "extra-field", path: p, left: s.left, right: s.right, rightValue: b[k], detail: `right has ${p} = ${brief(b[k])}, left has none` });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const o = compareSequences(a.map(key), b.map(key));
    out.push(...sequenceDivergences(path, s, o, a.length, b.length, "item"));
    if (o.kind !== "differ") return;
    for (const [i, j] of o.pairs) {
      const before = out.length;
      walkJson(a[i], b[j], appendIndex(path, i), s, out, skip);
      if (i !== j) for (let k = before; k < out.length; k++) out[k].detail += ` (right item [${j}])`;
    }
    return;
  }
  if (a !== b) out.push(classifyLeaf(path, s, a, b));
}

function key(v: JsonValue): string {
  return canonicalize(v) ?? "";
}
