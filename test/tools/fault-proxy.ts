// A fault-injecting proxy for tests: a real network hop between zconform and the fixture
// network that answers like a broken or hostile server when a rule says so, and passes
// everything else through untouched. Loopback only; test tooling, never shipped.
//
// How to use it
// -------------
//   const net = await startFixtureNetwork({ profiles: ["reference"] });
//   const proxy = await startFaultProxy({
//     grpcUpstream: net.grpc.reference,                     // an h2c gRPC server
//     jsonrpcUpstream: net.jsonrpcProfiles.reference!.url,  // a JSON-RPC server
//     rules: [
//       // Every GetBlockRange call is cut after two messages …
//       { transport: "grpc", rpc: "GetBlockRange", fault: { kind: "reset-mid-stream", afterMessages: 2 } },
//       // … and getblock calls that carry `x-fault: on` get an HTML error page.
//       { transport: "jsonrpc", rpc: "getblock", header: { name: "x-fault", value: "on" },
//         fault: { kind: "html-error-page", status: 502 } },
//     ],
//   });
//   // Point a build at proxy.grpcUrl / proxy.jsonrpcUrl (its config `headers` can carry
//   // the header a rule selects on), run, then read proxy.log to see what arrived.
//   await proxy.close();
//
// Rules are tried in order and the first that matches a request decides; `rpc` matches
// the gRPC method name (the last segment of :path) or the JSON-RPC `method`, `header`
// a request header (names lower-case), `times` spends a rule after that many requests.
// `proxy.rules` may be replaced between runs. Requests are forwarded with their headers
// (credentials included, as a real proxy would), so cookie auth behind it still works.
//
// gRPC faults (HTTP/2, h2c):
//   delay             answer normally after `ms`
//   hang              never answer (the client's deadline must end the call)
//   reset-mid-stream  send `afterMessages` messages, then RST_STREAM INTERNAL_ERROR
//   close-mid-stream  send `afterMessages` messages, then drop the whole connection
//   malformed-frame   a frame whose flag byte is neither 0 nor 1
//   lying-length      a frame whose length prefix claims more bytes than follow
//   compressed        a frame flagged compressed although nothing was negotiated
//   content-type      the right bytes under another content-type (an HTML page)
//   http-status       an HTTP error status from a gateway, no gRPC status
//   oversized         one message of `bytes` bytes
//   endless           the first real message, repeated until the client gives up
//   no-status         the real messages, then end of stream without grpc-status
//   garbage           status OK around one well-framed message that is not protobuf
//   reflect-auth      a hostile server that echoes the request's credentials back
// JSON-RPC faults (HTTP/1.1):
//   delay, hang       as above
//   html-error-page   an HTML page under HTTP `status` (a proxy's 502)
//   html-200          an HTML page under HTTP 200
//   empty-200         HTTP 200 with an empty body
//   close-no-reply    the connection closed without a reply (Zebra's answer to a bad cookie)
//   invalid-json      a truncated JSON body
//   wrong-id          the real answer with another request id
//   reset-mid-body    half of the promised body, then the connection dropped
//   oversized         a valid JSON answer of about `bytes` bytes
//   deep-json         a valid answer (right id) whose result nests `depth` arrays deep
//   reflect-auth      as above, in a JSON-RPC error message

import { startGrpcProxy } from "./fault-proxy-grpc.js";
import { startJsonRpcProxy } from "./fault-proxy-jsonrpc.js";

export type GrpcFault =
  | { kind: "delay"; ms: number }
  | { kind: "hang" }
  | { kind: "reset-mid-stream"; afterMessages: number }
  | { kind: "close-mid-stream"; afterMessages: number }
  | { kind: "malformed-frame" }
  | { kind: "lying-length" }
  | { kind: "compressed" }
  | { kind: "content-type"; value: string }
  | { kind: "http-status"; status: number }
  | { kind: "oversized"; bytes: number }
  | { kind: "endless" }
  | { kind: "no-status" }
  | { kind: "garbage" }
  | { kind: "reflect-auth" };

