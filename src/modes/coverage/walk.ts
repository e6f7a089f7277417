// What one planned request exercises: the field paths it sets to something other than
// the default, and the enum values the server receives. Raw (`$wire`) requests count by
// what they decode to; bytes that do not decode exercise only their rpc.

import { fromBinary, isMessage, type DescMessage, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import type { GrpcPlannedRequest } from "../../core/run/plan.js";
import { enumOf, messageOf } from "./inventory.js";

export interface Exercised {
  fields: Set<string>;
  enumValues: Set<string>;
  /** Raw messages that did not decode as the rpc's request type. */
  undecodable: number;
}

function enumName(desc: DescMessage, fieldName: string, n: number): string | undefined {
  const e = enumOf(desc.fields.find((f) => f.name === fieldName)!);
  const v = e?.values.find((x) => x.number === n);
  return e && v ? `${e.name}.${v.name}` : e ? `${e.name}.${n}` : undefined;
}

function visit(r: ReflectMessage, prefix: string, out: Exercised): void {
  for (const f of r.fields) {
    const path = `${prefix}.${f.name}`;
    const set = r.isSet(f);
    if (set) out.fields.add(path);
    const e = enumOf(f);
    if (e) {
      // A singular enum reaches the server as its value even when unset (the default).
      const values = f.fieldKind === "list" ? [...(r.get(f) as Iterable<number>)] : [r.get(f) as number];
      for (const n of values) {
        const name = enumName(r.desc, f.name, n);
        if (name) out.enumValues.add(name);
      }
    }
    if (!set || !messageOf(f)) continue;
    if (f.fieldKind === "list") for (const m of r.get(f) as Iterable<ReflectMessage>) visit(m, path, out);
    else visit(r.get(f) as ReflectMessage, path, out);
  }
}

/** Adds what `request` (one message, raw bytes, or a client stream of either) exercises. */
export function walkRequest(input: DescMessage, request: GrpcPlannedRequest, out: Exercised): void {
  for (const one of Array.isArray(request) ? request : [request]) {
    let msg: Message;
    if (one instanceof Uint8Array) {
      try {
        msg = fromBinary(input, one);
      } catch {
        out.undecodable++;
        continue;
      }
    } else msg = one;
    if (!isMessage(msg, input)) continue;
    visit(reflect(input, msg), input.name, out);
  }
}

export function emptyExercised(): Exercised {
  return { fields: new Set(), enumValues: new Set(), undecodable: 0 };
}
