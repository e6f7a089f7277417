// YAML documents that remember where each value stands, so that every problem in a
// user's file (cases, ledger, config) can be reported as file:line: field.

import { isMap, isNode, isSeq, LineCounter, parseDocument, visit, type Document } from "yaml";
import type { ErrorObject, ValidateFunction } from "ajv";
import { hintFor } from "./did-you-mean.js";

export type PathPart = string | number;

export interface Problem {
  file: string;
  line: number;
  /** Dotted field path with [n] indexes, e.g. `cases[3].expect`; "" for the whole file. */
  field: string;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.field ? `${p.field}: ` : ""}${p.message}`;
}

/** Problems listed in a message; a file with thousands of them is summed up after these. */
export const MAX_LISTED_PROBLEMS = 100;

/** A set of problems found in user files; its message lists them (the first hundred). */
export class ProblemsError extends Error {
  constructor(readonly problems: Problem[]) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map(formatProblem);
    if (problems.length > MAX_LISTED_PROBLEMS) listed.push(`… and ${problems.length - MAX_LISTED_PROBLEMS} more problems`);
    super(listed.join("\n"));
    this.name = "ProblemsError";
  }
}

export interface Located {
  file: string;
  value: unknown;
  /** Line (1-based) of the value at `path`, or of its nearest ancestor that exists. */
  lineOf(path: readonly PathPart[]): number;
}

/** `cases[3].expect`, `builds[1].grpc.url`, `headers["x-api-key"]`. */
export function fieldName(path: readonly PathPart[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) out += out === "" ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

/** Parses YAML text; syntax errors become problems with their line. */
export function parseLocated(text: string, file: string): Located {
  const lineCounter = new LineCounter();
  // logLevel error: what the library would only warn about on the console (a map used as
  // a key) surfaces as an unknown field in the schema check instead.
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, logLevel: "error" });
  if (doc.errors.length > 0) {
    throw new ProblemsError(doc.errors.map((e) => ({
      file,
      line: lineCounter.linePos(e.pos[0]).line,
      field: "",
      message: `YAML syntax: ${e.message.split("\n")[0]}`,
    })));
  }
  const lineOf = (path: readonly PathPart[]): number => {
    let node: unknown = doc.contents;
    let line = node && isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : 1;
    for (const part of path) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => (isNode(p.key) ? (p.key as { value?: unknown }).value : p.key) === part);
        if (pair && isNode(pair.key) && pair.key.range) line = lineCounter.linePos(pair.key.range[0]).line;
        next = pair?.value;
      } else if (isSeq(node) && typeof part === "number") {
        next = node.items[part];
      }
      if (!next || !isNode(next)) break;
      if (next.range && !isMap(node)) line = lineCounter.linePos(next.range[0]).line;
      node = next;
    }
    return line;
  };
  return { file, value: plainValue(doc, lineCounter, file), lineOf };
}

/**
 * The document as plain data. The yaml library reports alias problems (an alias to an
 * anchor not yet defined, an alias bomb over maxAliasCount) only here, as a bare
 * ReferenceError without a position: they become problems at the alias's line.
 */
function plainValue(doc: Document, lineCounter: LineCounter, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    let first: number | undefined;
    let unresolved: number | undefined;
    visit(doc, {
      Alias(_, node) {
        const line = node.range ? lineCounter.linePos(node.range[0]).line : 1;
        first ??= line;
        if (node.resolve(doc) === undefined) {
          unresolved = line;
          return visit.BREAK;
        }
        return undefined;
      },
    });
    throw new ProblemsError([{ file, line: unresolved ?? first ?? 1, field: "", message: `YAML: ${(e as Error).message}` }]);
  }
}

/** The path of a JSON pointer as ajv writes it (`/builds/1/grpc`). */
export function pathOfPointer(pointer: string): PathPart[] {
  if (!pointer) return [];
  return pointer.slice(1).split("/").map((s) => {
    const k = s.replace(/~1/g, "/").replace(/~0/g, "~");
    return /^\d+$/.test(k) ? Number(k) : k;
  });
}

/** The names a schema object allows, found by following the error's schemaPath ("#/properties/cases/items/additionalProperties"). */
function knownNames(schema: unknown, schemaPath: string): string[] {
  let node = schema;
  for (const part of schemaPath.replace(/^#\/?/, "").split("/").slice(0, -1)) {
    if (node === null || typeof node !== "object") return [];
    node = (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  const properties = (node as { properties?: unknown } | undefined)?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
}

function describeAjvError(e: ErrorObject, schema: unknown): { path: PathPart[]; message: string } {
  const path = pathOfPointer(e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { path: [...path, String(p.missingProperty)], message: "is required" };
    case "additionalProperties": {
      const extra = String(p.additionalProperty);
      return { path: [...path, extra], message: `is not a known field${hintFor(extra, knownNames(schema, e.schemaPath))}` };
    }
    case "enum":
      return { path, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    default:
      return { path, message: e.message ?? e.keyword };
  }
}

/**
 * Validates a located document with a compiled JSON Schema and turns ajv's errors into
 * problems. For `oneOf`/`anyOf` failures only the most specific errors are kept, so a
 * user sees "expect.error must be array" rather than every branch that did not match.
 */
export function schemaProblems(validate: ValidateFunction, located: Located): Problem[] {
  if (validate(located.value)) return [];
  const errors = validate.errors ?? [];
  const deepest = errors.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf" && e.keyword !== "if");
  const chosen = deepest.length > 0 ? deepest : errors;
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of chosen) {
    const { path, message } = describeAjvError(e, validate.schema);
    const p = { file: located.file, line: located.lineOf(path), field: fieldName(path), message };
    const key = `${p.line}|${p.field}|${p.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  }
  return out;
}
