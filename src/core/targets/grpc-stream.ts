// The life of one gRPC call on an open HTTP/2 stream: send the request frames, collect
// headers, frames and trailers, and turn whatever happens into one observation. Every
// path ends in exactly one settle(); listeners stay attached afterwards so late stream
// events are swallowed instead of crashing the process.

import http2 from "node:http2";
import { FrameReader, isFrameError } from "./grpc-frames.js";
import type { SessionLease } from "./grpc-session.js";
import { describeGoaway, frameNotSent, h2ErrorName, type GoawayFrame } from "./grpc-wire.js";
import { decodeGrpcMessage, grpcCodeFromHttpStatus, grpcCodeFromRstCode, GrpcCode } from "./grpc-status.js";
import type { Fault, GrpcObservation } from "./observation.js";
import { isTlsError } from "./tls.js";
import { afterArrived, loopWatch } from "./client-clock.js";

/** An observation plus the number of messages, which stays right when they are not kept. */
export interface GrpcCallObservation extends GrpcObservation {
  messageCount: number;
}

export interface StreamLimits {
  deadlineMs: number;
  maxMessageBytes: number;
  maxMessages: number;
  /** Most payload bytes kept over the whole call; not counted when onMessage takes them. */
  maxCallBytes: number;
  onMessage?: (bytes: Uint8Array, index: number) => void | Promise<void>;
  /** End an open-ended stream after this long without a message. */
  quietMs?: number;
  /** Cancel the stream (RST_STREAM CANCEL) once this many messages have come. */
  cancelAfter?: number;
  /** The grpc-timeout sent: a call still open SERVER_DEADLINE_GRACE_MS after it is ended by the client. */
  serverDeadlineMs?: number;
}

/**
 * How long past the deadline it was sent a server has to end the call. Generous: a server
 * that enforces its deadline answers within milliseconds, and a loaded machine must not
 * turn that answer into "not enforced".
 */
export const SERVER_DEADLINE_GRACE_MS = 1_000;

const { NGHTTP2_CANCEL } = http2.constants;
const HIDDEN_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

