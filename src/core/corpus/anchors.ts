// Symbolic chain positions in case requests. A string `${expr}` is replaced by the value
// of an anchor of the chain profile; `{ $hex: "…", $repeat: n }` spells literal bytes.
//
//   ${tip}          the anchor's value (a number stays a number)
//   ${tip+1}        arithmetic on numeric anchors
//   ${tip|str}      a number as a decimal string (JSON-RPC hash_or_height parameters)
//   ${tip_hash|le}  display-order hex → its bytes reversed (wire order), as base64 for
//                   the protobuf JSON mapping
//   ${tip_hash|be}  display-order hex → the same bytes, as base64
//   ${x|hexle}      display-order hex → wire-order hex (for hex-carrying JSON fields)
//   ${x|utf8}       the value's text as UTF-8 bytes in hex (to spell a string field in a
//                   `$hex` literal, e.g. one address repeated ten thousand times)
// Inside a longer string, `${…}` interpolates the value as text.

import { bytesToHex, HexError, hexToBytes } from "../io/hex.js";

export type AnchorValue = number | string;
export type Anchors = Readonly<Record<string, AnchorValue>>;

export class MissingAnchorError extends Error {
  constructor(readonly anchor: string) {
    super(`anchor "${anchor}" is not defined for this chain`);
    this.name = "MissingAnchorError";
  }
}

export class AnchorSyntaxError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`bad anchor expression "\${${expression}}": ${reason}`);
    this.name = "AnchorSyntaxError";
  }
}

const EXPR = /^\s*([a-z][a-z0-9_]*)\s*(?:([+-])\s*(\d+))?\s*(?:\|\s*(le|be|str|hexle|utf8))?\s*$/;
const WHOLE = /^\$\{([^}]*)\}$/;
const PART = /\$\{([^}]*)\}/g;

function hexBytes(hex: string, expression: string): Uint8Array {
  try {
    return hexToBytes(hex);
  } catch (e) {
    if (e instanceof HexError) throw new AnchorSyntaxError(expression, `"${hex.slice(0, 80)}" is not even-length hex`);
    throw e;
  }
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

/** Evaluates one expression (the text between `${` and `}`). */
export function evaluate(expression: string, anchors: Anchors): AnchorValue {
  const m = EXPR.exec(expression);
  if (!m) throw new AnchorSyntaxError(expression, "expected name, name+N, name-N, optionally |le, |be, |str, |hexle or |utf8");
  const [, name, sign, amount, filter] = m as unknown as [string, string, string?, string?, string?];
  if (!(name in anchors)) throw new MissingAnchorError(name);
  let value = anchors[name] as AnchorValue;
  if (sign) {
    if (typeof value !== "number") throw new AnchorSyntaxError(expression, `"${name}" is not a number`);
    value = sign === "+" ? value + Number(amount) : value - Number(amount);
  }
  switch (filter) {
    case undefined:
      return value;
    case "str":
      return String(value);
    case "utf8":
      return bytesToHex(new TextEncoder().encode(String(value)));
    case "le":
    case "be":
    case "hexle": {
      if (typeof value !== "string") throw new AnchorSyntaxError(expression, `"${name}" is not hex`);
      const bytes = hexBytes(value, expression);
      if (filter !== "be") bytes.reverse();
      return filter === "hexle" ? bytesToHex(bytes) : toBase64(bytes);
    }
    default:
      throw new AnchorSyntaxError(expression, `unknown filter ${filter}`);
  }
}

/** The anchor names a value refers to, for planning and coverage. */
export function anchorsUsed(value: unknown): string[] {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      for (const m of v.matchAll(PART)) {
        const name = EXPR.exec(m[1] ?? "")?.[1];
        if (name) out.add(name);
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  return [...out];
}

/** A deep copy of `value` with every anchor and `$hex` literal resolved. */
export function resolveAnchors(value: unknown, anchors: Anchors): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return evaluate(whole[1] ?? "", anchors);
    return value.replace(PART, (_, expr: string) => String(evaluate(expr, anchors)));
  }
  if (Array.isArray(value)) return value.map((v) => resolveAnchors(v, anchors));
  if (value && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if ("$hex" in obj) {
      const hex = resolveAnchors(obj.$hex, anchors);
      const repeat = obj.$repeat === undefined ? 1 : Number(obj.$repeat);
      if (typeof hex !== "string" || !Number.isInteger(repeat) || repeat < 0) {
        throw new AnchorSyntaxError("$hex", "needs a hex string and a non-negative integer $repeat");
      }
      return toBase64(hexBytes(hex.repeat(repeat), "$hex"));
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, resolveAnchors(v, anchors)]));
  }
  return value;
}
