// The fault table: each hostile behaviour the fault proxy can put on a build, with how
// zconform must classify it. test/faults.test.ts runs every row end to end;
// docs/reliability.md lists them (test/reliability.test.ts).

import type { DivergenceKind } from "../../src/core/diff/divergence.js";
import type { VerdictKind } from "../../src/core/diff/verdict.js";
import type { FaultKind } from "../../src/core/targets/observation.js";
import type { GrpcFault, JsonRpcFault } from "./fault-proxy.js";

export const GRPC = { UNKNOWN: 2, RESOURCE_EXHAUSTED: 8, INTERNAL: 13, UNAVAILABLE: 14 } as const;

export interface FaultRow {
  name: string;
  /** The fault the proxy applies to the faulty build (selected by rpc and header). */
  grpc?: { rpc: string; fault: GrpcFault };
  jsonrpc?: { rpc: string; fault: JsonRpcFault };
  /** Special setups that are not a proxy rule on the faulty build. */
  setup?: "wrong-cookie" | "oracle-closes";
  /** Case ids that the fault touches. */
  affected: string[];
  /** Expected `fault.kind` of the faulty build's answer on the affected cases (none: no fault). */
  fault?: FaultKind;
  /** Expected gRPC code in the report; null for a client timeout, which has none. */
  code?: number | null;
  /** How many messages the faulty build's answer keeps (what arrived before the break). */
  kept?: number;
  verdict?: VerdictKind;
  /** A divergence the faulty build must show on the affected cases (a fault shows none: it could not be checked). */
  divergence?: { kind: DivergenceKind; path: string };
}