export function runGrpcStream(
  stream: http2.ClientHttp2Stream,
  lease: SessionLease,
  body: Uint8Array,
  methodName: string,
  limits: StreamLimits,
  startedAt: number,
  t0: number,
): Promise<GrpcCallObservation> {
  return new Promise((resolve, reject) => {
    const obs: GrpcCallObservation = {
      transport: "grpc",
      method: methodName,
      code: GrpcCode.OK,
      message: "",
      messages: [],
      messageCount: 0,
      headers: {},
      trailers: {},
      wireBytes: 0,
      timing: { startedAt, totalMs: 0 },
    };
    const reader = new FrameReader(limits.maxMessageBytes);
    let settled = false;
    let statusFields: http2.IncomingHttpHeaders | undefined; // trailers, or a trailers-only HEADERS
    let grpcEncoding: string | undefined;
    let streamError: Error | undefined;
    let draining = false; // an async onMessage is pending
    let closed = false;
    let keptBytes = 0;
    // node emits 'response' on the next tick, and a stream's DATA read in the same socket
    // chunk as its HEADERS comes first: frames wait until the headers were checked.
    let responded = false;
    // A deadline case is judged by the time between the response headers and the trailers
    // (canon/grpc.ts outlivedDeadline): a stall of the client's loop in between blurs it.
    const watch = limits.serverDeadlineMs !== undefined ? loopWatch() : undefined;
    let headersFirst = false;

    const settle = (fault?: Fault, code?: number, message?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      clearTimeout(pastDeadline);
      const stalled = watch?.stop();
      if (stalled !== undefined && headersFirst) obs.timing.stalledMs = stalled;
      if (fault) {
        obs.fault = fault;
        obs.code = code ?? GrpcCode.UNKNOWN;
        obs.message = message ?? fault.detail;
      }
      obs.timing.totalMs = performance.now() - t0;
      if (!stream.closed) stream.close(NGHTTP2_CANCEL);
      lease.release();
      resolve(obs);
    };
    const failCaller = (err: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(quiet);
      clearTimeout(pastDeadline);
      watch?.stop();
      if (!stream.closed) stream.close(NGHTTP2_CANCEL);
      lease.release();
      reject(err);
    };

    const timer = afterArrived(() => {
      settle({ kind: "timeout", detail: `no complete answer within ${limits.deadlineMs} ms (client deadline)` }, GrpcCode.DEADLINE_EXCEEDED);
    }, limits.deadlineMs);

    // Restarted by every message: an open-ended stream is over for the client once the
    // server has had nothing to say for quietMs.
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let quietPeriod = 0;
    const hush = (): void => {
      if (limits.quietMs === undefined) return;
      clearTimeout(quiet);
      const period = ++quietPeriod;
      quiet = afterArrived(() => {
        // A message read meanwhile began another quiet period.
        if (settled || period !== quietPeriod) return;
        obs.code = GrpcCode.CANCELLED;
        obs.message = `still open after ${limits.quietMs} ms without a message; ended by the client (open-ended stream)`;
        obs.endedBy = "quiet";
        settle();
      }, limits.quietMs);
    };
    hush();

    const sent = limits.serverDeadlineMs;
    const pastDeadline =
      sent === undefined
        ? undefined
        : afterArrived(() => {
            if (settled) return;
            obs.code = GrpcCode.CANCELLED;
            obs.message = `still open ${SERVER_DEADLINE_GRACE_MS} ms after the ${sent} ms deadline it was sent; ended by the client`;
            obs.endedBy = "deadline";
            settle();
          }, sent + SERVER_DEADLINE_GRACE_MS);

    stream.on("response", (headers, flags) => {
      if (settled) return;
      obs.timing.firstByteMs = performance.now() - t0;
      const trailersOnly = (flags & http2.constants.NGHTTP2_FLAG_END_STREAM) !== 0;
      if (trailersOnly) {
        obs.trailers = visibleHeaders(headers);
        statusFields = headers;
      } else {
        obs.headers = visibleHeaders(headers);
        headersFirst = true;
      }
      const httpStatus = Number(headers[":status"]);
      if (httpStatus !== 200) {
        const sent = parseStatus(headers);
        const code = sent && typeof sent.code === "number" ? sent.code : grpcCodeFromHttpStatus(httpStatus);
        const detail = `HTTP status ${httpStatus}` + (sent ? ` (grpc-status ${headers["grpc-status"]})` : "");
        return settle({ kind: "http-status", detail }, code, sent ? sent.message : detail);
      }
      const ct = headerText(headers["content-type"]);
      if (!(ct === undefined && trailersOnly) && !isGrpcContentType(ct)) {
        return settle(
          { kind: "content-type", detail: `content-type ${ct === undefined ? "missing" : JSON.stringify(ct)}, expected application/grpc` },
          GrpcCode.UNKNOWN,
        );
      }
      grpcEncoding = headerText(headers["grpc-encoding"]);
      responded = true;
      pump();
    });

    stream.on("data", (chunk: Buffer) => {
      if (settled) return;
      obs.wireBytes += chunk.length;
      reader.push(chunk);
      if (responded) pump();
    });

    stream.on("trailers", (trailers) => {
      if (settled) return;
      obs.trailers = visibleHeaders(trailers);
      statusFields = trailers;
    });

    stream.on("error", (err) => {
      streamError ??= err;
    });
    // A frame the client could not send: after the server's GOAWAY, the request it no
    // longer takes; otherwise a broken connection (node then closes the session
    // gracefully, which a broken peer never completes).
    stream.on("frameError", (type: number, errorCode: number) => {
      const goaway = lease.wire.server.goaway;
      if (goaway) return settle(refusedBy(goaway), GrpcCode.UNAVAILABLE);
      lease.breakConnection(frameNotSent(type, errorCode));
    });
    stream.on("close", () => {
      closed = true;
      if (!draining) finish();
    });

    stream.end(body);

    // Hands complete frames to the caller; pauses the stream while an async callback runs.
    function pump(): void {
      while (!settled && !draining) {
        const next = reader.next();
        if (next === undefined) return;
        if (isFrameError(next)) {
          const detail =
            next.kind === "compressed" && grpcEncoding && grpcEncoding !== "identity"
              ? `${next.detail} (server declared grpc-encoding ${grpcEncoding}; only identity was accepted)`
              : next.detail;
          const code = next.kind === "too-large" ? GrpcCode.RESOURCE_EXHAUSTED : GrpcCode.INTERNAL;
          return settle({ kind: next.kind, detail }, code);
        }
        const index = obs.messageCount;
        if (index >= limits.maxMessages) {
          return settle({ kind: "too-long", detail: `more than maxMessages (${limits.maxMessages}) messages on the stream` }, GrpcCode.RESOURCE_EXHAUSTED);
        }
        if (!limits.onMessage && keptBytes + next.length > limits.maxCallBytes) {
          return settle(
            { kind: "too-large", detail: `messages beyond maxCallBytes (${limits.maxCallBytes}) in one call; kept the first ${obs.messageCount}` },
            GrpcCode.RESOURCE_EXHAUSTED,
          );
        }
        obs.messageCount++;
        hush();
        if (!limits.onMessage) {
          keptBytes += next.length;
          // A kept view would pin its whole socket read (up to 64 KiB) for as long as the
          // observation lives; a streamed one is let go as soon as the caller is done.
          obs.messages.push(next.byteLength === next.buffer.byteLength ? next : next.slice());
          if (limits.cancelAfter !== undefined && obs.messageCount >= limits.cancelAfter) {
            obs.code = GrpcCode.CANCELLED;
            obs.message = `cancelled by the client after ${obs.messageCount} messages`;
            obs.endedBy = "cancelled";
            return settle();
          }
          continue;
        }
        let pending: void | Promise<void>;
        try {
          pending = limits.onMessage(next, index);
        } catch (e) {
          return failCaller(e);
        }
        if (pending && typeof pending.then === "function") {
          draining = true;
          stream.pause();
          pending.then(
            () => {
              draining = false;
              if (settled) return;
              stream.resume();
              pump();
              if (closed && !draining) finish();
            },
            (e) => {
              draining = false;
              failCaller(e);
            },
          );
        }
      }
    }

    // Runs once the stream is closed and every received frame was handed out.
    function finish(): void {
      if (settled) return;
      pump();
      if (settled || draining) return;
      if (lease.aborted()) {
        return settle({ kind: "reset", detail: "the target was aborted by the caller" }, GrpcCode.CANCELLED);
      }
      // A connection broken while the call was open ends it as broken, whatever node
      // says of the stream (a cancel it never received, a session error).
      const broken = lease.broken();
      if (broken !== undefined && !statusFields) return settle({ kind: "protocol", detail: broken }, GrpcCode.INTERNAL);
      if (streamError) return settleError(streamError);
      const leftover = reader.finish();
      if (leftover) return settle(leftover, GrpcCode.INTERNAL);
      if (statusFields) {
        const status = parseStatus(statusFields);
        if (!status) return settle({ kind: "protocol", detail: "trailers without grpc-status" }, GrpcCode.INTERNAL);
        if (typeof status.code !== "number") {
          return settle({ kind: "protocol", detail: `invalid grpc-status ${JSON.stringify(status.code)}` }, GrpcCode.INTERNAL);
        }
        obs.code = status.code;
        obs.message = status.message;
        return settle();
      }
      // node reports a stream cut by a dying session as an RST_STREAM CANCEL it never
      // received, so the session's state decides between "reset" and "connection lost".
      if (lease.session.destroyed) {
        return settle({ kind: "reset", detail: "connection lost before a status" }, GrpcCode.UNAVAILABLE);
      }
      const rst = stream.rstCode ?? 0;
      // grpc-go enforces a deadline by whichever comes first, the handler's status or a
      // timer that resets the stream with CANCEL: at or past the deadline the client sent,
      // that reset is the server's DEADLINE_EXCEEDED, as a gRPC client reads it.
      if (rst === NGHTTP2_CANCEL && limits.serverDeadlineMs !== undefined && performance.now() - t0 >= limits.serverDeadlineMs) {
        obs.code = GrpcCode.DEADLINE_EXCEEDED;
        obs.message = "stream reset (RST_STREAM CANCEL) by the server at the deadline it was sent";
        return settle();
      }
      if (rst !== 0) return settleReset(rst);
      const what = obs.timing.firstByteMs === undefined ? "response headers" : "trailers";
      return settle({ kind: "protocol", detail: `stream ended without ${what} (no grpc-status)` }, GrpcCode.INTERNAL);
    }

    // node gives a stream the same rstCode whoever reset it; the frames on the wire say
    // who did (grpc-wire.ts).
    function settleReset(rst: number): void {
      const id = stream.id;
      const name = h2ErrorName(rst);
      if (id !== undefined && lease.wire.server.resets.get(id) === rst) {
        return settle({ kind: "reset", detail: `server reset the stream (RST_STREAM ${name})` }, grpcCodeFromRstCode(rst));
      }
      if (id !== undefined && lease.wire.client.resets.get(id) === rst) {
        return settle(
          { kind: "protocol", detail: `the client reset the stream (RST_STREAM ${name}): the server's answer broke a limit the client enforces` },
          grpcCodeFromRstCode(rst),
        );
      }
      const goaway = lease.wire.server.goaway;
      if (id !== undefined && goaway && id > goaway.lastStreamId) return settle(refusedBy(goaway), GrpcCode.UNAVAILABLE);
      return settle({ kind: "reset", detail: `stream reset before a status (RST_STREAM ${name})` }, grpcCodeFromRstCode(rst));
    }

    function settleError(err: Error): void {
      const code = (err as { code?: string }).code ?? "";
      if (code === "ERR_HTTP2_STREAM_ERROR") return settleReset(stream.rstCode ?? 0);
      // A stream queued on a session that failed to connect is cancelled by node; the
      // session's own error (refused, certificate) is the useful part.
      const root = code === "ERR_HTTP2_STREAM_CANCEL" && err.cause instanceof Error ? err.cause : err;
      const rootCode = String((root as { code?: unknown }).code ?? "");
      const text = `${rootCode && !root.message.includes(rootCode) ? rootCode + ": " : ""}${root.message.trim()}`;
      if (!lease.connected() || isTlsError(root)) {
        return settle({ kind: "unreachable", detail: text }, GrpcCode.UNAVAILABLE);
      }
      if (code === "ERR_HTTP2_ERROR" || code.startsWith("ERR_HTTP2_INVALID")) {
        const hint = obs.timing.firstByteMs === undefined ? " (the server may not speak HTTP/2)" : "";
        return settle({ kind: "protocol", detail: text + hint }, GrpcCode.INTERNAL);
      }
      return settle({ kind: "reset", detail: `connection lost: ${text}` }, GrpcCode.UNAVAILABLE);
    }
  });
}

/** A call the server's GOAWAY turned away before it was processed. */
function refusedBy(goaway: GoawayFrame): Fault {
  return { kind: "reset", detail: `the server sent ${describeGoaway(goaway)} (last stream ${goaway.lastStreamId}) before it took this call` };
}

function parseStatus(h: http2.IncomingHttpHeaders): { code: number | string; message: string } | undefined {
  const raw = headerText(h["grpc-status"]);
  if (raw === undefined) return undefined;
  const code = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  return { code, message: decodeGrpcMessage(headerText(h["grpc-message"])) };
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(", ") : v;
}

function isGrpcContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false;
  const t = ct.toLowerCase();
  return t === "application/grpc" || t.startsWith("application/grpc+") || t.startsWith("application/grpc;");
}

/** Lower-case names without pseudo-headers and without anything that carries credentials. */
function visibleHeaders(h: http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    const name = k.toLowerCase();
    if (name.startsWith(":") || HIDDEN_HEADERS.has(name) || v === undefined) continue;
    out[name] = headerText(v)!;
  }
  return out;
}
