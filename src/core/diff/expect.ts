// Checking one answer against a case's `error` expectation (any allowed code conforms;
// another code is an error-code divergence, a success an error-vs-ok one) or its `ok`
// expectation (an error is an error-vs-ok divergence).

import type { JsonValue } from "@bufbuild/protobuf";
import type { Canonical } from "../canon/index.js";
import { grpcCodeName, grpcCodeOf } from "../canon/grpc-status.js";
import type { Expectation } from "../corpus/case.js";
import type { Divergence } from "./divergence.js";

/** The side name used for the expectation in divergences. */
export const EXPECTED = "expected";

/** The code an answer failed with: gRPC status, or JSON-RPC `error.code`; undefined on success. */
export function errorCodeOf(c: Canonical): number | string | undefined {
  if (c.transport === "grpc") return c.status.code === 0 ? undefined : c.status.code;
  if (c.outcome.kind !== "error") return c.httpStatus >= 200 && c.httpStatus < 300 && c.tree !== undefined ? undefined : `HTTP ${c.httpStatus}`;
  const code = c.outcome.code;
  return typeof code === "number" || typeof code === "string" ? code : JSON.stringify(code);
}

function allowed(c: Canonical, codes: readonly (string | number)[]): (number | string)[] {
  if (c.transport === "grpc") return codes.map((x) => grpcCodeOf(x) ?? x);
  return codes.map((x) => (typeof x === "string" && /^-?\d+$/.test(x) ? Number(x) : x));
}

/** Whether a build's answer is one of the allowed errors. A fault never conforms. */
export function conformsToError(c: Canonical, codes: readonly (string | number)[]): boolean {
  if (c.fault) return false;
  const got = errorCodeOf(c);
  return got !== undefined && allowed(c, codes).includes(got);
}

export function expectationDivergences(build: string, c: Canonical, expect: Expectation): Divergence[] {
  const got = errorCodeOf(c);
  const grpc = c.transport === "grpc";
  const name = (x: number | string): JsonValue => (grpc && typeof x === "number" ? grpcCodeName(x) : x);
  if (expect.kind === "ok") {
    if (got === undefined && !c.fault) return [];
    const shown = grpc && c.fault ? c.status.name : got === undefined ? c.fault!.kind : name(got);
    return [
      {
        path: grpc ? "status.code" : "error.code",
        left: EXPECTED,
        right: build,
        leftValue: grpc ? "OK" : null,
        kind: "error-vs-ok",
        rightValue: shown,
        detail: `expected a successful answer, got ${String(shown)}`,
      },
    ];
  }
  if (expect.kind !== "error" || conformsToError(c, expect.codes)) return [];
  const wanted = allowed(c, expect.codes).map(name);
  const fault = c.fault ? ` (${c.fault.kind}: ${c.fault.detail})` : "";
  const base = { path: grpc ? "status.code" : "error.code", left: EXPECTED, right: build, leftValue: wanted };
  if (got === undefined) {
    return [{ ...base, kind: "error-vs-ok", rightValue: grpc ? "OK" : null, detail: `expected ${wanted.join(" or ")}, got a successful answer` }];
  }
  // A gRPC status's own name: it tells a client timeout and a deadline not enforced from the codes they carry.
  const shown = c.transport === "grpc" ? c.status.name : name(got);
  return [{ ...base, kind: "error-code", rightValue: shown, detail: `expected ${wanted.join(" or ")}, got ${String(shown)}${fault}` }];
}
