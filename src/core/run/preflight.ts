// What the preflight decides before the first case. What the servers are asked is the
// protocol's (Protocol.startFacts); this is what follows from their answers:
//   - servers on another chain than the chain profile says, or builds that disagree on
//     the chain, are a config problem: the run stops with exit 2 unless --force;
//   - a build or the oracle the preflight could not reach (refused, not found, TLS
//     failed, a plaintext call to a TLS port, or gRPC to a port without HTTP/2) is not
//     asked again: each call of the run to it answers at once with the preflight's fault,
//     so every one of its cases is "could not check" for that reason, every report is
//     written, and the run exits 3. --force sends every case anyway. A server that did
//     not answer in time is asked on: the run's unresponsive rule decides when to stop.
// A server that closed a plaintext call on its first answer may speak TLS, or no HTTP/2
// where gRPC was asked: one look at the port tells (port-probe.ts), so the line names
// the fix rather than guessing at credentials.

import type { Contact, Preflight } from "../results/events.js";
import type { GrpcTarget } from "../targets/grpc.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Fault } from "../targets/observation.js";
import { NO_H2C, SPEAKS_TLS } from "../targets/fault-advice.js";
import { inert } from "../report/inert.js";
import { whatSpeaks } from "./port-probe.js";
import type { Connections } from "./runner.js";

/** Raised when the preflight found a config problem and --force was not given. */
export class PreflightError extends Error {
  constructor(readonly preflight: Preflight) {
    // A problem quotes what servers said (their chain names): shown, never obeyed.
    super(`preflight: ${preflight.problems.map(inert).join("\n  ")}\n  (check the config's endpoints and chain, or pass --force to run anyway)`);
  }
}

export interface PreflightInput {
  connections: Connections;
  oracle?: JsonRpcTarget;
  force: boolean;
  /** The run was interrupted during the preflight: it ends as interrupted, not stopped. */
  interrupted: boolean;
}

/** The targets the cases are sent to. */
export interface SentTargets {
  connections: Connections;
  oracle?: JsonRpcTarget;
}

/**
 * Stops the run on a config problem (unless forced); otherwise the targets to send the
 * cases to, with every server the preflight could not reach answering its fault at once.
 * Contacts found to be plaintext calls to a TLS port, or gRPC calls to a port without HTTP/2, are marked so in `preflight`.
 */
export async function settlePreflight(preflight: Preflight, input: PreflightInput): Promise<SentTargets> {
  const urlOf = (c: Contact) =>
    (c === preflight.oracle ? input.oracle : (c.transport === "grpc" ? input.connections.grpc : input.connections.jsonrpc).get(c.name))?.url;
  // An interrupted run looks at no port: it ends within 2 s, and its calls were cut, not refused.
  if (!input.interrupted) await Promise.all([...preflight.builds, ...(preflight.oracle ? [preflight.oracle] : [])].map((c) => markWrongPort(c, urlOf(c))));
  if (preflight.problems.length > 0 && !input.interrupted) {
    if (!input.force) throw new PreflightError(preflight);
    preflight.forced = true;
  }
  if (input.force) return { connections: input.connections, ...(input.oracle ? { oracle: input.oracle } : {}) };
  const down = (transport: Contact["transport"]) =>
    new Map(preflight.builds.filter((c) => unreachable(c) && c.transport === transport).map((c) => [c.name, preflightFault(c)]));
  const grpcDown = down("grpc");
  const jsonrpcDown = down("jsonrpc");
  const oracleDown = preflight.oracle && unreachable(preflight.oracle) ? preflightFault(preflight.oracle) : undefined;
  return {
    connections: {
      grpc: new Map([...input.connections.grpc].map(([name, t]) => [name, grpcDown.has(name) ? downGrpc(t, grpcDown.get(name)!) : t])),
      jsonrpc: new Map([...input.connections.jsonrpc].map(([name, t]) => [name, jsonrpcDown.has(name) ? downJsonRpc(t, jsonrpcDown.get(name)!) : t])),
    },
    ...(input.oracle ? { oracle: oracleDown ? downJsonRpc(input.oracle, oracleDown) : input.oracle } : {}),
  };
}

/**
 * Not reached, and not for want of time: a server that is only slow or stuck is asked
 * on, and the run's unresponsive rule (unresponsive.ts) decides when to stop asking.
 */
const unreachable = (c: Contact) => !c.reached && !(c.detail ?? "").includes("(client deadline)");

/** The fault every call to a server the preflight could not reach answers with. */
export function preflightFault(c: Contact): Fault {
  return { kind: "unreachable", detail: `${c.detail ?? "no answer"} (at the preflight, so no case was sent to it)` };
}

const UNAVAILABLE = 14;

function downGrpc(t: GrpcTarget, fault: Fault): GrpcTarget {
  return {
    ...t,
    call: async (method) => ({
      transport: "grpc",
      method: method.name,
      code: UNAVAILABLE,
      message: fault.detail,
      messages: [],
      messageCount: 0,
      headers: {},
      trailers: {},
      wireBytes: 0,
      timing: { startedAt: Date.now(), totalMs: 0 },
      fault,
    }),
    // The target it stands for is closed by whoever opened it.
    close: async () => {},
    abort: () => {},
  };
}

function downJsonRpc(t: JsonRpcTarget, fault: Fault): JsonRpcTarget {
  const answer = async (method: string) => ({
    transport: "jsonrpc" as const,
    method,
    httpStatus: 0,
    body: new Uint8Array(0),
    wireBytes: 0,
    timing: { startedAt: Date.now(), totalMs: 0 },
    fault,
  });
  return { ...t, call: answer, batch: answer, close: async () => {}, abort: async () => {} };
}

// Failures that say nothing of what speaks on the port: no connection, no answer in
// time, or an answer in the protocol asked for (a status, an error, a header).
const NOT_A_PORT_PROBLEM = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|\(client deadline\)|^(status \d|JSON-RPC error|HTTP status|content-type)/;

/**
 * A plaintext call that got no usable answer, from a port where TLS speaks, or (for
 * gRPC) no HTTP/2: not reached, and why. Its cases would all fail the same way.
 */
async function markWrongPort(c: Contact, url: string | undefined): Promise<void> {
  if (c.chainName !== undefined || url === undefined || !url.startsWith("http:") || NOT_A_PORT_PROBLEM.test(c.detail ?? "")) return;
  const speaks = await whatSpeaks(new URL(url), { h2c: c.transport === "grpc" });
  if (speaks === undefined) return;
  c.reached = false;
  c.detail = `${speaks === "tls" ? `${SPEAKS_TLS}, and the URL says http://` : NO_H2C} (${c.detail ?? "no answer"})`;
}
