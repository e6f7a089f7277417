// YAML → plain data, remembering the line of every value and key so that any later
// check can point at the right line. `${VAR}` references are expanded here, and values
// of string fields that YAML would read as numbers keep their text (`version: 1.10`
// stays "1.10", `password: 0123` stays "0123").
//
// `${VAR}` is swapped for a marker made of private-use characters before parsing: in a
// flow map (`{ password: ${PW} }`) the braces would otherwise be YAML syntax, and users
// write exactly that. Only newlines decide line numbers, so the swap keeps them.

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { STRING_KEYS } from "./config-schema.js";

export type Path = (string | number)[];

export interface YamlProblem {
  line: number;
  path: Path;
  message: string;
}

export interface Located {
  line: number;
  /** Line of the key, for a value inside a map. */
  keyLine?: number;
}

export interface YamlData {
  value: unknown;
  /** JSON pointer (as ajv writes it) → where that value is. */
  where: Map<string, Located>;
  problems: YamlProblem[];
  /** Pointers whose string value referenced an unset variable (schema errors there are noise). */
  unsetEnv: Set<string>;
}

export function pointer(path: Path): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Fields whose values are credentials (header values count too). */
// A URL may carry a password or an API key in its query: never quoted either.
const SECRET_VALUES = new Set(["password", "bearerToken", "url"]);

/** As many aliases as the corpus loader allows (yaml's maxAliasCount there). */
export const MAX_ALIASES = 100;
/** Values (maps, lists and scalars) a config may expand to; a real one has a few hundred. */
export const MAX_VALUES = 100_000;
const MAX_DEPTH = 64;

const OPEN = "\uE000";
const CLOSE = "\uE001";
const REFERENCE = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function markReferences(text: string): string {
  return text.replace(REFERENCE, (m: string, name: string) => (m.startsWith("$$") ? m : `${OPEN}${name}${CLOSE}`));
}

export function readYaml(text: string, env: Record<string, string | undefined>): YamlData {
  const lineCounter = new LineCounter();
  // Duplicate keys are found in the walk below, which knows the duplicate's own line.
  const doc = parseDocument(markReferences(text), { lineCounter, prettyErrors: false, uniqueKeys: false });
  const data: YamlData = { value: undefined, where: new Map(), problems: [], unsetEnv: new Set() };
  for (const e of doc.errors) {
    data.problems.push({ line: e.linePos?.[0]?.line ?? 1, path: [], message: `YAML: ${firstLine(e.message)}` });
  }
  if (data.problems.length > 0) return data;

  const lineOf = (node: Node | null | undefined, fallback: number): number =>
    node?.range ? lineCounter.linePos(node.range[0]).line : fallback;

  // Aliases are followed by hand here, so the limits the library applies in toJS must be
  // applied here too: a few lines of nested aliases ("billion laughs") would otherwise
  // expand to billions of values, and an alias to its own container would never end.
  let aliases = 0;
  const open = new Set<unknown>();
  const walk = (raw: unknown, path: Path, line: number, keyLine?: number): unknown => {
    let node = raw;
    if (isAlias(raw)) {
      const at = lineOf(raw, line);
      if (++aliases > MAX_ALIASES) {
        if (aliases === MAX_ALIASES + 1) data.problems.push({ line: at, path, message: `more than ${MAX_ALIASES} YAML aliases (*name); write the values out` });
        return null;
      }
      node = raw.resolve(doc);
      if (open.has(node)) {
        data.problems.push({ line: at, path, message: `YAML alias *${raw.source} refers to a map or list that contains it` });
        return null;
      }
    }
    if (isMap(node) || isSeq(node)) open.add(node);
    try {
      return walkNode(node, path, line, keyLine);
    } finally {
      open.delete(node);
    }
  };

  // A few aliases to one long list multiply it: the values a config expands to are
  // counted as well as the aliases themselves.
  let values = 0;
  const walkNode = (node: unknown, path: Path, line: number, keyLine?: number): unknown => {
    const here = lineOf(node as Node | undefined, line);
    if (++values > MAX_VALUES) {
      if (values === MAX_VALUES + 1) data.problems.push({ line: here, path, message: `the file expands to more than ${MAX_VALUES} values (through YAML aliases?); write a shorter config` });
      return null;
    }
    if (path.length > MAX_DEPTH) {
      data.problems.push({ line: here, path: path.slice(0, MAX_DEPTH), message: `nested deeper than ${MAX_DEPTH} levels` });
      values = MAX_VALUES + 1;
      return null;
    }
    data.where.set(pointer(path), { line: here, keyLine });
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const kLine = lineOf(keyNode, here);
        if (!isScalar(keyNode) || (typeof keyNode.value !== "string" && typeof keyNode.value !== "number")) {
          data.problems.push({ line: kLine, path, message: "keys must be plain names" });
          continue;
        }
        const key = String(keyNode.value);
        if (Object.hasOwn(out, key)) {
          const first = data.where.get(pointer([...path, key]))?.keyLine;
          data.problems.push({ line: kLine, path: [...path, key], message: `duplicate key (first on line ${first})` });
          continue;
        }
        out[key] = walk(pair.value, [...path, key], kLine, kLine);
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => walk(item, [...path, i], here));
    if (isScalar(node)) {
      let v = node.value;
      const last = path[path.length - 1];
      const inHeaders = path[path.length - 2] === "headers";
      if ((typeof v === "number" || typeof v === "boolean") && (STRING_KEYS.has(String(last)) || inHeaders)) {
        v = node.source ?? String(v);
      }
      if (typeof v === "string") return expand(v, path, here);
      return v;
    }
    return null;
  };

  const expand = (s: string, path: Path, line: number): string => {
    // Error messages go to the terminal: a credential's text is never quoted in them.
    const secret = SECRET_VALUES.has(String(path[path.length - 1])) || path[path.length - 2] === "headers";
    const result = expandEnv(s, env, { quote: !secret });
    if ("error" in result) {
      data.problems.push({ line, path, message: result.error });
      if (result.unset) data.unsetEnv.add(pointer(path));
      return "";
    }
    return result.value;
  };

  data.value = doc.contents === null ? null : walk(doc.contents, [], 1);
  return data;
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

function firstLine(s: string): string {
  return s.split("\n")[0]!.trim();
}
