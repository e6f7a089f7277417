// The oracle's side of a JSON-RPC call: send it, turn the body into a result, a NodeError
// or an OracleFault, and read results with shape checks. A node that answers in a shape
// the derivation does not expect cannot vouch for anything: that is a fault of the
// oracle ("protocol"), never a wrong answer silently derived.

import { HexError, hexToBytes } from "../../core/io/hex.js";
import type { JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { JsonRpcObservation } from "../../core/targets/observation.js";
import type { OracleCache } from "./cache.js";
import { NodeError, OracleFault, RPC_CODE } from "./status.js";

export interface Node {
  /** The result of the call; throws NodeError or OracleFault. Cached per OracleCache's rules. */
  call(method: string, params?: readonly unknown[]): Promise<unknown>;
  /** getblockchaininfo.chain, asked once: a node's network never changes. */
  chain(): Promise<string>;
}

export function createNode(target: JsonRpcTarget, cache: OracleCache): Node {
  let chain: Promise<string> | undefined;
  const node: Node = {
    call: (method, params = []) => cache.get(method, params, async () => resultOf(method, await target.call(method, params))),
    chain() {
      if (chain) return chain;
      const p = node.call("getblockchaininfo").then((r) => str(field(obj(r, "getblockchaininfo"), "chain", "getblockchaininfo")));
      chain = p;
      // A failure is not kept: the next case asks again.
      p.catch(() => {
        if (chain === p) chain = undefined;
      });
      return p;
    },
  };
  return node;
}

/** The `result` of a JSON-RPC answer, or the error it carries, or why there is neither. */
export function resultOf(method: string, obs: JsonRpcObservation): unknown {
  // zcashd answers its errors with HTTP 500 and a JSON-RPC error body: still an answer.
  const body = obs.fault && obs.fault.kind !== "http-status" ? undefined : parseBody(obs.body);
  if (obs.fault && !isErrorBody(body)) throw new OracleFault(obs.fault.kind, `${method}: ${obs.fault.detail}`);
  if (body === undefined || body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new OracleFault("invalid-json", `${method}: the answer is not a JSON-RPC object`);
  }
  const b = body as { result?: unknown; error?: unknown };
  if (b.error !== undefined && b.error !== null) {
    const e = b.error as { code?: unknown; message?: unknown };
    if (typeof e.code !== "number" || typeof e.message !== "string") {
      throw new OracleFault("protocol", `${method}: malformed error object ${JSON.stringify(b.error)}`);
    }
    if (e.code === RPC_CODE.METHOD_NOT_FOUND) throw new OracleFault("protocol", `${method}: the node does not serve this method (${e.message})`);
    throw new NodeError(method, e.code, e.message);
  }
  if (!("result" in b)) throw new OracleFault("protocol", `${method}: the answer has neither result nor error`);
  return b.result;
}

function parseBody(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): boolean {
  const e = (body as { error?: { code?: unknown } } | null | undefined)?.error;
  return typeof e?.code === "number";
}

// ── shape checks ──────────────────────────────────────────────────────────────────

function shapeFault(what: string, expected: string, got: unknown): OracleFault {
  const shown = JSON.stringify(got);
  return new OracleFault("protocol", `${what}: expected ${expected}, got ${shown === undefined ? "nothing" : shown.slice(0, 80)}`);
}

export function obj(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw shapeFault(what, "an object", v);
  return v as Record<string, unknown>;
}

export function arr(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw shapeFault(what, "an array", v);
  return v;
}

/** A required key, labelled for the fault message. */
export function field(o: Record<string, unknown>, key: string, what: string): { v: unknown; what: string } {
  return { v: o[key], what: `${what}.${key}` };
}

export function str(f: { v: unknown; what: string }): string {
  if (typeof f.v !== "string") throw shapeFault(f.what, "a string", f.v);
  return f.v;
}

/** A non-negative integer (heights, sizes, amounts in zatoshi). */
export function uint(f: { v: unknown; what: string }): number {
  if (typeof f.v !== "number" || !Number.isSafeInteger(f.v) || f.v < 0) throw shapeFault(f.what, "a non-negative integer", f.v);
  return f.v;
}

export function optionalUint(f: { v: unknown; what: string }): number | undefined {
  return f.v === undefined || f.v === null ? undefined : uint(f);
}

/** Hex text as bytes; text that is not hex is the node's fault. */
export function hex(f: { v: unknown; what: string }): Uint8Array {
  const s = str(f);
  try {
    return hexToBytes(s);
  } catch (e) {
    if (e instanceof HexError) throw shapeFault(f.what, "hex", s);
    throw e;
  }
}
