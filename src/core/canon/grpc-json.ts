// The protobuf JSON form of a decoded message, for reports and patches.
//
// Choice: every field is emitted, defaults included (`alwaysEmitImplicit`). A proto3
// field with implicit presence has no "absent" state: 0, "" and [] are what an omitted
// field means, and an explicit `08 00` decodes to the same value. Emitting them makes the
// JSON of two answers differ only where their values differ, a patch shows
// `replace /valueZat 5 → 0` instead of a misleading `remove`, and every answer of a method
// has the same shape. What is still absent from this JSON is meaningful: an unset field
// with explicit presence (a message field such as `chainMetadata`, an `optional` or a
// oneof member), or a field a case declared volatile.
//
// toJson drops unknown fields; they are put back under `$unknown`, keyed by field number,
// at the level where they occurred, and listed separately, so that they are never lost.
//
// Bytes fields are written as base64 by Buffer (proto-json.ts says why).

import type { DescMessage, JsonObject, JsonValue, Message } from "@bufbuild/protobuf";
import type { UnknownField } from "@bufbuild/protobuf";
import { bytesToHex as hex } from "../io/hex.js";
import { appendIndex, appendKey, appendSegment } from "./paths.js";
import { oneofValue, protoJson } from "./proto-json.js";
import { isObject } from "./volatile.js";

export const JSON_OPTIONS = { alwaysEmitImplicit: true } as const;

export interface UnknownFieldNote {
  /** e.g. `vtx[0].$unknown[12]` (relative to the message). */
  path: string;
  no: number;
  wireType: number;
  /** The value bytes as on the wire (for LEN, including the length prefix). */
  hex: string;
}

export { hex };

export function messageJson(desc: DescMessage, msg: Message): { json: JsonValue; unknown: UnknownFieldNote[] } {
  const json = protoJson(desc, msg, JSON_OPTIONS);
  const unknown: UnknownFieldNote[] = [];
  inject(desc, msg, json, "", unknown);
  return { json, unknown };
}

export { oneofValue };

function inject(desc: DescMessage, msg: Message, json: JsonValue, path: string, out: UnknownFieldNote[]): void {
  if (!isObject(json)) return; // well-known types with a scalar JSON form carry no unknowns here
  const u: UnknownField[] | undefined = msg.$unknown;
  if (u && u.length > 0) {
    const byNo: JsonObject = {};
    for (const f of u) {
      const entry = { wireType: f.wireType, hex: hex(f.data) };
      ((byNo[String(f.no)] ??= []) as JsonValue[]).push(entry);
      out.push({ path: appendSegment(path, { kind: "unknown", no: f.no }), no: f.no, wireType: f.wireType, hex: entry.hex });
    }
    json.$unknown = byNo;
  }
  const rec = msg as unknown as Record<string, unknown>;
  for (const f of desc.fields) {
    const sub = json[f.jsonName]!;
    const p = appendKey(path, f.jsonName);
    if (f.fieldKind === "message") {
      const v = f.oneof ? oneofValue(rec, f.oneof.localName, f.localName) : rec[f.localName];
      if (v) inject(f.message, v as Message, sub, p, out);
    } else if (f.fieldKind === "list" && f.listKind === "message" && Array.isArray(sub)) {
      const items = rec[f.localName] as Message[];
      items.forEach((m, i) => inject(f.message, m, sub[i]!, appendIndex(p, i), out));
    } else if (f.fieldKind === "map" && f.mapKind === "message" && isObject(sub)) {
      const entries = rec[f.localName] as Record<string, Message>;
      for (const k of Object.keys(entries)) inject(f.message, entries[k]!, sub[k]!, appendKey(p, k), out);
    }
  }
}
