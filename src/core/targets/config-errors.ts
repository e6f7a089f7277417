// Config problems: what one looks like, and how the schema validator's errors become
// messages that name the field in the user's terms and point at the right line.

import type { ErrorObject } from "ajv";
import { hintFor } from "../io/did-you-mean.js";
import { pathOfPointer, ProblemsError, type Problem } from "../io/located-yaml.js";
import { KNOWN_KEYS } from "./config-schema.js";
import { pointer, type Path, type YamlData } from "./config-yaml.js";

/** A config problem is a problem of a user's YAML file like any other (src/core/io/located-yaml.ts). */
export type ConfigProblem = Problem;

export class ConfigError extends ProblemsError {
  constructor(problems: ConfigProblem[]) {
    super(problems);
    this.name = "ConfigError";
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
    const path = pathOfPointer(e.instancePath);
    let p: SchemaProblem;
    switch (e.keyword) {
      case "required":
        p = { path: [...path, (e.params as { missingProperty: string }).missingProperty], message: "is required", linePath: path };
        break;
      case "additionalProperties": {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        p = { path: [...path, extra], message: `unknown field${hintFor(extra, KNOWN_KEYS)}`, atKey: true };
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
