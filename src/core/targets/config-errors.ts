// Config problems: what one looks like, and how the schema validator's errors become
// messages that name the field in the user's terms and point at the right line.

import type { ErrorObject } from "ajv";
import { KNOWN_KEYS } from "./config-schema.js";
import { pointer, type Path, type YamlData } from "./config-yaml.js";

export interface ConfigProblem {
  file: string;
  line: number;
  /** `builds[1].grpc.url`; "" for the file as a whole. */
  field: string;
  message: string;
}

export function formatProblem(p: ConfigProblem): string {
  return `${p.file}:${p.line}: ${p.field ? p.field + ": " : ""}${p.message}`;
}

/** Problems listed in the message; the rest are counted. */
const MAX_LISTED = 100;

export class ConfigError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    const listed = problems.slice(0, MAX_LISTED).map(formatProblem);
    if (problems.length > MAX_LISTED) listed.push(`… and ${problems.length - MAX_LISTED} more problems`);
    super(listed.join("\n"));
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export interface SchemaProblem {
  path: Path;
  message: string;
  /** Point at the key rather than the value (unknown fields). */
  atKey?: boolean;
  /** Where to look up the line when `path` itself is absent (a missing field). */
  linePath?: Path;
}

export function schemaProblems(errors: ErrorObject[], yaml: YamlData): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const done = new Set<string>();
  for (const e of errors) {
    if (e.schemaPath.includes("/propertyNames/") && e.keyword !== "propertyNames") continue;
    const path = pathOf(e.instancePath);
    let p: SchemaProblem;
    switch (e.keyword) {
      case "required":
        p = { path: [...path, (e.params as { missingProperty: string }).missingProperty], message: "is required", linePath: path };
        break;
      case "additionalProperties": {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        const hint = closest(extra, KNOWN_KEYS);
        p = { path: [...path, extra], message: `unknown field${hint ? ` (did you mean ${hint}?)` : ""}`, atKey: true };
        break;
      }
      case "propertyNames": {
        const name = (e.params as { propertyName: string }).propertyName;
        p = { path: [...path, name], message: "is not a valid header name", atKey: true };
        break;
      }
      default: {
        const custom = (e.parentSchema as Record<string, unknown> | undefined)?.["x-message"];
        p = { path, message: typeof custom === "string" ? custom : plainMessage(e) };
      }
    }
    const key = pointer(p.path);
    if (done.has(key) || yaml.unsetEnv.has(key)) continue;
    done.add(key);
    out.push(p);
  }
  return out;
}

function pathOf(instancePath: string): Path {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
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

function closest(word: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, "");
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of new Set(candidates)) {
    const d = distance(norm(word), norm(c));
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return bestScore <= Math.max(1, Math.floor(word.length / 4)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
