// A structural reader for protobuf wire bytes. The decoder of the protobuf library
// gives values; this gives positions: where each record starts and ends, so that a
// message that does not decode can be reported with an offset, volatile fields can be
// cut out without re-encoding anything else, and an encoding-only difference can be
// explained (field order, explicit defaults, packing).

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

export const WT_VARINT = 0;
export const WT_I64 = 1;
export const WT_LEN = 2;
export const WT_SGROUP = 3;
export const WT_EGROUP = 4;
export const WT_I32 = 5;

export interface WireRecord {
  no: number;
  wireType: number;
  /** Offset of the tag. */
  start: number;
  /** Offset just after the tag. */
  valueStart: number;
  /** For LEN records, the offset after the length prefix; otherwise valueStart. */
  payloadStart: number;
  /** Offset after the record (after the end-group tag for groups). */
  end: number;
  /** The schema's field for this number, when the number is known. */
  field: DescField | undefined;
  /** Records inside a message-typed LEN payload or a group. */
  children?: WireRecord[];
}

export class WireError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`undecodable at offset ${offset}: ${reason}`);
    this.name = "WireError";
  }
}

/** Offset after the varint starting at `pos`; throws on truncation or > 10 bytes. */
export function varintEnd(bytes: Uint8Array, pos: number, limit = bytes.length): number {
  for (let i = 0; i < 10; i++) {
    if (pos + i >= limit) throw new WireError(pos, "truncated varint");
    if ((bytes[pos + i]! & 0x80) === 0) return pos + i + 1;
  }
  throw new WireError(pos, "varint longer than 10 bytes");
}

/** Value of a varint as a JS number; exact up to 2^53, enough for tags and lengths. */
export function varintValue(bytes: Uint8Array, pos: number, end: number): number {
  let v = 0;
  let mul = 1;
  for (let i = pos; i < end; i++) {
    v += (bytes[i]! & 0x7f) * mul;
    mul *= 128;
  }
  return v;
}

/** A varint of more than one byte whose last byte is zero could have been shorter. */
export function varintIsMinimal(bytes: Uint8Array, pos: number, end: number): boolean {
  return end - pos === 1 || bytes[end - 1] !== 0;
}

/** Encodes `value` as a varint at least `width` bytes long (padding keeps the original
 * width of a length prefix, so that cutting a field changes nothing else). */
export function encodeVarint(value: number, width = 1): number[] {
  const out: number[] = [];
  let v = value;
  do {
    out.push(v % 128);
    v = Math.floor(v / 128);
  } while (v > 0);
  while (out.length < width) out.push(0);
  for (let i = 0; i < out.length - 1; i++) out[i]! |= 0x80;
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the records of one message. Throws WireError with the absolute offset of the
 * first thing that is not well-formed. `desc` may be undefined (unknown payloads, map
 * entries): then only the framing is checked.
 */
export function parseWire(bytes: Uint8Array, desc: DescMessage | undefined, from = 0, to = bytes.length, depth = 0, group?: number): WireRecord[] {
  if (depth > 100) throw new WireError(from, "nesting deeper than 100");
  const out: WireRecord[] = [];
  let pos = from;
  while (pos < to) {
    const start = pos;
    const tagEnd = varintEnd(bytes, pos, to);
    if (tagEnd - pos > 5) throw new WireError(pos, "tag overflows uint32");
    const tag = varintValue(bytes, pos, tagEnd);
    const no = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (no === 0) throw new WireError(pos, "field number 0");
    if (no > 0x1fffffff) throw new WireError(pos, "field number out of range");
    pos = tagEnd;
    if (wireType === WT_EGROUP) {
      if (group === no) {
        // The caller's group ends here; hand back where it ended through a sentinel.
        out.push({ no, wireType, start, valueStart: pos, payloadStart: pos, end: pos, field: undefined });
        return out;
      }
      throw new WireError(start, `unexpected end-group tag for field ${no}`);
    }
    const field = desc?.fields.find((f) => f.number === no);
    const rec: WireRecord = { no, wireType, start, valueStart: pos, payloadStart: pos, end: pos, field };
    switch (wireType) {
      case WT_VARINT:
        rec.end = varintEnd(bytes, pos, to);
        break;
      case WT_I64:
      case WT_I32: {
        const n = wireType === WT_I64 ? 8 : 4;
        if (pos + n > to) throw new WireError(pos, `truncated ${n * 8}-bit value`);
        rec.end = pos + n;
        break;
      }
      case WT_LEN: {
        const lenEnd = varintEnd(bytes, pos, to);
        const len = varintValue(bytes, pos, lenEnd);
        if (lenEnd + len > to) throw new WireError(pos, `length ${len} runs past the end`);
        rec.payloadStart = lenEnd;
        rec.end = lenEnd + len;
        checkPayload(bytes, rec, depth);
        break;
      }
      case WT_SGROUP: {
        const inner = field && (field.fieldKind === "message" || field.fieldKind === "list") ? field.message : undefined;
        const children = parseWire(bytes, inner, pos, to, depth + 1, no);
        const last = children[children.length - 1];
        if (!last || last.wireType !== WT_EGROUP) throw new WireError(start, `group ${no} not closed`);
        children.pop();
        rec.children = children;
        rec.end = last.end;
        break;
      }
      default:
        throw new WireError(start, `invalid wire type ${wireType}`);
    }
    pos = rec.end;
    out.push(rec);
  }
  if (group !== undefined) throw new WireError(from, `group ${group} not closed`);
  return out;
}

function checkPayload(bytes: Uint8Array, rec: WireRecord, depth: number): void {
  const f = rec.field;
  if (!f) return;
  const { payloadStart: a, end: b } = rec;
  if (f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")) {
    rec.children = parseWire(bytes, f.message, a, b, depth + 1);
    return;
  }
  if (f.fieldKind === "map") {
    rec.children = parseWire(bytes, undefined, a, b, depth + 1);
    return;
  }
  const scalar = f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : undefined;
  if (scalar === ScalarType.STRING) {
    if (f.utf8Validation) {
      try {
        utf8.decode(bytes.subarray(a, b));
      } catch {
        throw new WireError(a, `invalid UTF-8 in string field ${f.jsonName}`);
      }
    }
    return;
  }
  if (scalar === ScalarType.BYTES) return;
  if (f.fieldKind === "list") packedElements(bytes, a, b, scalar ?? ScalarType.INT32);
}

/** Fixed width of a scalar on the wire, or 0 for varints. */
export function fixedWidth(t: ScalarType): number {
  switch (t) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 8;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return 4;
    default:
      return 0;
  }
}

/** Element boundaries of a packed repeated scalar payload: [start, end) pairs. */
export function packedElements(bytes: Uint8Array, from: number, to: number, t: ScalarType): [number, number][] {
  const out: [number, number][] = [];
  const w = fixedWidth(t);
  let pos = from;
  while (pos < to) {
    const end = w ? pos + w : varintEnd(bytes, pos, to);
    if (end > to) throw new WireError(pos, "packed element runs past the end");
    out.push([pos, end]);
    pos = end;
  }
  return out;
}

/** Where fromBinary would have given up, as far as the framing shows; undefined when
 * the framing is sound and the library rejected something else. */
export function findUndecodable(bytes: Uint8Array, desc: DescMessage): WireError | undefined {
  try {
    parseWire(bytes, desc);
    return undefined;
  } catch (e) {
    if (e instanceof WireError) return e;
    throw e;
  }
}
