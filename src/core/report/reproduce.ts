// Shell commands that repeat one case's call against one build with everyday tools
// (grpcurl, buf curl, curl), so a reader of a report can see the answer for themselves.
// Credentials are never part of a command: the endpoints reports carry have none, and
// any query string is dropped in case it holds a key. Where the server may want
// credentials, a note says how to add them, with placeholders only.

import type { JsonValue } from "@bufbuild/protobuf";
import { fileURLToPath } from "node:url";
import type { Transport } from "../targets/observation.js";

export const GRPC_SERVICE = "cash.z.wallet.sdk.rpc.CompactTxStreamer";
/**
 * The .proto files zconform ships (proto/ at the package root, found from this module's
 * own place, as for src/ and dist/ alike), by absolute path: servers may not offer
 * reflection, and a reader runs the command from wherever they are.
 */
export const PROTO_IMPORT_PATH = fileURLToPath(new URL("../../../proto", import.meta.url));
export const PROTO_FILE = "walletrpc/service.proto";

/** How an endpoint authenticates; "headers": the config sends it extra headers. */
/**
 * Requests longer than this (as text) are read from a file rather than spelled out in the
 * command: a 2 MB transaction makes a command no shell or clipboard handles well.
 */
export const INLINE_LIMIT = 8 * 1024;

export type AuthKind = "basic" | "cookie" | "bearer" | "headers";

export interface ReproduceCommand {
  /** The tool, for labels: grpcurl, buf curl, curl. */
  tool: string;
  command: string;
  /** What the reader may need to add or know; never contains a secret. */
  note?: string;
}

/** POSIX shell single-quoting: safe for any string, including quotes and newlines. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

interface Target {
  /** scheme://host:port with any path kept, no userinfo, no query. */
  base: string;
  /** host:port, with the scheme's default port filled in. */
  authority: string;
  tls: boolean;
  queryDropped: boolean;
}

function targetOf(url: string): Target {
  const u = new URL(url);
  const tls = u.protocol === "https:";
  const port = u.port || (tls ? "443" : "80");
  const path = u.pathname.replace(/\/+$/, "");
  return { base: `${u.protocol}//${u.host}${path}`, authority: `${u.hostname}:${port}`, tls, queryDropped: u.search !== "" };
}

function authNote(auth: AuthKind | undefined, transport: Transport): string | undefined {
  const curlish = transport === "jsonrpc";
  switch (auth) {
    case "cookie":
      return "this endpoint uses cookie auth: add --user __cookie__:$(cut -d: -f2 <cookie file>) yourself";
    case "basic":
      return curlish
        ? "this endpoint uses HTTP Basic auth: add --user <user>:<password> yourself"
        : "this endpoint uses HTTP Basic auth: add -H \"authorization: Basic $(printf %s '<user>:<password>' | base64)\" yourself";
    case "bearer":
      return 'this endpoint wants a bearer token: add -H "authorization: Bearer $TOKEN" yourself';
    case "headers":
      return "the config sends this endpoint extra headers, not shown here: add them with -H yourself";
    default:
      return curlish ? "if the endpoint wants credentials, adding them (e.g. --user __cookie__:$(cut -d: -f2 <cookie file>)) is up to you" : undefined;
  }
}

function notes(...parts: (string | undefined)[]): { note?: string } {
  const text = parts.filter((p): p is string => p !== undefined).join("; ");
  return text ? { note: text } : {};
}

function largeNote(chars: number, what: string): string {
  return `the request is ${Math.round(chars / 1024)} KiB: save ${what} as request.json first (the JSON report has it under the case's "request")`;
}

const QUERY_NOTE = "the endpoint's query string was left out (it may hold a key)";

/**
 * The request as the JSON mapping of protobuf, one object per message: a list for a
 * client-streaming rpc. `{ $wire, decoded }` entries (raw requests) give their decoded form.
 */
function grpcMessages(request: JsonValue | undefined): { messages: JsonValue[]; raw: boolean; undecodable: boolean } {
  const list = Array.isArray(request) ? request : [request ?? {}];
  let raw = false;
  let undecodable = false;
  const messages = list.map((m) => {
    if (m !== null && typeof m === "object" && !Array.isArray(m) && "$wire" in m) {
      raw = true;
      if (m.decoded === undefined) undecodable = true;
      return (m.decoded ?? {}) as JsonValue;
    }
    return (m ?? {}) as JsonValue;
  });
  return { messages, raw, undecodable };
}

export interface GrpcCall {
  url: string;
  rpc: string;
  /** The planned request's JSON form (CaseResult.request). */
  request: JsonValue | undefined;
  auth?: AuthKind;
}

export function grpcurlCommand(call: GrpcCall): ReproduceCommand {
  const t = targetOf(call.url);
  const { messages, raw } = grpcMessages(call.request);
  const data = messages.map((m) => JSON.stringify(m)).join(" ");
  const large = data.length > INLINE_LIMIT;
  const parts = [
    "grpcurl",
    ...(t.tls ? [] : ["-plaintext"]),
    "-import-path",
    shellQuote(PROTO_IMPORT_PATH),
    "-proto",
    PROTO_FILE,
    "-d",
    large ? "@" : shellQuote(data),
    t.authority,
    `${GRPC_SERVICE}/${call.rpc}`,
    ...(large ? ["<", "request.json"] : []),
  ];
  const pathNote = new URL(call.url).pathname.replace(/\/+$/, "") !== "" ? "grpcurl cannot send a path prefix: use the buf curl command" : undefined;
  return {
    tool: "grpcurl",
    command: parts.join(" "),
    ...notes(
      raw ? "the case sends raw bytes: this re-encodes their decoded form, so use the curl command for the exact bytes" : undefined,
      large ? largeNote(data.length, "the request message(s) in protobuf JSON") : undefined,
      pathNote,
      t.queryDropped ? QUERY_NOTE : undefined,
      authNote(call.auth, "grpc"),
    ),
  };
}

