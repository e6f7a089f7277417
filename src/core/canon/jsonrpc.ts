// Canonical form of a JSON-RPC answer: the parsed body, its RFC 8785 (JCS) bytes and the
// split into result / error. JCS fixes key order, whitespace, string escapes and number
// spelling, which is why the raw bytes are kept too: when raw bytes differ and JCS bytes
// do not, the difference is reported as encoding-only rather than hidden.

import canonicalize from "canonicalize";
import type { JsonValue } from "@bufbuild/protobuf";
import type { Fault, JsonRpcObservation } from "../targets/observation.js";
import { parseVolatile, removeJsonPaths, isObject, type Exclusion } from "./volatile.js";

export type JsonRpcOutcome =
  | { kind: "result"; result: JsonValue }
  | { kind: "error"; code: JsonValue; message: JsonValue; data?: JsonValue }
  /** A JSON body with neither a result nor an error member. */
  | { kind: "none" };

export interface JsonRpcCanonical {
  transport: "jsonrpc";
  method: string;
  httpStatus: number;
  fault?: Fault;
  /** The body exactly as received. */
  raw: Uint8Array;
  /** The parsed body after volatile removal; absent when the body is not JSON. */
  body?: JsonValue;
  /** Why the body is not JSON (kept as bytes). */
  notJson?: string;
  /** JCS bytes of the whole parsed body, before volatile removal. */
  jcsAll?: Uint8Array;
  /** What is compared: JCS bytes after volatile removal, or `raw` when not JSON. */
  compared: Uint8Array;
  outcome: JsonRpcOutcome;
  volatile: readonly string[];
  excluded: Exclusion[];
  /** Integer literals that a JavaScript number cannot hold exactly (JCS would round them). */
  lossyNumbers: string[];
}

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

/**
 * Bodies nested deeper are compared as bytes, not value by value: canonicalization and
 * the comparison recurse, and a hostile answer a few kilobytes long nested ten thousand
 * levels deep would exhaust the stack. Real answers nest fewer than ten levels, and
 * serde_json (Zebra, Zaino) refuses to read past 128.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether `v` nests more than `max` arrays/objects deep; iterative, so any depth is safe. */
export function nestedDeeperThan(v: JsonValue, max: number): boolean {
  const stack: [JsonValue, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== "object") continue;
    if (d + 1 > max) return true;
    for (const child of Array.isArray(x) ? x : Object.values(x)) stack.push([child, d + 1]);
  }
  return false;
}

export function canonJsonRpc(obs: JsonRpcObservation, options: { volatile?: readonly string[] } = {}): JsonRpcCanonical {
  const declared = options.volatile ?? [];
  const patterns = parseVolatile(declared);
  const base = { transport: "jsonrpc" as const, method: obs.method, httpStatus: obs.httpStatus, fault: obs.fault, raw: obs.body, volatile: declared };
  let text: string;
  let body: JsonValue;
  try {
    text = dec.decode(obs.body);
    body = JSON.parse(text) as JsonValue;
  } catch (e) {
    const excluded = patterns.map((p) => ({ pattern: p.text, path: "", note: "not applied: the body is not JSON" }));
    const notJson = obs.body.length === 0 ? "empty body" : (e as Error).message;
    return { ...base, notJson, compared: obs.body, outcome: { kind: "none" }, excluded, lossyNumbers: [] };
  }
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    const excluded = patterns.map((p) => ({ pattern: p.text, path: "", note: "not applied: the body is nested too deep to compare as JSON" }));
    return { ...base, notJson: `JSON nested deeper than ${MAX_JSON_DEPTH} levels (compared as bytes)`, compared: obs.body, outcome: { kind: "none" }, excluded, lossyNumbers: [] };
  }
  const jcsAll = enc.encode(canonicalize(body) ?? "");
  const excluded = removeJsonPaths(body, patterns, "");
  const compared = excluded.length === 0 ? jcsAll : enc.encode(canonicalize(body) ?? "");
  return { ...base, body, jcsAll, compared, outcome: outcomeOf(body), excluded, lossyNumbers: lossyIntegers(text) };
}

/** An error member that is present and not null wins; zcashd sends `"error": null` on success. */
export function outcomeOf(body: JsonValue): JsonRpcOutcome {
  if (!isObject(body)) return { kind: "none" };
  const err = body["error"];
  if (err !== undefined && err !== null) {
    if (isObject(err)) {
      const o: JsonRpcOutcome = { kind: "error", code: err["code"] ?? null, message: err["message"] ?? null };
      if (err["data"] !== undefined) o.data = err["data"];
      return o;
    }
    return { kind: "error", code: null, message: err };
  }
  if (Object.prototype.hasOwnProperty.call(body, "result")) return { kind: "result", result: body["result"] };
  return { kind: "none" };
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Integer literals outside strings whose value a double cannot represent exactly. A
 * scan by hand: a regular expression for JSON strings recurses per character in V8 and
 * overflows the stack on a string of a few megabytes.
 */
export function lossyIntegers(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      i++;
      continue;
    }
    if (ch !== 0x2d && (ch < 0x30 || ch > 0x39)) {
      i++;
      continue;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) {
      i++;
      continue;
    }
    i += m[0].length;
    const t = m[0];
    if (/[.eE]/.test(t)) continue;
    const n = Number(t);
    if (Number.isSafeInteger(n)) continue;
    if (!Number.isFinite(n) || BigInt(t) !== BigInt(n)) out.push(t);
  }
  return out;
}
