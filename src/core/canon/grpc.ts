// Canonical form of a gRPC answer: the status, and per message the exact wire bytes,
// the bytes compared (wire bytes minus declared volatile fields, nothing else touched),
// a deterministic re-encoding and the protobuf JSON form.

import { fromBinary, toBinary, type DescMessage, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { Fault, GrpcObservation } from "../targets/observation.js";
import { checkGrpcPattern, exciseWire } from "./excise.js";
import { hex, messageJson, type UnknownFieldNote } from "./grpc-json.js";
import { grpcCodeName } from "./grpc-status.js";
import { appendIndex, isIndexLike, type Segment } from "./paths.js";
import { messagePrefix, parseVolatile, removeJsonPaths, type Exclusion, type VolatilePattern } from "./volatile.js";
import { findUndecodable } from "./wire.js";

export interface GrpcStatus {
  code: number;
  /** e.g. INVALID_ARGUMENT. */
  name: string;
  /** grpc-message; "" when declared volatile (the exclusion is recorded). */
  message: string;
}

export interface Undecodable {
  /** Offset of the first malformed byte, when the framing shows it. */
  offset?: number;
  reason: string;
}

export interface GrpcMessageForm {
  /** Index of this message in arrival order (differs from its position when sorted). */
  arrival: number;
  /** The payload exactly as framed on the wire. */
  wire: Uint8Array;
  /** What is compared: `wire` without declared volatile fields; `wire` itself when none matched. */
  compared: Uint8Array;
  /** toBinary(schema, fromBinary(schema, compared)); absent when undecodable (and in a
   * lazy form until `materialize`). Equal re-encodings with different compared bytes
   * are exactly an encoding-only difference. */
  reencoded?: Uint8Array;
  /** Decoded `compared`, for field-level comparison; absent when undecodable. */
  decoded?: Message;
  /** Protobuf JSON form of `wire`, defaults emitted, unknown fields under `$unknown`,
   * volatile fields removed. An undecodable message is `{"$undecodable": {...}}`.
   * Absent only in a lazy form, until `materialize` runs. */
  json?: JsonValue;
  /** Unknown fields that remain after volatile removal (absent like `json`). */
  unknown?: UnknownFieldNote[];
  undecodable?: Undecodable;
}

export interface GrpcCanonical {
  transport: "grpc";
  method: string;
  schema: DescMessage;
  streaming: boolean;
  status: GrpcStatus;
  fault?: Fault;
  /** In arrival order, or sorted by `compared` bytes when `unordered` is true. */
  messages: GrpcMessageForm[];
  /** The declared volatile paths. */
  volatile: readonly string[];
  /** What the declarations removed; paths use arrival indexes. */
  excluded: Exclusion[];
  /** Whether messages were sorted (an unordered stream). */
  unordered: boolean;
}

export interface GrpcCanonOptions {
  /** Server-streaming rpc: paths get a `[i]` message prefix. */
  streaming: boolean;
  volatile?: readonly string[];
  /** Compare stream messages as a multiset (sorted by their compared bytes). */
  unordered?: boolean;
  /** Leave messages that no volatile path touches undecoded until `materialize` is
   * called on them: the comparison decodes only the messages that differ. */
  lazy?: boolean;
  /**
   * The case declares the stream open-ended: a stream the client ended after a quiet
   * period (the server kept it open, as the protocol allows) is compared as if the server
   * had ended it with OK; every message is still compared.
   */
  openEnded?: boolean;
  /**
   * The case cancels the stream after this many messages: an answer with at least that
   * many compares as those first messages and OK (what a cancelling client saw), whether
   * the client cancelled it or the answer was derived whole (the oracle's).
   */
  cancelAfter?: number;
  /**
   * The case sent this grpc-timeout to probe that the server enforces it: an answer the
   * client had to end past it, or the server held open longer than it before its OK,
   * compares as PAST_DEADLINE (messages still compared; see outlivedDeadline).
   * DEADLINE_EXCEEDED is the server enforcing it.
   */
  deadlineMs?: number;
}

/** Options for an rpc, from its descriptor and the case's declarations. */
export function grpcCanonOptions(
  method: DescMethod,
  c: { volatile?: readonly string[]; unordered?: boolean; openEnded?: unknown; cancelAfter?: number; deadlineMs?: number },
): GrpcCanonOptions {
  return {
    streaming: method.methodKind === "server_streaming" || method.methodKind === "bidi_streaming",
    volatile: c.volatile,
    unordered: c.unordered,
    ...(c.openEnded !== undefined ? { openEnded: true } : {}),
    ...(c.cancelAfter !== undefined ? { cancelAfter: c.cancelAfter } : {}),
    ...(c.deadlineMs !== undefined ? { deadlineMs: c.deadlineMs } : {}),
  };
}

interface StreamPattern {
  text: string;
  /** Which messages it applies to; undefined = every message. */
  select?: Segment;
  /** Message-relative rest; empty = the whole message. */
  rest: Segment[];
}

/** The status name of an answer cut off by the client's deadline (answers say "fault:<kind>" alike). */
export const CLIENT_TIMEOUT = "fault:timeout";
/** The status name of a call that outlived the grpc-timeout a deadline case sent it. */
export const PAST_DEADLINE = "PAST_DEADLINE";

/**
 * Whether a deadline case's call outlived the deadline it was sent (see
 * GrpcCanonOptions.deadlineMs): the server still held it SERVER_DEADLINE_GRACE_MS past the
 * deadline and the client ended it, or the server ended it with OK after holding it open
 * longer than the deadline (from its response headers to its trailers). The OK's arrival
 * alone says nothing: the server's deadline starts when the call reaches it, and on a
 * loaded machine an OK sent well inside it (real lightwalletd's first stream after a
 * start, in one trailers-only answer) reaches the client after it. `ok` is a server OK,
 * no fault; `ms` and `firstByteMs` are the client's times of the end and the headers.
 */
export function outlivedDeadline(call: { endedBy?: string; ok: boolean; ms: number; firstByteMs?: number }, deadlineMs: number | undefined): boolean {
  if (deadlineMs === undefined) return false;
  return call.endedBy === "deadline" || (call.ok && call.ms - (call.firstByteMs ?? call.ms) > deadlineMs);
}

/**
 * Whether a deadline case's OK says nothing about the deadline: the client's event loop
 * stalled for so long between the response headers and the trailers (Timing.stalledMs)
 * that the server may or may not have held the stream longer than the deadline. Such a
 * call is asked again (run/runner.ts) rather than judged by a clock that stood still.
 */
export function deadlineTimingUnclear(
  call: { fault?: unknown; code: number; endedBy?: string; timing: { totalMs: number; firstByteMs?: number; stalledMs?: number } },
  deadlineMs: number | undefined,
): boolean {
  const { totalMs, firstByteMs, stalledMs } = call.timing;
  if (deadlineMs === undefined || call.fault || call.code !== 0 || call.endedBy !== undefined) return false;
  if (stalledMs === undefined || firstByteMs === undefined) return false;
  const held = totalMs - firstByteMs;
  return held - stalledMs <= deadlineMs && deadlineMs < held + stalledMs;
}

/**
 * Whether two answers to a deadline case both end with the server enforcing it. What a
 * server sent before that depends on how far it got in the time (lightwalletd sends its
 * cached mempool at once, or nothing when a refresh of its cache falls in the call), so
 * two such answers are the same answer to the case, whatever came before; the judge
 * compares only the code of an expected error, and goldens and fidelity follow it.
 */
export function bothEnforcedDeadline(deadlineMs: number | undefined, a: { status: string }, b: { status: string }): boolean {
  return deadlineMs !== undefined && a.status === "DEADLINE_EXCEEDED" && b.status === "DEADLINE_EXCEEDED";
}

/** Throws on a volatile path that is malformed or names a field the schema lacks. */
export function canonGrpc(obs: GrpcObservation, schema: DescMessage, options: GrpcCanonOptions): GrpcCanonical {
  const declared = options.volatile ?? [];
  const { status: statusPatterns, stream } = splitPatterns(parseVolatile(declared), schema);
  const excluded: Exclusion[] = [];
  // The client's own deadline is not the server's DEADLINE_EXCEEDED: it is named as the
  // fault it is, so no report or ledger shape mistakes the one for the other.
  const name = obs.fault?.kind === "timeout" ? CLIENT_TIMEOUT : grpcCodeName(obs.code);
  const status: GrpcStatus = { code: obs.code, name, message: obs.message };
  const call = { endedBy: obs.endedBy, ok: obs.code === 0, ms: obs.timing.totalMs, firstByteMs: obs.timing.firstByteMs };
  if (!obs.fault && outlivedDeadline(call, options.deadlineMs)) {
    excluded.push({ pattern: "deadlineMs", path: "status", value: `${name}: ${obs.message}` });
    // CANCELLED: the call ended without the server's verdict on the deadline.
    Object.assign(status, { code: 1, name: PAST_DEADLINE, message: "" });
  }
  if (options.openEnded && obs.endedBy === "quiet") {
    excluded.push({ pattern: "openEnded", path: "status", value: `${name}: ${obs.message}` });
    Object.assign(status, { code: 0, name: grpcCodeName(0), message: "" });
  }
  let received = obs.messages;
  if (options.cancelAfter !== undefined && received.length >= options.cancelAfter) {
    const n = options.cancelAfter;
    excluded.push({ pattern: "cancelAfter", path: "status", value: `${name}: ${obs.message}` });
    Object.assign(status, { code: 0, name: grpcCodeName(0), message: "" });
    received.slice(n).forEach((wire, i) => excluded.push({ pattern: "cancelAfter", path: appendIndex("", n + i), value: hex(wire) }));
    received = received.slice(0, n);
  }
  for (const p of statusPatterns) {
    excluded.push({ pattern: p.text, path: "status.message", value: obs.message });
    status.message = "";
  }
  const messages: GrpcMessageForm[] = [];
  received.forEach((wire, i) => {
    const mine = stream.filter((p) => !p.select || p.select.kind === "any" || (p.select.kind === "index" && p.select.index === i));
    const prefix = messagePrefix(options.streaming, i);
    if (mine.some((p) => p.rest.length === 0)) {
      for (const p of mine.filter((q) => q.rest.length === 0)) excluded.push({ pattern: p.text, path: appendIndex("", i), value: hex(wire) });
      return;
    }
    const patterns = mine.map((p) => ({ text: p.text, segments: p.rest }));
    messages.push(patterns.length === 0 && options.lazy ? { arrival: i, wire, compared: wire } : messageForm(wire, i, schema, patterns, prefix, excluded));
  });
  const unordered = options.streaming && options.unordered === true;
  if (unordered) messages.sort((a, b) => Buffer.compare(a.compared, b.compared) || a.arrival - b.arrival);
  return {
    transport: "grpc",
    method: obs.method,
    schema,
    streaming: options.streaming,
    status,
    fault: obs.fault,
    messages,
    volatile: declared,
    excluded,
    unordered,
  };
}

function splitPatterns(patterns: VolatilePattern[], schema: DescMessage): { status: VolatilePattern[]; stream: StreamPattern[] } {
  const status: VolatilePattern[] = [];
  const stream: StreamPattern[] = [];
  for (const p of patterns) {
    const [a, b] = p.segments;
    if (a && b && p.segments.length === 2 && a.kind === "field" && a.name === "status" && b.kind === "field") {
      if (b.name === "message") {
        status.push(p);
        continue;
      }
      if (b.name === "code") throw new Error(`volatile path "status.code": the status code is always compared`);
    }
    const select = isIndexLike(a) ? a : undefined;
    const rest = select ? p.segments.slice(1) : p.segments;
    if (rest.length > 0) checkGrpcPattern(schema, rest, p.text);
    stream.push({ text: p.text, select, rest });
  }
  return { status, stream };
}

function messageForm(
  wire: Uint8Array,
  arrival: number,
  schema: DescMessage,
  patterns: VolatilePattern[],
  prefix: string,
  excluded: Exclusion[],
): GrpcMessageForm {
  if (patterns.length === 0) return materialize({ arrival, wire, compared: wire }, schema);
  const original = decode(wire, schema);
  if (!("$typeName" in original)) {
    for (const p of patterns) excluded.push({ pattern: p.text, path: prefix, note: "not applied: the message does not decode" });
    return undecodableForm({ arrival, wire, compared: wire }, original);
  }
  const { json, unknown } = messageJson(schema, original);
  const removed = removeJsonPaths(json, patterns, "");
  let compared = wire;
  try {
    compared = exciseWire(
      wire,
      schema,
      patterns.map((p) => p.segments),
    );
  } catch (e) {
    // The library decoded what the framing check rejects (e.g. a wire type that does not
    // match the field): compare the bytes whole rather than guess which bytes to cut.
    for (const p of patterns) excluded.push({ pattern: p.text, path: prefix, note: `not applied to the wire bytes: ${(e as Error).message}` });
  }
  const decoded = compared === wire ? original : fromBinary(schema, compared);
  for (const r of removed) excluded.push({ ...r, path: joinPath(prefix, r.path) });
  const gone = removed.map((r) => r.path);
  const kept = gone.length === 0 ? unknown : unknown.filter((u) => !gone.some((g) => u.path === g || u.path.startsWith(g + ".") || u.path.startsWith(g + "[")));
  return { arrival, wire, compared, reencoded: toBinary(schema, decoded), decoded, json, unknown: kept };
}

function decode(wire: Uint8Array, schema: DescMessage): Message | Undecodable {
  try {
    return fromBinary(schema, wire);
  } catch (e) {
    const at = findUndecodable(wire, schema);
    return at ? { offset: at.offset, reason: at.reason } : { reason: (e as Error).message };
  }
}

function undecodableForm(m: GrpcMessageForm, undecodable: Undecodable): GrpcMessageForm {
  m.undecodable = undecodable;
  m.json = { $undecodable: { ...undecodable, bytes: hex(m.wire) } } as JsonValue;
  m.unknown = [];
  return m;
}

/** Fills in the decoded views of a message of a lazy form, JSON included (in place, once). */
export function materialize(m: GrpcMessageForm, schema: DescMessage): GrpcMessageForm {
  if (m.json !== undefined) return m;
  decodeForm(m, schema);
  if (m.undecodable) return undecodableForm(m, m.undecodable);
  const { json, unknown } = messageJson(schema, m.decoded!);
  m.reencoded = toBinary(schema, m.decoded!);
  m.json = json;
  m.unknown = unknown;
  return m;
}

/** Fills in `decoded` (or `undecodable`) only: what a field-level comparison needs,
 * without the cost of the re-encoding and the JSON form. */
export function decodeForm(m: GrpcMessageForm, schema: DescMessage): GrpcMessageForm {
  if (m.decoded !== undefined || m.undecodable !== undefined) return m;
  const msg = decode(m.compared, schema);
  if (!("$typeName" in msg)) return undecodableForm(m, msg);
  m.decoded = msg;
  return m;
}

/** The JSON form of the whole answer: the message (or null) for a unary rpc, the array
 * of messages for a stream. */
export function grpcJson(c: GrpcCanonical): JsonValue {
  const json = (m: GrpcMessageForm) => materialize(m, c.schema).json!;
  return c.streaming ? c.messages.map(json) : c.messages.length > 0 ? json(c.messages[0]!) : null;
}

/** A message-relative path under a stream prefix: `[2]` + `vtx[0].fee`. */
export function joinPath(prefix: string, rel: string): string {
  if (prefix === "") return rel;
  if (rel === "") return prefix;
  return rel.startsWith("[") ? prefix + rel : `${prefix}.${rel}`;
}
