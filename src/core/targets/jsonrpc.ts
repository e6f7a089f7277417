// JSON-RPC client that keeps the response body exactly as received.
//
// undici with its own keep-alive Agent, not the global fetch: the agent's pool is ours to
// size and close, and its errors carry codes that tell a refused connection from one the
// server closed without a word (Zebra's answer to a wrong or missing cookie).
//
// Faults, checked in this order once a response arrived: http-status (≠ 200, body kept),
// empty-body, content-type (not application/json or +json), invalid-json (including
// invalid UTF-8; read by canon/json-tree.ts, bounded whatever the nesting), wrong-id (not an object whose id is the request's). Before a response:
// unreachable (refused, DNS, TLS, unreadable cookie or CA file), timeout (deadlineMs),
// empty-body (the connection closed with no reply; httpStatus 0), protocol (an answer
// that is not HTTP). While reading: too-large (body over maxMessageBytes; the first
// maxMessageBytes bytes are kept), reset (the connection broke mid-body).
// A JSON-RPC error object in a well-formed answer is not a fault.

import { Agent } from "undici";
import { authorizationFor } from "./auth.js";
import type { JsonRpcEndpoint } from "./endpoint.js";
import type { Fault, JsonRpcObservation } from "./observation.js";
import { isTlsError, nodeTlsOptions } from "./tls.js";
import { afterArrived } from "./client-clock.js";
import { ARRAY, kindOf, NUMBER, OBJECT, readError, readJson } from "../io/json-tree.js";
import { lastMember, numberKey, textOf } from "../io/json-values.js";

export const DEFAULT_JSONRPC_DEADLINE_MS = 30_000;
/** Zebra's own response limit is 50 MiB; raw blocks at verbosity 0 stay far below. */
export const DEFAULT_JSONRPC_MAX_BYTES = 64 * 1024 * 1024;

/** How long a closing target waits, past the longest deadline, before it cuts its connections. */
export const JSONRPC_CLOSE_GRACE_MS = 1_000;

export interface JsonRpcCallOptions {
  /**
   * The request id. Answers echo it, so callers comparing bodies across servers give
   * every server the same id for the same question; default: a counter per target.
   */
  id?: number;
  deadlineMs?: number;
  maxMessageBytes?: number;
  /** The body is the call's only message: the lower of the two limits applies. */
  maxCallBytes?: number;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
}

export interface JsonRpcTargetOptions extends JsonRpcCallOptions {
  /** Most parallel connections to the endpoint. Default 8. */
  connections?: number;
}

export interface JsonRpcTarget {
  readonly url: string;
  readonly endpoint: JsonRpcEndpoint;
  /** `params` is always sent as an array; omitted means `[]`. */
  call(method: string, params?: readonly unknown[], opts?: JsonRpcCallOptions): Promise<JsonRpcObservation>;
  /**
   * One HTTP request holding a batch: the method once per params list, with ids 0..n−1.
   * The body is the array of answers in the server's order; an answer that is not an
   * array (a server without batches) is a wrong-id fault. `opts.id` is ignored.
   */
  batch(method: string, params: readonly (readonly unknown[])[], opts?: JsonRpcCallOptions): Promise<JsonRpcObservation>;
  /** Lets in-flight calls finish, then closes the connections. */
  close(): Promise<void>;
  /** Closes at once; in-flight calls resolve with a fault. */
  abort(): Promise<void>;
}

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT"]);
const CLOSED_CODES = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"]);

