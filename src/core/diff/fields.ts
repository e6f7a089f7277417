// Field-by-field comparison of two decoded protobuf messages of the same type.
//
// Presence: a field with explicit presence (message fields, `optional`, oneof members)
// that one side sets and the other does not is missing-field / extra-field, and so is a
// repeated field that one side leaves empty, and an unknown field number. A proto3
// scalar with implicit presence has no "absent" state (0 is how absence is spelled on the
// wire), so 0 vs 5 or "" vs "abc" is a `value` difference.

import { isFieldSet, toBinary, toJson, ScalarType, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import type { UnknownField } from "@bufbuild/protobuf";
import { hex, JSON_OPTIONS, oneofValue } from "../canon/grpc-json.js";
import { appendIndex, appendKey, appendSegment } from "../canon/paths.js";
import { brief, shown, type Divergence } from "./divergence.js";
import { classifyLeaf, type Sides } from "./kinds.js";
import { compareSequences, sequenceDivergences } from "./sequence.js";

type Rec = Record<string, unknown>;

export function diffMessages(desc: DescMessage, a: Message, b: Message, path: string, s: Sides, out: Divergence[]): void {
  const ra = a as unknown as Rec;
  const rb = b as unknown as Rec;
  for (const f of desc.fields) {
    const p = appendKey(path, f.jsonName);
    switch (f.fieldKind) {
      case "scalar":
      case "enum": {
        const explicit = f.oneof !== undefined || f.presence !== FeatureSet_FieldPresence.IMPLICIT;
        const va = get(ra, f);
        const vb = get(rb, f);
        if (explicit) {
          const sa = isFieldSet(a, f);
          const sb = isFieldSet(b, f);
          if (sa !== sb) {
            out.push(presence(p, s, sa, shown(va), shown(vb)));
            continue;
          }
          if (!sa) continue;
        }
        if (!leafEqual(va, vb)) out.push(classifyLeaf(p, s, va, vb, f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES ? "bytes field" : "value"));
        break;
      }
      case "message": {
        const sa = isFieldSet(a, f);
        const sb = isFieldSet(b, f);
        const va = get(ra, f) as Message | undefined;
        const vb = get(rb, f) as Message | undefined;
        if (sa !== sb)
          out.push(presence(p, s, sa, sa ? toJson(f.message, va!, JSON_OPTIONS) : undefined, sb ? toJson(f.message, vb!, JSON_OPTIONS) : undefined));
        else if (sa) diffMessages(f.message, va!, vb!, p, s, out);
        break;
      }
      case "list":
        diffList(f, ra[f.localName] as unknown[], rb[f.localName] as unknown[], p, s, out);
        break;
      case "map":
        diffMap(f, ra[f.localName] as Rec, rb[f.localName] as Rec, p, s, out);
        break;
    }
  }
  diffUnknown(a.$unknown, b.$unknown, path, s, out);
}

function get(r: Rec, f: DescField): unknown {
  return f.oneof ? oneofValue(r, f.oneof.localName, f.localName) : r[f.localName];
}

export function leafEqual(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && Buffer.compare(a, b) === 0;
  return Object.is(a, b);
}

function presence(path: string, s: Sides, leftHas: boolean, va: unknown, vb: unknown, what?: string): Divergence {
  const d: Divergence = {
    kind: leftHas ? "missing-field" : "extra-field",
    path,
    left: s.left,
    right: s.right,
    detail: what ?? (leftHas ? `right lacks ${path}, left has ${brief(va)}` : `right has ${path} = ${brief(vb)}, left has none`),
  };
  if (leftHas) d.leftValue = shown(va);
  else d.rightValue = shown(vb);
  return d;
}

function itemKey(f: DescField, v: unknown): string {
  if (f.fieldKind === "list" && f.listKind === "message") return latin1(toBinary(f.message, v as Message));
  if (v instanceof Uint8Array) return "b" + latin1(v);
  return typeof v + ":" + String(v);
}

function latin1(u: Uint8Array): string {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength).toString("latin1");
}

