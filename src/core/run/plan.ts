// The plan: each case with its anchors resolved for one chain, turned into the exact
// request a build receives. Problems in a case (bad anchor syntax, a request that does
// not fit the rpc's message) are errors of the corpus and carry the case's file:line;
// an anchor the chain does not define only skips the case, with the reason.

import { fromBinary, fromJson, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { Case } from "../corpus/case.js";
import { AnchorSyntaxError, MissingAnchorError, resolveAnchors, type Anchors } from "../corpus/anchors.js";
import { ProblemsError, type Problem } from "../io/located-yaml.js";
import { canonGrpc, grpcCanonOptions } from "../canon/grpc.js";
import { protoJson } from "../canon/proto-json.js";
import { parseVolatile } from "../canon/volatile.js";
import type { GrpcObservation } from "../targets/observation.js";
import type { Protocol } from "./protocol.js";

export type GrpcPlannedRequest = Message | Uint8Array | (Message | Uint8Array)[];

export interface PlannedCase {
  case: Case;
  /** The rpc, for gRPC cases. */
  rpc?: DescMethod;
  /** The request as sent: a message (list for client streaming), raw bytes, or JSON-RPC params. */
  request?: GrpcPlannedRequest | unknown[];
  /** The resolved request in its JSON form, for reports and reproduce commands. */
  requestJson?: JsonValue;
  /** Why the case does not run on this chain. */
  skipped?: string;
}

/** The rpc of the protocol's service with this name. */
export function rpcOf(protocol: Pick<Protocol, "service">, name: string): DescMethod | undefined {
  return protocol.service.methods.find((m) => m.name === name);
}

/**
 * One gRPC request message from its resolved JSON form. `{ $wire: "<base64>" }` (written
 * in cases as `$wire: { $hex: … }`) sends bytes as they are, for requests no valid
 * message can express.
 */
function grpcMessage(rpc: DescMethod, value: unknown): Message | Uint8Array {
  if (value && typeof value === "object" && "$wire" in value) {
    const wire = Buffer.from(String((value as { $wire: unknown }).$wire), "base64");
    return new Uint8Array(wire);
  }
  return fromJson(rpc.input, (value ?? {}) as never);
}

function jsonOfRequest(rpc: DescMethod, request: Message | Uint8Array): JsonValue {
  if (request instanceof Uint8Array) {
    const wire = Buffer.from(request).toString("hex");
    try {
      return { $wire: wire, decoded: protoJson(rpc.input, fromBinary(rpc.input, request)) };
    } catch {
      return { $wire: wire };
    }
  }
  return protoJson(rpc.input, request as Message);
}

/** `unlearnt`: dynamic anchors the run could not learn at its start, with why. */
export function planCase(c: Case, anchors: Anchors, chain: string, protocol: Pick<Protocol, "service">, unlearnt?: ReadonlyMap<string, string>): PlannedCase {
  if (c.chains && !c.chains.includes(chain)) return { case: c, skipped: `only for chains ${c.chains.join(", ")}` };
  let resolved: unknown;
  try {
    resolved = resolveAnchors(c.request, anchors);
  } catch (e) {
    if (e instanceof MissingAnchorError) {
      const why = unlearnt?.get(e.anchor);
      return { case: c, skipped: why ? `anchor "${e.anchor}": ${why}` : `chain "${chain}" has no anchor "${e.anchor}"` };
    }
    throw e;
  }
  if (c.transport === "jsonrpc") {
    checkVolatile(() => parseVolatile([...c.volatile, ...(c.wallClock ?? []), ...(c.unorderedKeys ?? [])]));
    return { case: c, request: resolved as unknown[], requestJson: resolved as JsonValue };
  }
  const rpc = rpcOf(protocol, c.method);
  if (!rpc) throw new Error(`${c.source.file}:${c.source.line}: unknown rpc ${c.method}`);
  // wallClock paths are removed before goldens are compared: they must name fields as volatile ones do.
  checkVolatile(() => canonGrpc(NO_ANSWER, rpc.output, { ...grpcCanonOptions(rpc, c), volatile: [...c.volatile, ...(c.wallClock ?? [])] }));
  const clientStreaming = rpc.methodKind === "client_streaming";
  if (clientStreaming && !Array.isArray(resolved)) {
    throw new Error(`${c.source.file}:${c.source.line}: ${c.id}: request of the client-streaming rpc ${rpc.name} must be a list of messages`);
  }
  const request = clientStreaming ? (resolved as unknown[]).map((v) => grpcMessage(rpc, v)) : grpcMessage(rpc, resolved);
  const requestJson = Array.isArray(request) ? request.map((r) => jsonOfRequest(rpc, r)) : jsonOfRequest(rpc, request);
  return { case: c, rpc, request, requestJson };
}

/** A volatile declaration the canonical form cannot apply (bad syntax, a field the answer lacks). */
export class VolatileError extends Error {}

/** An answer with nothing in it: enough for canonGrpc to check the declarations. */
const NO_ANSWER: GrpcObservation = {
  transport: "grpc",
  method: "",
  code: 0,
  message: "",
  messages: [],
  headers: {},
  trailers: {},
  wireBytes: 0,
  timing: { startedAt: 0, totalMs: 0 },
};

/**
 * Declarations are checked while planning, where a mistake is a corpus problem with the
 * case's file and line, and not when the first answer is judged, where it ended the run.
 */
function checkVolatile(check: () => unknown): void {
  try {
    check();
  } catch (e) {
    throw new VolatileError((e as Error).message);
  }
}

/** Plans every case; all corpus problems are collected and thrown together. */
export function planCases(
  cases: readonly Case[],
  anchors: Anchors,
  chain: string,
  protocol: Pick<Protocol, "service">,
  unlearnt?: ReadonlyMap<string, string>,
): PlannedCase[] {
  const problems: Problem[] = [];
  const planned: PlannedCase[] = [];
  for (const c of cases) {
    try {
      planned.push(planCase(c, anchors, chain, protocol, unlearnt));
    } catch (e) {
      const reason = e instanceof AnchorSyntaxError ? e.message : (e as Error).message.replace(/^[^:]+:\d+: /, "");
      problems.push({ file: c.source.file, line: c.source.line, field: `${c.id}.${e instanceof VolatileError ? "volatile" : "request"}`, message: reason });
    }
  }
  if (problems.length > 0) throw new ProblemsError(problems);
  return planned;
}
