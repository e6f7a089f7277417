// Why two encodings of equal values differ: the notes that make an `encoding-only`
// divergence readable (a field out of number order, an explicit default, an unpacked
// repeated field, a padded varint, a singular field sent twice).

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { appendIndex, appendKey, appendSegment } from "../canon/paths.js";
import { parseWire, varintIsMinimal, WT_I32, WT_I64, WT_LEN, WT_VARINT, type WireRecord } from "../canon/wire.js";

/** Notes on what in `bytes` a deterministic encoder would have written differently. */
export function encodingNotes(bytes: Uint8Array, desc: DescMessage): string[] {
  const out: string[] = [];
  try {
    walk(bytes, parseWire(bytes, desc), "", out);
  } catch (e) {
    out.push(`framing unreadable: ${(e as Error).message}`);
  }
  return out;
}

/** The notes of each side that the other side does not share. */
export function encodingDifference(a: Uint8Array, b: Uint8Array, desc: DescMessage): string {
  const na = encodingNotes(a, desc);
  const nb = encodingNotes(b, desc);
  const onlyA = na.filter((n) => !nb.includes(n));
  const onlyB = nb.filter((n) => !na.includes(n));
  const parts: string[] = [];
  if (onlyA.length) parts.push(`left: ${onlyA.join("; ")}`);
  if (onlyB.length) parts.push(`right: ${onlyB.join("; ")}`);
  return parts.length ? parts.join(" | ") : "unknown fields in another order";
}

function walk(bytes: Uint8Array, recs: WireRecord[], path: string, out: string[]): void {
  let highest = 0;
  const seen = new Map<number, number>();
  for (const r of recs) {
    const f = r.field;
    const k = seen.get(r.no) ?? 0;
    seen.set(r.no, k + 1);
    const name = f ? appendKey(path, f.jsonName) : appendSegment(path, { kind: "unknown", no: r.no });
    if (r.no < highest) out.push(`${name} (field ${r.no}) after field ${highest}`);
    highest = Math.max(highest, r.no);
    if (!varintIsMinimal(bytes, r.start, r.valueStart)) out.push(`padded tag of ${name}`);
    if (r.wireType === WT_LEN && !varintIsMinimal(bytes, r.valueStart, r.payloadStart)) out.push(`padded length of ${name}`);
    if (r.wireType === WT_VARINT && !varintIsMinimal(bytes, r.valueStart, r.end)) out.push(`padded varint in ${name}`);
    if (!f) continue;
    const expected = wireTypesOf(f);
    if (!expected.includes(r.wireType)) out.push(`${name} with wire type ${r.wireType}`);
    if ((f.fieldKind === "scalar" || f.fieldKind === "enum") && !f.oneof && f.presence === FeatureSet_FieldPresence.IMPLICIT && isZero(bytes, r)) {
      out.push(`explicit default for ${name}`);
    }
    if (f.fieldKind === "list" && f.listKind !== "message" && packable(f)) {
      if (f.packed && r.wireType !== WT_LEN) out.push(`${name} unpacked`);
      if (!f.packed && r.wireType === WT_LEN) out.push(`${name} packed`);
    }
    if (r.children && f.fieldKind !== "map") walk(bytes, r.children, f.fieldKind === "list" ? appendIndex(name, k) : name, out);
  }
  for (const [no, n] of seen) {
    const f = recs.find((r) => r.no === no)?.field;
    if (!f || f.fieldKind === "list" || f.fieldKind === "map" || n < 2) continue;
    const name = appendKey(path, f.jsonName);
    out.push(f.fieldKind === "message" ? `${name} split across ${n} records` : `${name} sent ${n} times (the last counts)`);
  }
}

function packable(f: DescField): boolean {
  return f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES;
}

function wireTypesOf(f: DescField): number[] {
  if (f.fieldKind === "message" || f.fieldKind === "map") return f.fieldKind === "message" && f.delimitedEncoding ? [3] : [WT_LEN];
  if (f.fieldKind === "list" && f.listKind === "message") return f.delimitedEncoding ? [3] : [WT_LEN];
  const t = f.scalar ?? ScalarType.INT32;
  const one = scalarWireType(t);
  return f.fieldKind === "list" && one !== WT_LEN ? [one, WT_LEN] : [one];
}

function scalarWireType(t: ScalarType): number {
  switch (t) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WT_LEN;
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WT_I64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WT_I32;
    default:
      return WT_VARINT;
  }
}

function isZero(bytes: Uint8Array, r: WireRecord): boolean {
  if (r.wireType === WT_LEN) return r.end === r.payloadStart;
  const mask = r.wireType === WT_VARINT ? 0x7f : 0xff; // a varint's continuation bits carry no value
  for (let i = r.valueStart; i < r.end; i++) if ((bytes[i]! & mask) !== 0) return false;
  return true;
}