function diffList(f: DescField, la: unknown[], lb: unknown[], path: string, s: Sides, out: Divergence[]): void {
  if (la.length === 0 && lb.length === 0) return;
  if (la.length === 0 || lb.length === 0) {
    const n = la.length || lb.length;
    out.push(
      presence(
        path,
        s,
        la.length > 0,
        la.length,
        lb.length,
        la.length > 0 ? `right has no ${path}, left has ${n} item(s)` : `right has ${n} item(s) of ${path}, left none`,
      ),
    );
    return;
  }
  const similar =
    f.fieldKind === "list" && f.listKind === "message" ? (i: number, j: number) => sharedFields(f.message, la[i] as Message, lb[j] as Message) : undefined;
  const o = compareSequences(
    la.map((v) => itemKey(f, v)),
    lb.map((v) => itemKey(f, v)),
    similar,
  );
  out.push(...sequenceDivergences(path, s, o, la.length, lb.length, "item"));
  if (o.kind !== "differ") return;
  for (const [i, j] of o.pairs) {
    const p = appendIndex(path, i);
    const before = out.length;
    if (f.fieldKind === "list" && f.listKind === "message") diffMessages(f.message, la[i] as Message, lb[j] as Message, p, s, out);
    else out.push(classifyLeaf(p, s, la[i], lb[j]));
    if (i !== j) for (let k = before; k < out.length; k++) out[k]!.detail += ` (right item [${j}])`;
  }
}

/** How many fields two items both set to the same non-default value (their shared identity). */
function sharedFields(desc: DescMessage, a: Message, b: Message): number {
  let n = 0;
  for (const f of desc.fields) {
    if (f.fieldKind === "list" || f.fieldKind === "map" || !isFieldSet(a, f) || !isFieldSet(b, f)) continue;
    const va = (a as unknown as Rec)[f.localName];
    const vb = (b as unknown as Rec)[f.localName];
    if (f.fieldKind === "message" ? Buffer.compare(toBinary(f.message, va as Message), toBinary(f.message, vb as Message)) === 0 : leafEqual(va, vb)) n++;
  }
  return n;
}

function diffMap(f: DescField, ma: Rec, mb: Rec, path: string, s: Sides, out: Divergence[]): void {
  if (f.fieldKind !== "map") return;
  const keys = [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort();
  for (const k of keys) {
    const p = appendKey(path, k);
    const ha = Object.hasOwn(ma, k);
    const hb = Object.hasOwn(mb, k);
    if (ha !== hb) {
      out.push(presence(p, s, ha, f.mapKind === "message" ? undefined : ma[k], f.mapKind === "message" ? undefined : mb[k]));
    } else if (f.mapKind === "message") {
      diffMessages(f.message, ma[k] as Message, mb[k] as Message, p, s, out);
    } else if (!leafEqual(ma[k], mb[k])) {
      out.push(classifyLeaf(p, s, ma[k], mb[k]));
    }
  }
}

function diffUnknown(ua: UnknownField[] | undefined, ub: UnknownField[] | undefined, path: string, s: Sides, out: Divergence[]): void {
  if (!ua?.length && !ub?.length) return;
  const ga = group(ua);
  const gb = group(ub);
  const nos = [...new Set([...ga.keys(), ...gb.keys()])].sort((x, y) => x - y);
  for (const no of nos) {
    const p = appendSegment(path, { kind: "unknown", no });
    const va = ga.get(no);
    const vb = gb.get(no);
    if (!va || !vb) {
      const v = (va ?? vb)!;
      out.push(
        presence(
          p,
          s,
          va !== undefined,
          va,
          vb,
          `${va ? "left" : "right"} has field ${no}, unknown to the schema (${v.join(", ")}); ${va ? "right" : "left"} has none`,
        ),
      );
    } else if (va.join() !== vb.join()) {
      out.push({ kind: "value", path: p, left: s.left, right: s.right, leftValue: va, rightValue: vb, detail: `unknown field ${no} differs` });
    }
  }
}

/** Unknown fields by number, each value as `wt<wire type>:<hex>` in arrival order. */
function group(u: UnknownField[] | undefined): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const f of u ?? []) {
    const list = m.get(f.no) ?? [];
    list.push(`wt${f.wireType}:${hex(f.data)}`);
    m.set(f.no, list);
  }
  return m;
}
