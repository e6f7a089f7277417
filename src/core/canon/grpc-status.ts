// gRPC status code names, so reports and cases can say INVALID_ARGUMENT instead of 3.

const NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

export function grpcCodeName(code: number): string {
  return NAMES[code] ?? `CODE_${code}`;
}

/**
 * The number of a status given as a number, a numeric string or a name. Names are
 * matched without regard to case, `_` or `-` so that `invalid_argument`,
 * `InvalidArgument` and `INVALID_ARGUMENT` all work. Undefined when unrecognised.
 */
export function grpcCodeOf(code: string | number): number | undefined {
  if (typeof code === "number") return Number.isInteger(code) ? code : undefined;
  if (/^\d+$/.test(code)) return Number(code);
  const squash = (s: string) => s.replace(/[_-]/g, "").toUpperCase();
  const wanted = squash(code);
  if (wanted === "CANCELED") return 1;
  const i = NAMES.findIndex((n) => squash(n) === wanted);
  return i < 0 ? undefined : i;
}
