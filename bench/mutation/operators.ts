// The mutation operators: small changes a faulty build could make to what it answers,
// as plain functions over the protobuf messages (and JSON-RPC answers) of the protocol.

import type { Code } from "@connectrpc/connect";
import type { AnyMessage } from "./inject.js";
import { F64 } from "../../src/zcash/fixture/jsonrpc/json.js";

type Msgs = AnyMessage[];

export const dropLast = (ms: Msgs): Msgs => ms.slice(0, -1);
export const dropFirst = (ms: Msgs): Msgs => ms.slice(1);
export const duplicateFirst = (ms: Msgs): Msgs => (ms.length === 0 ? ms : [ms[0], ...ms]);
export const swapFirstTwo = (ms: Msgs): Msgs => (ms.length < 2 ? ms : [ms[1], ms[0], ...ms.slice(2)]);

/** Applies `f` to every message of the answer. */
export const each =
  (f: (m: AnyMessage) => void) =>
  (ms: Msgs): Msgs => {
    ms.forEach(f);
    return ms;
  };

export const reversed = (b: Uint8Array): Uint8Array => Uint8Array.from(b).reverse();

/** Display hex in the other byte order. */
export const reversedHex = (h: string): string => (h.match(/../g) ?? []).reverse().join("");

/** The same bytes with the last one changed. */
export const flipLast = (b: Uint8Array): Uint8Array => {
  if (b.length === 0) return b;
  const out = Uint8Array.from(b);
  out[out.length - 1] = out[out.length - 1]! ^ 0x01;
  return out;
};

/** One error class answered with another status. */
export const recode =
  (from: Code, to: Code) =>
  (c: Code): Code =>
    c === from ? to : c;

/** Every compact transaction of compact blocks (GetBlock, ranges) or of a mempool answer. */
export function compactTxs(m: AnyMessage): AnyMessage[] {
  return Array.isArray(m?.vtx) ? m.vtx : m?.$typeName?.endsWith("CompactTx") ? [m] : [];
}

const shielded = (tx: AnyMessage) => tx.spends.length + tx.outputs.length + tx.actions.length > 0;

/** Drops the last transaction with shielded data from each block. */
export const dropShieldedTx = each((b) => {
  const i = b.vtx.map(shielded).lastIndexOf(true);
  if (i >= 0) b.vtx.splice(i, 1);
});

export const truncateSaplingCiphertext = (tx: AnyMessage): void => {
  for (const o of tx.outputs) o.ciphertext = o.ciphertext.subarray(0, 51);
};

export const truncateOrchardCiphertext = (tx: AnyMessage): void => {
  for (const a of tx.actions) if (a.ciphertext.length > 0) a.ciphertext = a.ciphertext.subarray(0, 51);
};

/** Changes one leaf of a JSON-RPC answer: the first number, string or boolean found (depth first); new containers, the input is left as it was. */
export function perturbJson(v: unknown): unknown {
  let done = false;
  const walk = (x: unknown): unknown => {
    if (done) return x;
    if (typeof x === "number" || typeof x === "bigint") {
      done = true;
      return typeof x === "number" ? x + 1 : x + 1n;
    }
    if (x instanceof F64) {
      done = true;
      return new F64(x.value + 1);
    }
    if (typeof x === "boolean") {
      done = true;
      return !x;
    }
    if (typeof x === "string") {
      done = true;
      return x.length === 0 ? "0" : x.slice(0, -1) + (x.endsWith("0") ? "1" : "0");
    }
    if (Array.isArray(x)) return x.map(walk);
    if (x !== null && typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype)
      return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return x;
  };
  return walk(v);
}

/** The JSON value without its last array item or its first key; a lone value is dropped (null). */
export function dropJsonItem(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice(0, -1);
  if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) return Object.fromEntries(Object.entries(v).slice(1));
  return null;
}
