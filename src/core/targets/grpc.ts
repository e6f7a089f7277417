// gRPC client that keeps every response message exactly as framed on the wire.
//
// It speaks gRPC over node:http2 itself instead of going through connect's transport.
// connect decodes every message into the schema and enforces cardinality before the
// caller sees anything: a unary answer with two messages, with none, or with bytes that
// do not parse as the output type becomes a generic INTERNAL error, and a compressed or
// malformed frame, a lying length prefix and a reset all arrive as ConnectErrors that can
// only be told apart by their text. Those are exactly the answers a conformance checker
// must record faithfully, so this client only frames, never decodes, and classifies
// each failure from the HTTP/2 events themselves. The protocol part is small: POST with
// content-type application/grpc and te: trailers, length-prefixed frames both ways,
// grpc-status and grpc-message in trailers (or in a trailers-only HEADERS frame).
//
// Fault → synthesized code:
//   unreachable  refused, DNS, TLS, unreadable CA or cookie file,
//                a target the caller already closed                    UNAVAILABLE (14)
//   timeout      deadlineMs passed on the client                       DEADLINE_EXCEEDED (4)
//   reset        RST_STREAM from the server, by its HTTP/2 code:
//                CANCEL → CANCELLED (1), REFUSED_STREAM → UNAVAILABLE (14),
//                ENHANCE_YOUR_CALM → RESOURCE_EXHAUSTED (8),
//                INADEQUATE_SECURITY → PERMISSION_DENIED (7), others → INTERNAL (13)
//   reset        connection lost, or a GOAWAY from the server before it
//                took the call                                         UNAVAILABLE (14)
//   reset        the caller aborted the target                         CANCELLED (1)
//   malformed-frame, compressed                                        INTERNAL (13)
//   protocol     no or non-numeric grpc-status, stream ended without
//                trailers, peer that does not speak HTTP/2              INTERNAL (13)
//   protocol     the connection ended as broken while the call was open: the
//                client's HTTP/2 layer gave up on the server (it sent GOAWAY
//                with an error code), the server sent GOAWAY with one, or a
//                frame could not be sent                               INTERNAL (13)
//   protocol     RST_STREAM the client itself sent (the server's headers
//                beyond its limits), by the code as above
// Who sent each GOAWAY and RST_STREAM is read off the wire (grpc-wire.ts): node gives
// a stream the same rstCode whoever reset it.
//   content-type not application/grpc, application/grpc+… or ;…        UNKNOWN (2)
//                (a trailers-only answer may omit it)
//   http-status  :status ≠ 200: the server's grpc-status if it sent one, else the
//                spec's HTTP mapping (400 INTERNAL, 401 UNAUTHENTICATED, 403
//                PERMISSION_DENIED, 404 UNIMPLEMENTED, 429/502/503/504 UNAVAILABLE,
//                anything else UNKNOWN)
//   too-large    length prefix over maxMessageBytes                    RESOURCE_EXHAUSTED (8)
//   too-large    messages kept by one call over maxCallBytes           RESOURCE_EXHAUSTED (8)
//   too-long     more than maxMessages messages                        RESOURCE_EXHAUSTED (8)
// A call that hits a limit is cut there (the stream cancelled): nothing beyond the limit
// is buffered, and the messages before it are kept.
// A status the server sent is never a fault, and the fault's detail becomes `message`
// unless the server sent a grpc-message. The number of messages is not checked against
// the method kind: a unary answer with 0 or 2 messages is kept as it came.

import { toBinary, type DescMethod, type Message } from "@bufbuild/protobuf";
import http2 from "node:http2";
import { authorizationFor } from "./auth.js";
import type { GrpcEndpoint } from "./endpoint.js";
import { encodeFrame } from "./grpc-frames.js";
import { runGrpcStream, type GrpcCallObservation, type StreamLimits } from "./grpc-stream.js";
import { encodeGrpcTimeout, GrpcCode } from "./grpc-status.js";
import { GrpcConnection, type GrpcConnectionOptions } from "./grpc-session.js";
import type { Fault } from "./observation.js";

export type { GrpcCallObservation } from "./grpc-stream.js";
export { GrpcConnection } from "./grpc-session.js";