export type JsonRpcFault =
  | { kind: "delay"; ms: number }
  | { kind: "hang" }
  | { kind: "html-error-page"; status: number }
  | { kind: "html-200" }
  | { kind: "empty-200" }
  | { kind: "close-no-reply" }
  | { kind: "invalid-json" }
  | { kind: "wrong-id" }
  | { kind: "reset-mid-body" }
  | { kind: "oversized"; bytes: number }
  | { kind: "deep-json"; depth: number }
  | { kind: "reflect-auth" };

interface RuleBase {
  /** gRPC method name or JSON-RPC method; absent = any. */
  rpc?: string;
  /** A request header that must carry this value (lower-case name). */
  header?: { name: string; value: string };
  /** How many matching requests the rule applies to; absent = all. */
  times?: number;
}

export type FaultRule = (RuleBase & { transport: "grpc"; fault: GrpcFault }) | (RuleBase & { transport: "jsonrpc"; fault: JsonRpcFault });

/** One request the proxy saw. */
export interface ProxiedRequest {
  transport: "grpc" | "jsonrpc";
  rpc: string;
  headers: Record<string, string>;
  /** The fault applied, if a rule matched. */
  fault?: string;
  /** performance.now() when the request arrived and when its answer ended. */
  start: number;
  end?: number;
}

export interface FaultProxyOptions {
  grpcUpstream?: string;
  jsonrpcUpstream?: string;
  rules?: FaultRule[];
}

export interface FaultProxy {
  /** http://127.0.0.1:port (h2c), when a gRPC upstream was given. */
  grpcUrl: string;
  /** http://127.0.0.1:port, when a JSON-RPC upstream was given. */
  jsonrpcUrl: string;
  rules: FaultRule[];
  readonly log: ProxiedRequest[];
  /** The most requests that were in flight at once among those `filter` keeps. */
  maxConcurrent(filter?: (r: ProxiedRequest) => boolean): number;
  close(): Promise<void>;
}

/** Shared by both halves: the rule for one request, spending it when it is counted. */
export interface RuleBook {
  pick(transport: "grpc" | "jsonrpc", rpc: string, headers: Record<string, string>): FaultRule | undefined;
  record(r: ProxiedRequest): ProxiedRequest;
}

export async function startFaultProxy(o: FaultProxyOptions): Promise<FaultProxy> {
  const log: ProxiedRequest[] = [];
  const used = new Map<FaultRule, number>();
  const proxy: FaultProxy = {
    grpcUrl: "",
    jsonrpcUrl: "",
    rules: o.rules ?? [],
    log,
    maxConcurrent: (filter = () => true) => maxOverlap(log.filter(filter)),
    close: async () => undefined,
  };
  const book: RuleBook = {
    pick(transport, rpc, headers) {
      for (const rule of proxy.rules) {
        if (rule.transport !== transport) continue;
        if (rule.rpc !== undefined && rule.rpc !== rpc) continue;
        if (rule.header && headers[rule.header.name.toLowerCase()] !== rule.header.value) continue;
        const n = used.get(rule) ?? 0;
        if (rule.times !== undefined && n >= rule.times) continue;
        used.set(rule, n + 1);
        return rule;
      }
      return undefined;
    },
    record(r) {
      log.push(r);
      return r;
    },
  };
  const closers: (() => Promise<void>)[] = [];
  try {
    if (o.grpcUpstream) {
      const g = await startGrpcProxy(o.grpcUpstream, book);
      proxy.grpcUrl = g.url;
      closers.push(g.close);
    }
    if (o.jsonrpcUpstream) {
      const j = await startJsonRpcProxy(o.jsonrpcUpstream, book);
      proxy.jsonrpcUrl = j.url;
      closers.push(j.close);
    }
  } catch (e) {
    await Promise.all(closers.map((c) => c()));
    throw e;
  }
  proxy.close = async () => {
    await Promise.all(closers.map((c) => c()));
  };
  return proxy;
}

function maxOverlap(requests: readonly ProxiedRequest[]): number {
  const edges: [number, number][] = [];
  for (const r of requests) {
    edges.push([r.start, 1]);
    edges.push([r.end ?? Infinity, -1]);
  }
  // Ends sort before starts at the same instant: back-to-back calls do not overlap.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  for (const [, d] of edges) {
    now += d;
    max = Math.max(max, now);
  }
  return max;
}

/** Header values as plain strings, names lower-case. */
export function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || k.startsWith(":")) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}
