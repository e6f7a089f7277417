// protobuf-es's toJson, with every bytes field's base64 written by Buffer (the same
// standard, padded alphabet): the one JSON form of requests (reports, reproduce commands)
// and answers (grpc-json.ts). toJson builds base64 a character at a time, and V8 keeps
// such a string as a rope of one 32-byte node per character: the corpus's oversized
// SendTransaction (2,000,001 bytes) held 85 MB for the whole run as its request's JSON,
// and building such strings only to replace them filled the heap with garbage. So toJson
// is given a copy with one byte in place of each non-empty bytes value (the field is
// emitted exactly when the original would be), and the real base64 is put in its place.

import { ScalarType, toJson, type DescField, type DescMessage, type JsonValue, type JsonWriteOptions, type Message } from "@bufbuild/protobuf";

type Rec = Record<string, unknown>;
type JsonObject = { [k: string]: JsonValue };

const PLACEHOLDER = Uint8Array.of(0);

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const isBytes = (f: DescField): boolean => "scalar" in f && f.scalar === ScalarType.BYTES;
const small = (b: Uint8Array): Uint8Array => (b.length > 0 ? PLACEHOLDER : b);
const mapValues = <A, B>(o: Record<string, A>, fn: (a: A) => B): Record<string, B> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, fn(v)]));

/** A field's value, a oneof member's included (undefined when another member is set). */
function fieldValue(rec: Rec, f: DescField): unknown {
  return f.oneof ? oneofValue(rec, f.oneof.localName, f.localName) : rec[f.localName];
}

export function oneofValue(rec: Record<string, unknown>, oneof: string, member: string): unknown {
  const o = rec[oneof] as { case?: string; value?: unknown } | undefined;
  return o && o.case === member ? o.value : undefined;
}

/** Well-known types have JSON forms of their own (BytesValue is a bare string): left to toJson. */
const wellKnown = (desc: DescMessage): boolean => desc.typeName.startsWith("google.protobuf.");

/** A shallow copy of msg, at every depth, with each non-empty bytes value one byte long. */
function withSmallBytes(desc: DescMessage, msg: Message): Message {
  if (wellKnown(desc)) return msg;
  const out: Rec = { ...msg };
  for (const f of desc.fields) {
    const v = fieldValue(msg as unknown as Rec, f);
    if (v === undefined) continue;
    let copy: unknown = v;
    if (f.fieldKind === "scalar" && isBytes(f)) copy = small(v as Uint8Array);
    else if (f.fieldKind === "list" && f.listKind === "scalar" && isBytes(f)) copy = (v as Uint8Array[]).map(small);
    else if (f.fieldKind === "map" && f.mapKind === "scalar" && isBytes(f)) copy = mapValues(v as Record<string, Uint8Array>, small);
    else if (f.fieldKind === "message") copy = withSmallBytes(f.message, v as Message);
    else if (f.fieldKind === "list" && f.listKind === "message") copy = (v as Message[]).map((m) => withSmallBytes(f.message, m));
    else if (f.fieldKind === "map" && f.mapKind === "message") copy = mapValues(v as Record<string, Message>, (m) => withSmallBytes(f.message, m));
    if (f.oneof) out[f.oneof.localName] = { case: f.localName, value: copy };
    else out[f.localName] = copy;
  }
  return out as Message;
}

/** Puts the base64 of msg's bytes values where toJson wrote the placeholder's. */
function putBytes(desc: DescMessage, msg: Message, json: JsonValue): void {
  if (wellKnown(desc) || !isObject(json)) return;
  for (const f of desc.fields) {
    const sub = json[f.jsonName];
    const v = fieldValue(msg as unknown as Rec, f);
    if (sub === undefined || v === undefined) continue;
    if (f.fieldKind === "scalar" && isBytes(f)) json[f.jsonName] = base64(v as Uint8Array);
    else if (f.fieldKind === "list" && f.listKind === "scalar" && isBytes(f)) json[f.jsonName] = (v as Uint8Array[]).map(base64);
    else if (f.fieldKind === "map" && f.mapKind === "scalar" && isBytes(f) && isObject(sub))
      Object.assign(sub, mapValues(v as Record<string, Uint8Array>, base64));
    else if (f.fieldKind === "message") putBytes(f.message, v as Message, sub);
    else if (f.fieldKind === "list" && f.listKind === "message" && Array.isArray(sub)) (v as Message[]).forEach((m, i) => putBytes(f.message, m, sub[i]!));
    else if (f.fieldKind === "map" && f.mapKind === "message" && isObject(sub))
      for (const [k, m] of Object.entries(v as Record<string, Message>)) putBytes(f.message, m, sub[k]!);
  }
}

/** The same JSON as toJson(desc, msg, options), its bytes fields as flat strings. */
export function protoJson(desc: DescMessage, msg: Message, options?: Partial<JsonWriteOptions>): JsonValue {
  const json = toJson(desc, withSmallBytes(desc, msg), options);
  putBytes(desc, msg, json);
  return json;
}
