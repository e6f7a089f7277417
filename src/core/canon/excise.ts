// Cutting volatile fields out of protobuf wire bytes. Only the named records go; every
// other byte stays as received (a shortened length prefix keeps its original width),
// so what remains is still compared byte for byte and nothing else is normalized.

import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import type { Segment } from "./paths.js";
import { encodeVarint, packedElements, parseWire, WT_LEN, type WireRecord } from "./wire.js";

/**
 * Checks a message-relative pattern against the schema; throws with the reason when
 * it names a field the message does not have or goes where excision cannot.
 */
export function checkGrpcPattern(desc: DescMessage, segs: readonly Segment[], text: string): void {
  let d: DescMessage = desc;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    const rest = segs.length - i - 1;
    const fail = (why: string): never => {
      throw new Error(`volatile path ${JSON.stringify(text)}: ${why}`);
    };
    if (s.kind === "unknown") {
      const known = d.fields.find((f) => f.number === s.no);
      if (known) fail(`field ${s.no} of ${d.typeName} is known as ${known.jsonName}`);
      if (rest > 0) fail("nothing can follow an unknown field");
      return;
    }
    if (s.kind !== "field") fail(`an index must follow a repeated field (segment ${i})`);
    const name = (s as { name: string }).name;
    const f = d.fields.find((x) => x.jsonName === name);
    if (!f) return fail(`${d.typeName} has no field ${JSON.stringify(name)} (JSON names are used)`);
    if (rest === 0) return;
    switch (f.fieldKind) {
      case "list": {
        const next = segs[i + 1]!;
        if (next.kind !== "index" && next.kind !== "any") fail(`${name} is repeated: write ${name}[*] or ${name}[n]`);
        if (rest === 1) return;
        if (f.listKind !== "message") fail(`${name} holds scalars; nothing can follow its index`);
        d = f.message!;
        i++;
        break;
      }
      case "message":
        d = f.message;
        break;
      case "map":
        return fail(`paths into map entries are not supported; name the whole map ${name}`);
      default:
        return fail(`${name} is a scalar; nothing can follow it`);
    }
  }
}

/**
 * Returns `bytes` without the records the patterns name (message-relative, already
 * checked), or the same array when nothing matched. Throws WireError when the bytes
 * are not well-formed.
 */
export function exciseWire(bytes: Uint8Array, desc: DescMessage, patterns: readonly (readonly Segment[])[]): Uint8Array {
  if (patterns.length === 0) return bytes;
  const records = parseWire(bytes, desc);
  const parts = rebuild(bytes, records, patterns);
  return parts ? concat(parts) : bytes;
}

type Part = Uint8Array | number[];

function rebuild(bytes: Uint8Array, records: WireRecord[], patterns: readonly (readonly Segment[])[]): Part[] | undefined {
  const parts: Part[] = [];
  const counters = new Map<number, number>();
  let changed = false;
  for (const rec of records) {
    const whole = bytes.subarray(rec.start, rec.end);
    const f = rec.field;
    const mine = patterns.filter((p) => {
      const s = p[0]!;
      if (s.kind === "field") return f !== undefined && f.jsonName === s.name;
      return s.kind === "unknown" && f === undefined && s.no === rec.no;
    });
    const isList = f?.fieldKind === "list";
    const packed = isList && rec.wireType === WT_LEN && f.listKind !== "message" && f.scalar !== ScalarType.STRING && f.scalar !== ScalarType.BYTES;
    const first = counters.get(rec.no) ?? 0;
    const elements = packed ? packedElements(bytes, rec.payloadStart, rec.end, f.scalar ?? ScalarType.INT32) : undefined;
    counters.set(rec.no, first + (elements ? elements.length : 1));
    if (mine.length === 0) {
      parts.push(whole);
      continue;
    }
    if (mine.some((p) => p.length === 1)) {
      changed = true;
      continue;
    }
    if (elements) {
      const kept = elements.filter((_, k) => !mine.some((p) => p.length === 2 && selects(p[1]!, first + k)));
      if (kept.length === elements.length) {
        parts.push(whole);
        continue;
      }
      changed = true;
      if (kept.length === 0) continue;
      const payload = concat(kept.map(([a, b]) => bytes.subarray(a, b)));
      parts.push(bytes.subarray(rec.start, rec.valueStart), lengthPrefix(rec, payload.length), payload);
      continue;
    }
    let deeper: (readonly Segment[])[];
    if (isList) {
      const sel = mine.filter((p) => selects(p[1]!, first));
      if (sel.some((p) => p.length === 2)) {
        changed = true;
        continue;
      }
      deeper = sel.map((p) => p.slice(2));
    } else {
      deeper = mine.map((p) => p.slice(1));
    }
    const inner = deeper.length > 0 && rec.wireType === WT_LEN && rec.children ? rebuild(bytes, rec.children, deeper) : undefined;
    if (!inner) {
      parts.push(whole);
      continue;
    }
    changed = true;
    const payload = concat(inner);
    parts.push(bytes.subarray(rec.start, rec.valueStart), lengthPrefix(rec, payload.length), payload);
  }
  return changed ? parts : undefined;
}

function selects(s: Segment, index: number): boolean {
  return s.kind === "any" || (s.kind === "index" && s.index === index);
}

function lengthPrefix(rec: WireRecord, length: number): number[] {
  return encodeVarint(length, rec.payloadStart - rec.valueStart);
}

function concat(parts: Part[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)))));
}