export function bufCurlCommand(call: GrpcCall): ReproduceCommand {
  const t = targetOf(call.url);
  const { messages, raw } = grpcMessages(call.request);
  const data = messages.map((m) => JSON.stringify(m)).join("\n");
  const large = data.length > INLINE_LIMIT;
  const parts = [
    "buf curl",
    "--protocol grpc",
    ...(t.tls ? [] : ["--http2-prior-knowledge"]),
    "--schema",
    shellQuote(PROTO_IMPORT_PATH),
    "-d",
    large ? "@request.json" : shellQuote(data),
    shellQuote(`${t.base}/${GRPC_SERVICE}/${call.rpc}`),
  ];
  return {
    tool: "buf curl",
    command: parts.join(" "),
    ...notes(
      raw ? "the case sends raw bytes: this re-encodes their decoded form" : undefined,
      large ? largeNote(data.length, "the request message(s) in protobuf JSON") : undefined,
      t.queryDropped ? QUERY_NOTE : undefined,
      authNote(call.auth, "grpc"),
    ),
  };
}

/** One gRPC frame: flag 0 (uncompressed), 4-byte big-endian length, the payload. */
function frame(hex: string): Buffer {
  const payload = Buffer.from(hex, "hex");
  const head = Buffer.alloc(5);
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** Octal escapes, which every POSIX printf understands (\x is a bash extension). */
function printfBytes(bytes: Buffer): string {
  return [...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
}

/**
 * The exact request bytes, framed by hand and sent with curl over HTTP/2. Used for raw
 * (`$wire`) requests, which grpcurl and buf curl cannot send as they are.
 */
export function rawGrpcCurlCommand(call: GrpcCall): ReproduceCommand | undefined {
  const list = Array.isArray(call.request) ? call.request : [call.request];
  const wires = list.map((m) => (m !== null && typeof m === "object" && !Array.isArray(m) && typeof m.$wire === "string" ? m.$wire : undefined));
  if (!wires.some((w) => w !== undefined)) return undefined;
  if (wires.some((w) => w === undefined)) return undefined;
  const t = targetOf(call.url);
  const body = Buffer.concat(wires.map((w) => frame(w!)));
  // Octal escapes take four characters a byte: past the limit, the bytes come from a file.
  const large = body.length * 4 > INLINE_LIMIT;
  const source = large ? ["xxd", "-r", "-p", "request.bin.hex"] : ["printf", shellQuote(printfBytes(body))];
  const parts = [
    ...source,
    "|",
    "curl -sS",
    t.tls ? "--http2" : "--http2-prior-knowledge",
    "-H",
    shellQuote("content-type: application/grpc"),
    "-H",
    shellQuote("te: trailers"),
    "--data-binary @-",
    shellQuote(`${t.base}/${GRPC_SERVICE}/${call.rpc}`),
    "|",
    "xxd",
  ];
  return {
    tool: "curl",
    command: parts.join(" "),
    ...notes(
      "sends the case's exact bytes; the answer is gRPC-framed (5-byte header per message), add -v to see grpc-status in the trailers",
      large
        ? `the ${body.length}-byte request is too long to spell out: write its gRPC frames as hex to request.bin.hex (each message: 00, its length as 4 bytes big-endian, its bytes — the $wire hex of the case's request)`
        : undefined,
      t.queryDropped ? QUERY_NOTE : undefined,
      authNote(call.auth, "grpc"),
    ),
  };
}

export interface JsonRpcCall {
  url: string;
  method: string;
  params: JsonValue | undefined;
  auth?: AuthKind;
}

export function curlJsonRpcCommand(call: JsonRpcCall): ReproduceCommand {
  const u = new URL(call.url);
  const queryDropped = u.search !== "";
  u.search = "";
  u.username = "";
  u.password = "";
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: call.method, params: call.params ?? [] });
  const large = body.length > INLINE_LIMIT;
  const parts = [
    "curl -s",
    "--data-binary",
    large ? "@request.json" : shellQuote(body),
    "-H",
    shellQuote("content-type: application/json"),
    shellQuote(u.toString()),
  ];
  return {
    tool: "curl",
    command: parts.join(" "),
    ...notes(
      large ? largeNote(body.length, `the JSON-RPC body {"jsonrpc":"2.0","id":1,"method":"${call.method}","params":<the case's request>}`) : undefined,
      queryDropped ? QUERY_NOTE : undefined,
      authNote(call.auth, "jsonrpc"),
    ),
  };
}

export interface ReproduceInput {
  transport: Transport;
  method: string;
  request: JsonValue | undefined;
  /** The side's endpoint for this transport, without credentials. */
  url: string | undefined;
  auth?: AuthKind;
}

/** Every command that repeats the call, best first; none when the side has no endpoint. */
export function reproduceCommands(x: ReproduceInput): ReproduceCommand[] {
  if (!x.url) return [];
  if (x.transport === "jsonrpc") return [curlJsonRpcCommand({ url: x.url, method: x.method, params: x.request, ...(x.auth ? { auth: x.auth } : {}) })];
  const call: GrpcCall = { url: x.url, rpc: x.method, request: x.request, ...(x.auth ? { auth: x.auth } : {}) };
  const raw = rawGrpcCurlCommand(call);
  // Bytes that do not decode have no JSON form the other tools could send.
  if (raw && grpcMessages(x.request).undecodable) return [raw];
  return [...(raw ? [raw] : []), grpcurlCommand(call), bufCurlCommand(call)];
}
