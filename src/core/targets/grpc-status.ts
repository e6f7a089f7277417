// gRPC status vocabulary: code numbers, the HTTP and HTTP/2 error mappings of the gRPC
// spec (doc/http-grpc-status-mapping.md, PROTOCOL-HTTP2.md), grpc-message decoding and
// grpc-timeout encoding. Kept apart so the client reads as policy, not tables.

export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type GrpcCodeName = keyof typeof GrpcCode;

const NAMES = Object.fromEntries(Object.entries(GrpcCode).map(([k, v]) => [v, k])) as Record<number, GrpcCodeName>;

/** "NOT_FOUND" for 5; "CODE_<n>" for numbers outside the spec (servers do send them). */
export function grpcCodeName(code: number): string {
  return NAMES[code] ?? `CODE_${code}`;
}

/** Used when a response has an HTTP status other than 200 and no grpc-status of its own. */
export function grpcCodeFromHttpStatus(status: number): number {
  switch (status) {
    case 400:
      return GrpcCode.INTERNAL;
    case 401:
      return GrpcCode.UNAUTHENTICATED;
    case 403:
      return GrpcCode.PERMISSION_DENIED;
    case 404:
      return GrpcCode.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return GrpcCode.UNAVAILABLE;
    default:
      return GrpcCode.UNKNOWN;
  }
}

/** For a stream the peer reset with RST_STREAM before sending a status. */
export function grpcCodeFromRstCode(rst: number): number {
  switch (rst) {
    case 0x7: // REFUSED_STREAM: nothing was processed, safe to retry
      return GrpcCode.UNAVAILABLE;
    case 0x8: // CANCEL
      return GrpcCode.CANCELLED;
    case 0xb: // ENHANCE_YOUR_CALM
      return GrpcCode.RESOURCE_EXHAUSTED;
    case 0xc: // INADEQUATE_SECURITY
      return GrpcCode.PERMISSION_DENIED;
    default:
      return GrpcCode.INTERNAL;
  }
}

/**
 * grpc-message is percent-encoded UTF-8. Decoding is lenient on purpose: a malformed
 * escape is kept literally rather than failing the call, because the checker's job is
 * to show what the server said. Bytes above 0x7f that arrived unescaped (a server that
 * ignores the spec) come through node as latin1 characters and are re-read as UTF-8.
 */
export function decodeGrpcMessage(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "";
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25 && i + 2 < raw.length && isHex(raw.charCodeAt(i + 1)) && isHex(raw.charCodeAt(i + 2))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x100) {
      bytes.push(c);
    } else {
      bytes.push(...Buffer.from(raw[i]!, "utf8"));
    }
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Uint8Array.from(bytes));
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The spec allows at most 8 digits, so long deadlines switch to a coarser unit. */
export function encodeGrpcTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1e8) return `${whole}m`;
  const s = Math.ceil(whole / 1000);
  if (s < 1e8) return `${s}S`;
  return `${Math.min(99_999_999, Math.ceil(s / 3600))}H`;
}