// The fault table: kind → classification.
export const FAULT_ROWS: FaultRow[] = [
  { name: "grpc: delay inside the deadline", grpc: { rpc: "GetBlock", fault: { kind: "delay", ms: 300 } }, affected: ["GetBlock/at-5"], verdict: "agree" },
  {
    name: "grpc: delay past the deadline",
    grpc: { rpc: "GetBlock", fault: { kind: "delay", ms: 4000 } },
    affected: ["GetBlock/at-5"],
    fault: "timeout",
    code: null,
    verdict: "deviant",
  },
  { name: "grpc: hang", grpc: { rpc: "GetBlock", fault: { kind: "hang" } }, affected: ["GetBlock/at-5"], fault: "timeout", code: null, verdict: "deviant" },
  {
    name: "grpc: stream reset mid-way",
    grpc: { rpc: "GetBlockRange", fault: { kind: "reset-mid-stream", afterMessages: 3 } },
    affected: ["GetBlockRange/first-ten"],
    fault: "reset",
    code: GRPC.INTERNAL,
    kept: 3,
    verdict: "deviant",
  },
  {
    name: "grpc: connection closed mid-stream",
    grpc: { rpc: "GetBlockRange", fault: { kind: "close-mid-stream", afterMessages: 3 } },
    affected: ["GetBlockRange/first-ten"],
    fault: "reset",
    code: GRPC.UNAVAILABLE,
    kept: 3,
    verdict: "deviant",
  },
  {
    name: "grpc: malformed frame",
    grpc: { rpc: "GetBlock", fault: { kind: "malformed-frame" } },
    affected: ["GetBlock/at-5"],
    fault: "malformed-frame",
    code: GRPC.INTERNAL,
    verdict: "deviant",
  },
  {
    name: "grpc: lying length prefix",
    grpc: { rpc: "GetBlock", fault: { kind: "lying-length" } },
    affected: ["GetBlock/at-5"],
    fault: "malformed-frame",
    code: GRPC.INTERNAL,
    verdict: "deviant",
  },
  {
    name: "grpc: compressed frame without negotiation",
    grpc: { rpc: "GetBlock", fault: { kind: "compressed" } },
    affected: ["GetBlock/at-5"],
    fault: "compressed",
    code: GRPC.INTERNAL,
    verdict: "deviant",
  },
  {
    name: "grpc: wrong content-type",
    grpc: { rpc: "GetBlock", fault: { kind: "content-type", value: "text/html" } },
    affected: ["GetBlock/at-5"],
    fault: "content-type",
    code: GRPC.UNKNOWN,
    verdict: "deviant",
  },
  {
    name: "grpc: gateway error status",
    grpc: { rpc: "GetBlock", fault: { kind: "http-status", status: 502 } },
    affected: ["GetBlock/at-5"],
    fault: "http-status",
    code: GRPC.UNAVAILABLE,
    verdict: "deviant",
  },
  {
    name: "grpc: message over the size limit",
    grpc: { rpc: "GetBlock", fault: { kind: "oversized", bytes: 300 * 1024 } },
    affected: ["GetBlock/at-5"],
    fault: "too-large",
    code: GRPC.RESOURCE_EXHAUSTED,
    verdict: "deviant",
  },
  {
    name: "grpc: endless stream",
    grpc: { rpc: "GetBlockRange", fault: { kind: "endless" } },
    affected: ["GetBlockRange/first-ten"],
    fault: "too-long",
    code: GRPC.RESOURCE_EXHAUSTED,
    kept: 500,
    verdict: "deviant",
  },
  {
    name: "grpc: no grpc-status",
    grpc: { rpc: "GetBlock", fault: { kind: "no-status" } },
    affected: ["GetBlock/at-5"],
    fault: "protocol",
    code: GRPC.INTERNAL,
    kept: 1,
    verdict: "deviant",
  },
  // A status the server sent is not a fault: undecodable bytes under OK are an answer that differs.
  {
    name: "grpc: undecodable message under status OK",
    grpc: { rpc: "GetBlock", fault: { kind: "garbage" } },
    affected: ["GetBlock/at-5"],
    kept: 1,
    verdict: "deviant",
    divergence: { kind: "value", path: "" },
  },
  // Startup calls: a build answering garbage to GetLightdInfo or GetLatestBlock leaves the run and every case alone.
  { name: "grpc: garbage to GetLightdInfo at startup", grpc: { rpc: "GetLightdInfo", fault: { kind: "garbage" } }, affected: [] },
  {
    name: "jsonrpc: delay past the deadline",
    jsonrpc: { rpc: "getblock", fault: { kind: "delay", ms: 4000 } },
    affected: ["getblock/raw-5"],
    fault: "timeout",
    verdict: "deviant",
  },
  { name: "jsonrpc: hang", jsonrpc: { rpc: "getblock", fault: { kind: "hang" } }, affected: ["getblock/raw-5"], fault: "timeout", verdict: "deviant" },
  {
    name: "jsonrpc: HTML error page",
    jsonrpc: { rpc: "getblock", fault: { kind: "html-error-page", status: 502 } },
    affected: ["getblock/raw-5"],
    fault: "http-status",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: HTML page with 200",
    jsonrpc: { rpc: "getblock", fault: { kind: "html-200" } },
    affected: ["getblock/raw-5"],
    fault: "content-type",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: empty 200 body",
    jsonrpc: { rpc: "getblock", fault: { kind: "empty-200" } },
    affected: ["getblock/raw-5"],
    fault: "empty-body",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: connection closed with no reply",
    jsonrpc: { rpc: "getblock", fault: { kind: "close-no-reply" } },
    affected: ["getblock/raw-5"],
    fault: "empty-body",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: invalid JSON",
    jsonrpc: { rpc: "getblock", fault: { kind: "invalid-json" } },
    affected: ["getblock/raw-5"],
    fault: "invalid-json",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: answer with the wrong id",
    jsonrpc: { rpc: "getblock", fault: { kind: "wrong-id" } },
    affected: ["getblock/raw-5"],
    fault: "wrong-id",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: connection dropped mid-body",
    jsonrpc: { rpc: "getblock", fault: { kind: "reset-mid-body" } },
    affected: ["getblock/raw-5"],
    fault: "reset",
    verdict: "deviant",
  },
  {
    name: "jsonrpc: body over the size limit",
    jsonrpc: { rpc: "getblock", fault: { kind: "oversized", bytes: 300 * 1024 } },
    affected: ["getblock/raw-5"],
    fault: "too-large",
    verdict: "deviant",
  },
  // A hostile body: valid JSON nested 50,000 deep. It is an answer (no fault), compared as bytes.
  {
    name: "jsonrpc: JSON nested 50,000 levels deep",
    jsonrpc: { rpc: "getblock", fault: { kind: "deep-json", depth: 50_000 } },
    affected: ["getblock/raw-5"],
    verdict: "deviant",
    divergence: { kind: "json-shape", path: "" },
  },
  {
    name: "jsonrpc: wrong cookie (the fixture closes the connection, as Zebra does)",
    setup: "wrong-cookie",
    affected: ["getblock/raw-5", "getblockcount/count"],
    fault: "empty-body",
    verdict: "deviant",
  },
  // The oracle's getblock also feeds the derived GetBlock and GetBlockRange answers.
  {
    name: "oracle: closes the connection",
    setup: "oracle-closes",
    affected: ["getblock/raw-5", "GetBlock/at-5", "GetBlockRange/first-ten"],
    verdict: "unavailable",
  },
];
