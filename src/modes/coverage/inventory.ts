// What the protocol offers a corpus to exercise: every rpc of its gRPC service, every
// field reachable from an rpc's request message (by full path from the request type:
// `BlockRange.start.hash`), every value of every enum a request can carry, and the
// JSON-RPC methods the corpus covers. Read from the generated descriptors of proto/, so
// a new field or enum value shows up here without anyone listing it.

import type { DescEnum, DescField, DescMessage, DescMethod } from "@bufbuild/protobuf";
import type { Protocol } from "../../core/run/protocol.js";

export interface FieldItem {
  /** `BlockRange.start.hash`: the request type, then field names down to this one. */
  path: string;
  field: DescField;
  /** The rpcs whose request reaches this field. */
  rpcs: string[];
}

export interface EnumValueItem {
  /** `PoolType.IRONWOOD`. */
  name: string;
  enumName: string;
  number: number;
}

export interface Inventory {
  rpcs: DescMethod[];
  fields: FieldItem[];
  enumValues: EnumValueItem[];
  jsonrpcMethods: readonly string[];
}

/** The enum a field carries, singular or repeated. */
export function enumOf(f: DescField): DescEnum | undefined {
  if (f.fieldKind === "enum") return f.enum;
  if (f.fieldKind === "list" && f.listKind === "enum") return f.enum;
  return undefined;
}

/** The message a field carries, singular or repeated. */
export function messageOf(f: DescField): DescMessage | undefined {
  if (f.fieldKind === "message") return f.message;
  if (f.fieldKind === "list" && f.listKind === "message") return f.message;
  return undefined;
}

/** Field paths under `desc`, depth first in declaration order; recursion stops at a cycle. */
export function fieldPaths(desc: DescMessage, prefix = desc.name, seen: readonly string[] = [desc.typeName]): { path: string; field: DescField }[] {
  return desc.fields.flatMap((f) => {
    const path = `${prefix}.${f.name}`;
    const sub = messageOf(f);
    const below = sub && !seen.includes(sub.typeName) ? fieldPaths(sub, path, [...seen, sub.typeName]) : [];
    return [{ path, field: f }, ...below];
  });
}

export function inventory(protocol: Pick<Protocol, "service" | "jsonRpcMethods">): Inventory {
  const rpcs = [...protocol.service.methods];
  const fields = new Map<string, FieldItem>();
  const enums = new Map<string, DescEnum>();
  for (const m of rpcs) {
    for (const { path, field } of fieldPaths(m.input)) {
      const item = fields.get(path) ?? { path, field, rpcs: [] };
      if (!item.rpcs.includes(m.name)) item.rpcs.push(m.name);
      fields.set(path, item);
      const e = enumOf(field);
      if (e) enums.set(e.typeName, e);
    }
  }
  const enumValues = [...enums.values()].flatMap((e) => e.values.map((v) => ({ name: `${e.name}.${v.name}`, enumName: e.name, number: v.number })));
  return { rpcs, fields: [...fields.values()], enumValues, jsonrpcMethods: protocol.jsonRpcMethods };
}