export const DEFAULT_DEADLINE_MS = 30_000;
/** Large enough for the biggest real compact blocks. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_MESSAGES = 100_000;
/** What one call may hold in memory; with `concurrency` it bounds a build's share of a run. */
export const DEFAULT_MAX_CALL_BYTES = 64 * 1024 * 1024;

export interface GrpcCallOptions {
  /** Client-side deadline, also sent as grpc-timeout. Default 30 s. */
  deadlineMs?: number;
  /** Largest message accepted. Default 16 MiB. */
  maxMessageBytes?: number;
  /** Most messages accepted on one stream. Default 100,000. */
  maxMessages?: number;
  /** Most bytes kept over all messages of one call. Default 64 MiB. */
  maxCallBytes?: number;
  /** Extra metadata for this call (added to the endpoint's own headers). */
  headers?: Record<string, string>;
  /**
   * An open-ended stream: end the call, as answered so far, once no message has come for
   * this long (see GrpcObservation.endedBy). Unset: wait for the server's status.
   */
  quietMs?: number;
  /** Cancel a server stream once this many messages have come (see GrpcObservation.endedBy). */
  cancelAfter?: number;
  /**
   * Sent as grpc-timeout in place of `deadlineMs`, to see whether the server enforces it:
   * the client waits SERVER_DEADLINE_GRACE_MS beyond it for the server to end the call,
   * then ends a call still open itself (see GrpcObservation.endedBy).
   */
  serverDeadlineMs?: number;
  /**
   * Receives each message payload as it arrives. When set, `messages` stays empty and
   * only `messageCount` grows, so a long sweep stays flat in memory. A returned promise
   * pauses the stream (HTTP/2 flow control) until it settles; if it rejects or the
   * callback throws, the call is cancelled and rejects with that error. The bytes may be
   * a view of a larger received buffer (never written to again): copy what is kept long.
   */
  onMessage?: (bytes: Uint8Array, index: number) => void | Promise<void>;
}

/** A request message, pre-encoded bytes, or for client streaming a list of either. */
export type GrpcRequest = Message | Uint8Array | ReadonlyArray<Message | Uint8Array>;

export interface GrpcTarget {
  readonly url: string;
  readonly endpoint: GrpcEndpoint;
  call(method: DescMethod, request: GrpcRequest, opts?: GrpcCallOptions): Promise<GrpcCallObservation>;
  /** Lets in-flight calls finish, then closes the session. */
  close(): Promise<void>;
  /** Closes at once; in-flight calls resolve with a fault. */
  abort(): void;
}

/** A target with one reusable HTTP/2 session; `defaults` apply to every call. */
export function grpcTarget(endpoint: GrpcEndpoint, defaults: Omit<GrpcCallOptions, "onMessage"> = {}, connectionOptions?: GrpcConnectionOptions): GrpcTarget {
  const conn = new GrpcConnection(endpoint, connectionOptions);
  return {
    url: endpoint.url,
    endpoint,
    call: (method, request, opts = {}) =>
      callGrpc(conn, method, request, {
        ...defaults,
        ...opts,
        headers: { ...defaults.headers, ...opts.headers },
      }),
    close: () => conn.close(),
    abort: () => conn.abort(),
  };
}

/**
 * One call. With a GrpcConnection the session is reused; with a bare endpoint a session
 * is opened for this call and closed after it. Resolves for every server behaviour;
 * rejects only for caller errors (a request of the wrong type or arity, a header value
 * HTTP/2 cannot carry, a failing onMessage).
 */
