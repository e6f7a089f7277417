// A JSON Patch (RFC 6902) from the left JSON form to the right one, for reports: it
// shows every difference at once in a format that readers and tools already know.

import jsonpatch from "fast-json-patch";
import type { JsonValue } from "@bufbuild/protobuf";
import { brief } from "./divergence.js";

export interface PatchOp {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test" | "_get";
  /** JSON Pointer (RFC 6901) into the left document. */
  path: string;
  value?: JsonValue;
  /** The left value that a replace or remove takes away, for readers. */
  old?: JsonValue;
}

function container(v: JsonValue): "array" | "object" | undefined {
  if (Array.isArray(v)) return "array";
  return typeof v === "object" && v !== null ? "object" : undefined;
}

export function jsonPatch(left: JsonValue, right: JsonValue): PatchOp[] {
  const ca = container(left);
  if (!ca || ca !== container(right)) {
    return JSON.stringify(left) === JSON.stringify(right) ? [] : [{ op: "replace", path: "", value: right, old: left }];
  }
  const ops = jsonpatch.compare(left as object, right as object) as PatchOp[];
  for (const op of ops) {
    if (op.op === "replace" || op.op === "remove") op.old = jsonpatch.getValueByPointer(left, op.path) as JsonValue;
  }
  return ops;
}

/** One line per operation: `replace /vtx/1/fee: 1000 → 2000`. */
export function formatPatch(ops: readonly PatchOp[], width = 60): string[] {
  return ops.map((o) => {
    const at = o.path === "" ? "(whole)" : o.path;
    switch (o.op) {
      case "replace":
        return `replace ${at}: ${brief(o.old, width)} → ${brief(o.value, width)}`;
      case "remove":
        return `remove  ${at} (was ${brief(o.old, width)})`;
      case "add":
        return `add     ${at}: ${brief(o.value, width)}`;
      default:
        return `${o.op} ${at}`;
    }
  });
}
