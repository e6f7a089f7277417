// Hashes in the decoded view of an answer. Protobuf JSON shows bytes as base64 in wire
// order, which no block explorer, node or wallet shows: they print hashes as hex in
// display order (the wire bytes reversed). For the fields the protocol names (the wing
// says which), the view puts both side by side; the JSON report keeps the plain form.

import type { JsonValue } from "@bufbuild/protobuf";

/** "<display-order hex> (display order; wire <wire-order hex>)" for a 32-byte base64 value, else undefined. */
export function hashText(value: JsonValue): string | undefined {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return undefined;
  const wire = Buffer.from(value, "base64");
  if (wire.length !== 32) return undefined;
  return `${Buffer.from(wire).reverse().toString("hex")} (display order; wire ${wire.toString("hex")})`;
}

/** A copy of `json` with every field named in `fields` that holds a 32-byte value shown as hashText. */
export function withDisplayHashes(json: JsonValue, fields: ReadonlySet<string>): JsonValue {
  if (fields.size === 0) return json;
  if (Array.isArray(json)) return json.map((x) => withDisplayHashes(x, fields));
  if (json === null || typeof json !== "object") return json;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(json)) {
    const shown = fields.has(k) ? hashText(v) : undefined;
    out[k] = shown ?? withDisplayHashes(v, fields);
  }
  return out;
}
