// Divergence: one difference between two answers (two builds, or a build and the
// oracle or a case's expectation), with where it is and what kind it is.

import type { JsonValue } from "@bufbuild/protobuf";

export type DivergenceKind =
  | "error-code" // both failed, with different codes (gRPC status, JSON-RPC error.code, HTTP status)
  | "error-vs-ok" // one failed, the other answered
  | "byte-order" // a bytes field (or hex string) equals the other reversed
  | "multiplicity" // a number, a list or a whole stream is k times the other, k ≥ 2
  | "json-shape" // different JSON types at the same path (string vs object, …)
  | "missing-field" // the left side has it, the right side does not
  | "extra-field" // the right side has it, the left side does not
  | "order" // same multiset of items or messages, different order
  | "count" // different number of items or messages
  | "value" // anything else that differs
  | "encoding-only" // different bytes, equal values (field order, explicit defaults, packing, JSON spelling)
  | "latency"; // from a timing probe, not from the answers' contents

export const DIVERGENCE_KINDS: readonly DivergenceKind[] = [
  "error-code",
  "error-vs-ok",
  "byte-order",
  "multiplicity",
  "json-shape",
  "missing-field",
  "extra-field",
  "order",
  "count",
  "value",
  "encoding-only",
  "latency",
];

/** What differs between two JSON texts of equal values (an `encoding-only` divergence of JSON-RPC answers). */
export type JsonEncodingAspect = "number" | "string-escapes" | "key-escapes" | "key-order" | "duplicate-key" | "whitespace";

/**
 * `left` is the reference side (the oracle, the expectation, or the build compared
 * against), `right` the build under scrutiny: "missing-field" means right lacks it.
 * Values are JSON-friendly: bytes as hex, 64-bit integers as decimal strings.
 */
export interface Divergence {
  kind: DivergenceKind;
  /** Field path (see canon/paths.ts): `vtx[1].outputs[0].ciphertext`, `[3].height`,
   * `result`, `error.code`, `status.code`, `latency.p50`; "" is the whole answer. */
  path: string;
  /** Build names, or "oracle" / "expected". */
  left: string;
  right: string;
  leftValue?: JsonValue;
  rightValue?: JsonValue;
  /** For multiplicity: right = factor × left (a fraction below 1 when left is larger). */
  factor?: number;
  /** For a JSON-RPC encoding-only divergence: what differs (leftValue and rightValue are then each side's text). */
  encoding?: JsonEncodingAspect;
  detail: string;
}

export type LatencyMetric = "p50" | "p90" | "p95" | "p99" | "max" | "mean" | "firstByte";

/** A latency divergence as a timing probe reports it; values are milliseconds. */
export function latencyDivergence(metric: LatencyMetric, left: string, right: string, leftMs: number, rightMs: number, detail?: string): Divergence {
  const ratio = leftMs > 0 ? rightMs / leftMs : Infinity;
  return {
    kind: "latency",
    path: `latency.${metric}`,
    left,
    right,
    leftValue: leftMs,
    rightValue: rightMs,
    factor: Number.isFinite(ratio) ? ratio : undefined,
    detail: detail ?? `${metric} ${fmtMs(rightMs)} vs ${fmtMs(leftMs)}${Number.isFinite(ratio) ? ` (${ratio.toFixed(1)}×)` : ""}`,
  };
}

function fmtMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(0)} ms`;
}

/** A value as a divergence shows it. */
export function shown(v: unknown): JsonValue | undefined {
  if (v === undefined) return undefined;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return v as JsonValue;
}

/** Short text for a value inside a detail line. */
export function brief(v: unknown, max = 40): string {
  const s = typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(shown(v)) ?? String(v));
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
