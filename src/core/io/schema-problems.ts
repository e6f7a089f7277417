// A JSON Schema's verdict on a located document, as problems a user can act on: each at
// the line of the field it is about (an unknown field at its key, a missing one at its
// map), in words rather than the validator's, with the nearest known name for a
// misspelt field. A schema says a field's words itself with `x-message`.

import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { hintFor } from "./did-you-mean.js";
import { fieldName, pathOfPointer, pointer, type Located, type PathPart, type Problem } from "./located-yaml.js";

/** The annotation a schema gives a field to say what it must be. */
export const X_MESSAGE = "x-message";

/** The problems `validate` finds in the document; none when it is valid. */
export function schemaProblems(validate: ValidateFunction, located: Located): Problem[] {
  if (validate(located.value)) return [];
  const errors = validate.errors ?? [];
  // For oneOf/anyOf failures only the most specific errors are kept, so a user sees
  // "expect.error must be a list" rather than every branch that did not match.
  const deepest = errors.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf" && e.keyword !== "if");
  const chosen = deepest.length > 0 ? deepest : errors;
  const done = new Set<string>();
  const out: Problem[] = [];
  for (const e of chosen) {
    // A name that breaks a propertyNames rule is reported once, by that rule.
    if (e.schemaPath.includes("/propertyNames/") && e.keyword !== "propertyNames") continue;
    const { path, message } = describe(e, validate.schema);
    const key = pointer(path);
    if (done.has(key) || located.unresolved.has(key)) continue;
    done.add(key);
    out.push({ file: located.file, line: located.lineOf(path), field: fieldName(path), message });
  }
  return out;
}

function describe(e: ErrorObject, schema: unknown): { path: PathPart[]; message: string } {
  const path = pathOfPointer(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const parent = schemaAt(schema, e.schemaPath);
  switch (e.keyword) {
    case "required":
      return { path: [...path, String(p.missingProperty)], message: "is required" };
    case "additionalProperties": {
      const extra = String(p.additionalProperty);
      const known = parent?.properties && typeof parent.properties === "object" ? Object.keys(parent.properties) : [];
      return { path: [...path, extra], message: `is not a known field${hintFor(extra, known)}` };
    }
    case "propertyNames": {
      const rule = parent?.propertyNames as Record<string, unknown> | undefined;
      const custom = rule?.[X_MESSAGE];
      return { path: [...path, String(p.propertyName)], message: typeof custom === "string" ? custom : "is not a valid name" };
    }
  }
  const custom = parent?.[X_MESSAGE];
  if (typeof custom === "string") return { path, message: custom };
  if (e.keyword === "enum") return { path, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
  return { path, message: plainMessage(e) };
}

/** The schema object an error's keyword sits in ("#/properties/cases/items/additionalProperties" → the items schema). */
function schemaAt(schema: unknown, schemaPath: string): Record<string, unknown> | undefined {
  let node = schema;
  for (const part of schemaPath.replace(/^#\/?/, "").split("/").slice(0, -1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node !== null && typeof node === "object" ? (node as Record<string, unknown>) : undefined;
}

function plainMessage(e: ErrorObject): string {
  if (e.keyword === "type") {
    const words: Record<string, string> = {
      object: "must be a map of fields",
      array: "must be a list",
      string: "must be a string",
      integer: "must be a whole number",
      number: "must be a number",
      boolean: "must be true or false",
    };
    const t = String((e.params as { type: string }).type);
    return words[t] ?? `must be ${t}`;
  }
  return e.message ?? e.keyword;
}

/**
 * A validator compiled when first used: compiling every schema at import cost each start
 * of the command line ~0.4 s, and most commands read few kinds of file.
 */
export function validatorOnFirstUse(compile: () => ValidateFunction): () => ValidateFunction {
  let v: ValidateFunction | undefined;
  return () => (v ??= compile());
}

/**
 * Schemas that depend on a protocol's implementation names, compiled on first use once per
 * list (each protocol passes its own array, so the array itself is the key).
 */
export function validatorsByImplementations(
  makeAjv: () => Ajv,
  schemaOf: (implementations: readonly string[]) => object,
): (implementations: readonly string[]) => ValidateFunction {
  let ajv: Ajv | undefined;
  const compiled = new WeakMap<readonly string[], ValidateFunction>();
  return (implementations) => {
    let v = compiled.get(implementations);
    if (!v) {
      ajv ??= makeAjv();
      v = ajv.compile(schemaOf(implementations));
      compiled.set(implementations, v);
    }
    return v;
  };
}
