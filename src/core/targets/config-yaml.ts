// How the config's YAML is read (src/core/io/located-yaml.ts does the reading): `${VAR}`
// references are expanded, and values of string fields that YAML would read as numbers
// keep their text (`version: 1.10` stays "1.10", `password: 0123` stays "0123").
//
// `${VAR}` is swapped for a marker made of private-use characters before parsing: in a
// flow map (`{ password: ${PW} }`) the braces would otherwise be YAML syntax, and users
// write exactly that. Only newlines decide line numbers, so the swap keeps them.

import { readLocated, type Located, type PathPart } from "../io/located-yaml.js";
import { STRING_KEYS } from "./config-schema.js";

/** Fields whose values are credentials (header values count too). */
// A URL may carry a password or an API key in its query: never quoted either.
const SECRET_VALUES = new Set(["password", "bearerToken", "url"]);

/** Values (maps, lists and scalars) a config may expand to; a real one has a few hundred. */
export const MAX_CONFIG_VALUES = 100_000;

const OPEN = "\uE000";
const CLOSE = "\uE001";
const REFERENCE = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function markReferences(text: string): string {
  return text.replace(REFERENCE, (m: string, name: string) => (m.startsWith("$$") ? m : `${OPEN}${name}${CLOSE}`));
}

const inHeaders = (path: readonly PathPart[]) => path[path.length - 2] === "headers";

export function readConfigYaml(text: string, file: string, env: Record<string, string | undefined>): Located {
  return readLocated(text, file, {
    prepare: markReferences,
    maxValues: MAX_CONFIG_VALUES,
    scalar: (value, at) => {
      let v = value;
      if ((typeof v === "number" || typeof v === "boolean") && (STRING_KEYS.has(String(at.path[at.path.length - 1])) || inHeaders(at.path))) {
        v = at.source ?? String(v);
      }
      if (typeof v !== "string") return v;
      // Error messages go to the terminal: a credential's text is never quoted in them.
      const secret = SECRET_VALUES.has(String(at.path[at.path.length - 1])) || inHeaders(at.path);
      const result = expandEnv(v, env, { quote: !secret });
      if ("error" in result) {
        at.problem(result.error, result.unset);
        return "";
      }
      return result.value;
    },
  });
}

/**
 * Expands the references marked before parsing; `$${` stands for a literal `${`. An
 * unset variable is an error (an empty password is more often a mistake than intended,
 * and set-but-empty still works).
 */
export function expandEnv(
  s: string,
  env: Record<string, string | undefined>,
  opts: { quote?: boolean } = {},
): { value: string } | { error: string; unset?: boolean } {
  const unset: string[] = [];
  let out = s.replace(new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`, "g"), (_m, name: string) => {
    const value = env[name];
    if (value === undefined) unset.push(name);
    return value ?? "";
  });
  if (unset.length > 0) {
    const names = unset.join(", ");
    return { error: `environment variable${unset.length > 1 ? "s" : ""} ${names} ${unset.length > 1 ? "are" : "is"} not set`, unset: true };
  }
  const parts = out.split("$${");
  if (parts.some((p) => p.includes("${"))) {
    const where = opts.quote === false ? "" : ` in ${JSON.stringify(s)}`;
    return { error: `invalid \${…} reference${where} (names are letters, digits and _)` };
  }
  out = parts.join("${");
  return { value: out };
}