export function jsonRpcTarget(endpoint: JsonRpcEndpoint, defaults: JsonRpcTargetOptions = {}): JsonRpcTarget {
  const url = new URL(endpoint.url);
  const path = url.pathname + url.search || "/";
  let nextId = 1;
  let agent: Agent | undefined;

  const getAgent = (): Agent => {
    agent ??= new Agent({
      connections: defaults.connections ?? 8,
      keepAliveTimeout: 10_000,
      connect: url.protocol === "https:" ? nodeTlsOptions(endpoint) : undefined,
    });
    return agent;
  };

  const inFlight = new Set<Promise<JsonRpcObservation>>();
  const tracked = (p: Promise<JsonRpcObservation>): Promise<JsonRpcObservation> => {
    inFlight.add(p);
    const done = () => inFlight.delete(p);
    p.then(done, done);
    return p;
  };

  function call(method: string, params: readonly unknown[] = [], callOpts: JsonRpcCallOptions = {}): Promise<JsonRpcObservation> {
    const id = callOpts.id ?? nextId++;
    // A param JSON cannot represent (bigint, cycle) is the caller's bug: this throws.
    return tracked(post(method, JSON.stringify({ jsonrpc: "2.0", id, method, params: [...params] }), id, callOpts));
  }

  function batch(method: string, params: readonly (readonly unknown[])[], callOpts: JsonRpcCallOptions = {}): Promise<JsonRpcObservation> {
    return tracked(post(method, JSON.stringify(params.map((p, id) => ({ jsonrpc: "2.0", id, method, params: [...p] }))), BATCH, callOpts));
  }

  async function post(method: string, body: string, id: number | typeof BATCH, callOpts: JsonRpcCallOptions): Promise<JsonRpcObservation> {
    const opts = { ...defaults, ...callOpts, headers: { ...defaults.headers, ...callOpts.headers } };
    const deadlineMs = opts.deadlineMs ?? DEFAULT_JSONRPC_DEADLINE_MS;
    const maxMessageBytes = opts.maxMessageBytes ?? DEFAULT_JSONRPC_MAX_BYTES;
    const maxBytes = Math.min(maxMessageBytes, opts.maxCallBytes ?? DEFAULT_JSONRPC_MAX_BYTES);
    const limitName = maxBytes < maxMessageBytes ? "maxCallBytes" : "maxMessageBytes";
    const startedAt = Date.now();
    const t0 = performance.now();
    const obs: JsonRpcObservation = {
      transport: "jsonrpc",
      method,
      httpStatus: 0,
      body: new Uint8Array(0),
      wireBytes: 0,
      timing: { startedAt, totalMs: 0 },
    };
    let finished = false;
    const done = (fault?: Fault): JsonRpcObservation => {
      finished = true;
      clearTimeout(timer);
      if (fault) obs.fault = fault;
      obs.timing.totalMs = performance.now() - t0;
      return obs;
    };

    const controller = new AbortController();
    let timedOut = false;
    const timer = afterArrived(() => {
      if (finished) return;
      timedOut = true;
      controller.abort();
    }, deadlineMs);
    const timeoutFault = (): Fault => ({ kind: "timeout", detail: `no complete answer within ${deadlineMs} ms (client deadline)` });

    let headers: Record<string, string>;
    let dispatcher: Agent;
    try {
      headers = { ...lowerKeys(endpoint.headers), ...lowerKeys(opts.headers) };
      const authorization = await authorizationFor(endpoint.auth);
      if (authorization !== undefined) headers.authorization = authorization;
      headers["content-type"] = "application/json";
      headers.accept = "application/json";
      dispatcher = getAgent();
    } catch (e) {
      return done({ kind: "unreachable", detail: (e as Error).message });
    }

    let res;
    try {
      res = await dispatcher.request({
        origin: url.origin,
        path,
        method: "POST",
        headers,
        body,
        signal: controller.signal,
      });
    } catch (e) {
      return done(timedOut ? timeoutFault() : requestFault(e));
    }
    obs.timing.firstByteMs = performance.now() - t0;
    obs.httpStatus = res.statusCode;

    const chunks: Buffer[] = [];
    let kept = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        obs.wireBytes += chunk.length;
        if (kept + chunk.length > maxBytes) {
          chunks.push(chunk.subarray(0, maxBytes - kept));
          obs.body = Buffer.concat(chunks);
          res.body.destroy();
          return done({ kind: "too-large", detail: `body exceeds ${limitName} (${maxBytes}); kept the first ${maxBytes} bytes` });
        }
        chunks.push(chunk);
        kept += chunk.length;
      }
    } catch (e) {
      obs.body = Buffer.concat(chunks);
      if (timedOut) return done(timeoutFault());
      return done({ kind: "reset", detail: `connection broke while reading the body: ${describeError(e)}` });
    }
    obs.body = Buffer.concat(chunks);
    return done(checkBody(obs, res.headers["content-type"], id));
  }

  return {
    url: endpoint.url,
    endpoint,
    call,
    batch,
    close: async () => {
      // After abort() the agent is already gone; closing it again would throw.
      if (!agent || agent.destroyed) return;
      // The calls in flight end by their deadlines; then a connection that will not
      // close (a peer that stopped) is cut after JSONRPC_CLOSE_GRACE_MS.
      await Promise.allSettled(inFlight);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = await Promise.race([
        // A pool destroyed meanwhile (an interruption) has nothing left to close.
        agent.close().then(
          () => false,
          () => false,
        ),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), JSONRPC_CLOSE_GRACE_MS))),
      ]);
      clearTimeout(timer);
      if (late && !agent.destroyed) await agent.destroy();
    },
    abort: async () => {
      await agent?.destroy();
    },
  };
}