export async function callGrpc(
  target: GrpcConnection | GrpcEndpoint,
  method: DescMethod,
  request: GrpcRequest,
  opts: GrpcCallOptions = {},
): Promise<GrpcCallObservation> {
  if (!(target instanceof GrpcConnection)) {
    const conn = new GrpcConnection(target);
    try {
      return await callGrpc(conn, method, request, opts);
    } finally {
      await conn.close();
    }
  }
  const conn = target;
  const body = encodeRequest(method, request);
  const startedAt = Date.now();
  const t0 = performance.now();
  const early = (fault: Fault, code: number): GrpcCallObservation => ({
    transport: "grpc",
    method: method.name,
    code,
    message: fault.detail,
    messages: [],
    messageCount: 0,
    headers: {},
    trailers: {},
    wireBytes: 0,
    timing: { startedAt, totalMs: performance.now() - t0 },
    fault,
  });

  let authorization: string | undefined;
  try {
    authorization = await authorizationFor(conn.endpoint.auth);
  } catch (e) {
    return early({ kind: "unreachable", detail: (e as Error).message }, GrpcCode.UNAVAILABLE);
  }
  const deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const headers = requestHeaders(conn.endpoint, method, opts.serverDeadlineMs ?? deadlineMs, opts.headers, authorization);
  const limits: StreamLimits = {
    deadlineMs,
    maxMessageBytes: opts.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    maxMessages: opts.maxMessages ?? DEFAULT_MAX_MESSAGES,
    maxCallBytes: opts.maxCallBytes ?? DEFAULT_MAX_CALL_BYTES,
    onMessage: opts.onMessage,
    ...(opts.quietMs !== undefined ? { quietMs: opts.quietMs } : {}),
    ...(opts.cancelAfter !== undefined ? { cancelAfter: opts.cancelAfter } : {}),
    ...(opts.serverDeadlineMs !== undefined ? { serverDeadlineMs: opts.serverDeadlineMs } : {}),
  };

  // A session that received GOAWAY between calls makes request() throw; one fresh
  // session is worth a retry because no byte of this call was sent yet.
  for (let attempt = 0; ; attempt++) {
    let lease;
    try {
      lease = conn.lease();
    } catch (e) {
      return early({ kind: "unreachable", detail: (e as Error).message }, GrpcCode.UNAVAILABLE);
    }
    let stream: http2.ClientHttp2Stream;
    try {
      stream = lease.session.request(headers, { endStream: false });
    } catch (e) {
      lease.release();
      const code = String((e as { code?: unknown }).code ?? "");
      // A header value node refuses (a newline in configured metadata) is the caller's.
      if (!SESSION_GONE.has(code)) throw e;
      conn.discard(lease.session);
      if (attempt === 0) continue;
      return early({ kind: "unreachable", detail: `cannot open stream: ${(e as Error).message}` }, GrpcCode.UNAVAILABLE);
    }
    return runGrpcStream(stream, lease, body, method.name, limits, startedAt, t0);
  }
}

function encodeRequest(method: DescMethod, request: GrpcRequest): Uint8Array {
  const clientStreams = method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming";
  const list = isList(request) ? request : undefined;
  if (clientStreams !== (list !== undefined)) {
    throw new TypeError(`${method.name} is ${method.methodKind}: pass ${clientStreams ? "a list of messages" : "a single message"}`);
  }
  const parts = (list ?? [request as Message | Uint8Array]).map((m) => {
    if (m instanceof Uint8Array) return encodeFrame(m);
    if (m.$typeName !== method.input.typeName) {
      throw new TypeError(`${method.name} takes ${method.input.typeName}, got ${m.$typeName}`);
    }
    return encodeFrame(toBinary(method.input, m));
  });
  return Buffer.concat(parts);
}

function isList(r: GrpcRequest): r is ReadonlyArray<Message | Uint8Array> {
  return Array.isArray(r);
}

const SESSION_GONE = new Set(["ERR_HTTP2_INVALID_SESSION", "ERR_HTTP2_GOAWAY_SESSION", "ERR_HTTP2_OUT_OF_STREAMS"]);

const RESERVED = new Set(["content-type", "te", "grpc-timeout", "grpc-encoding", "grpc-accept-encoding", "user-agent"]);

function requestHeaders(
  endpoint: GrpcEndpoint,
  method: DescMethod,
  deadlineMs: number,
  extra: Record<string, string> | undefined,
  authorization: string | undefined,
): http2.OutgoingHttpHeaders {
  const base = new URL(endpoint.url).pathname.replace(/\/+$/, "");
  const h: http2.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries({ ...endpoint.headers, ...extra })) {
    const name = k.toLowerCase();
    if (!name.startsWith(":") && !RESERVED.has(name)) h[name] = v;
  }
  if (authorization !== undefined) h.authorization = authorization;
  Object.assign(h, {
    [http2.constants.HTTP2_HEADER_METHOD]: "POST",
    [http2.constants.HTTP2_HEADER_PATH]: `${base}/${method.parent.typeName}/${method.name}`,
    "content-type": "application/grpc",
    te: "trailers",
    "grpc-accept-encoding": "identity",
    "user-agent": "zconform-grpc/0.1",
    "grpc-timeout": encodeGrpcTimeout(deadlineMs),
  });
  return h;
}