/** The id a batch is checked with: its answer must be an array, whose elements the caller matches. */
const BATCH = Symbol("batch");

function checkBody(obs: JsonRpcObservation, contentType: string | string[] | undefined, id: number | typeof BATCH): Fault | undefined {
  if (obs.httpStatus !== 200) return { kind: "http-status", detail: `HTTP status ${obs.httpStatus}` };
  if (obs.body.length === 0) return { kind: "empty-body", detail: "HTTP 200 with an empty body" };
  const ct = Array.isArray(contentType) ? contentType.join(", ") : contentType;
  if (!isJsonContentType(ct)) {
    return { kind: "content-type", detail: `content-type ${ct === undefined ? "missing" : JSON.stringify(ct)}, expected application/json` };
  }
  // Read as text, not with JSON.parse: an answer nested millions of levels deep costs a
  // byte per level here (JSON.parse built every level), and a number is its literal.
  const read = readJson(obs.body, 1);
  if (!read.ok) return { kind: "invalid-json", detail: readError(read) };
  const t = read.tree;
  const root = kindOf(t, 0);
  if (id === BATCH) return root === ARRAY ? undefined : { kind: "wrong-id", detail: "answer to a batch is not an array (no batch support?)" };
  if (root !== OBJECT) return { kind: "wrong-id", detail: `answer is ${root === ARRAY ? "an array" : "not an object"}, not a reply to request id ${id}` };
  // The last of repeated ids is the one JSON.parse and serde read.
  const got = lastMember(t, 0, "id");
  if (got === undefined) return { kind: "wrong-id", detail: `answer has no id, request id was ${id}` };
  if (kindOf(t, got) !== NUMBER || numberKey(textOf(t, got)) !== numberKey(String(id))) {
    const text = textOf(t, got);
    return { kind: "wrong-id", detail: `answer id ${text.length > 60 ? `${text.slice(0, 59)}…` : text}, request id was ${id}` };
  }
  return undefined;
}

function isJsonContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false;
  const type = ct.split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]*\+json$/.test(type);
}

function requestFault(e: unknown): Fault {
  const code = errorCode(e);
  const detail = describeError(e);
  if (UNREACHABLE_CODES.has(code) || isTlsError(e) || isTlsError((e as { cause?: unknown })?.cause)) {
    return { kind: "unreachable", detail };
  }
  if (CLOSED_CODES.has(code)) {
    return {
      kind: "empty-body",
      detail: `connection closed with no reply (${detail}); Zebra does this for a missing or wrong cookie`,
    };
  }
  return { kind: "protocol", detail };
}

function errorCode(e: unknown): string {
  const err = e as { code?: unknown; cause?: { code?: unknown } } | null;
  if (typeof err?.code === "string") return err.code;
  if (typeof err?.cause?.code === "string") return err.cause.code;
  return "";
}

function describeError(e: unknown): string {
  const code = errorCode(e);
  const message = e instanceof Error ? e.message : String(e);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function lowerKeys(h: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return out;
}
