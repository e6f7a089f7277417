// YAML documents that remember where each value stands, so that every problem in a
// user's file (cases, ledger, chain profiles, config) is reported the same way, as
// file:line: field: message. One reader serves them all: it walks the document itself,
// so aliases, nesting and size are bounded the same way for every file, a duplicate key
// is named at its own line, and a file may ask for its own treatment of scalars (the
// config's `${VAR}` references and number-looking strings).

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Scalar } from "yaml";

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

/** The JSON pointer of a path, as ajv writes instance paths (`/builds/1/grpc`). */
export function pointer(path: readonly PathPart[]): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** The path of a JSON pointer as ajv writes it. */
export function pathOfPointer(ptr: string): PathPart[] {
  if (!ptr) return [];
  return ptr
    .slice(1)
    .split("/")
    .map((s) => {
      const k = s.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^\d+$/.test(k) ? Number(k) : k;
    });
}

export interface Located {
  file: string;
  /** The document as plain data; undefined when the YAML did not parse, null when it is empty. */
  value: unknown;
  /** Problems found while reading: syntax, duplicate keys, aliases, size, scalars. */
  problems: Problem[];
  /** Line (1-based) of the value at `path` (of its key, inside a map), or of its nearest ancestor that exists. */
  lineOf(path: readonly PathPart[]): number;
  /** Pointers of values a scalar hook left unresolved (schema errors there are noise). */
  unresolved: ReadonlySet<string>;
}

/** What a scalar hook may do with one scalar value. */
export interface ScalarContext {
  path: readonly PathPart[];
  line: number;
  /** The scalar as written in the file. */
  source: string | undefined;
  /** Report a problem at this value; `unresolved` marks it for the schema check to skip. */
  problem(message: string, unresolved?: boolean): void;
}

export interface ReadOptions {
  /** Applied to the text before parsing; must keep every newline where it is. */
  prepare?: (text: string) => string;
  /** Turns each scalar into the value the file means. */
  scalar?: (value: unknown, at: ScalarContext) => unknown;
  /** Values (maps, lists and scalars) the document may expand to. */
  maxValues?: number;
}

/** Aliases (*name) one document may use; every value an alias expands to counts too. */
export const MAX_ALIASES = 100;
/** A 4 MiB case file holds at most about two million values; aliases cannot add more than this. */
export const MAX_VALUES = 4_000_000;
export const MAX_DEPTH = 64;

/** Reads YAML text, keeping every problem (none is thrown). */
export function readLocated(text: string, file: string, opts: ReadOptions = {}): Located {
  const lineCounter = new LineCounter();
  // logLevel error: what the library would only warn about on the console is not lost;
  // duplicate keys are found in the walk below, which knows the duplicate's own line.
  const doc = parseDocument(opts.prepare ? opts.prepare(text) : text, { lineCounter, prettyErrors: false, uniqueKeys: false, logLevel: "error" });
  const where = new Map<string, { line: number; keyLine?: number }>();
  const unresolved = new Set<string>();
  const problems: Problem[] = [];
  const add = (line: number, path: readonly PathPart[], message: string) => problems.push({ file, line, field: fieldName(path), message });
  const lineOf = (path: readonly PathPart[]): number => {
    for (let n = path.length; n >= 0; n--) {
      const w = where.get(pointer(path.slice(0, n)));
      if (w) return w.keyLine ?? w.line;
    }
    return 1;
  };
  const located: Located = { file, value: undefined, problems, lineOf, unresolved };
  for (const e of doc.errors) add(lineCounter.linePos(e.pos[0]).line, [], `YAML syntax: ${e.message.split("\n")[0]!.trim()}`);
  if (problems.length > 0) return located;

  const lineAt = (node: Node | null | undefined, fallback: number): number => (node?.range ? lineCounter.linePos(node.range[0]).line : fallback);
  const maxValues = opts.maxValues ?? MAX_VALUES;

  // Aliases are followed by hand, so what the library bounds in toJS is bounded here: a
  // few lines of nested aliases ("billion laughs") would otherwise expand to billions of
  // values, and an alias to its own container would never end.
  let aliases = 0;
  let values = 0;
  const open = new Set<unknown>();
  const walk = (raw: unknown, path: PathPart[], line: number, keyLine?: number): unknown => {
    let node = raw;
    if (isAlias(raw)) {
      const at = lineAt(raw, line);
      if (++aliases > MAX_ALIASES) {
        if (aliases === MAX_ALIASES + 1) add(at, path, `more than ${MAX_ALIASES} YAML aliases (*name); write the values out`);
        return null;
      }
      node = raw.resolve(doc);
      if (node === undefined) {
        add(at, path, `YAML alias *${raw.source} has no anchor &${raw.source} before it`);
        return null;
      }
      if (open.has(node)) {
        add(at, path, `YAML alias *${raw.source} refers to a map or list that contains it`);
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

  const walkNode = (node: unknown, path: PathPart[], line: number, keyLine?: number): unknown => {
    const here = lineAt(node as Node | undefined, line);
    if (++values > maxValues) {
      if (values === maxValues + 1) add(here, path, `the file expands to more than ${maxValues} values (through YAML aliases?); write it shorter`);
      return null;
    }
    if (path.length > MAX_DEPTH) {
      add(here, path.slice(0, MAX_DEPTH), `nested deeper than ${MAX_DEPTH} levels`);
      values = maxValues + 1;
      return null;
    }
    where.set(pointer(path), keyLine === undefined ? { line: here } : { line: here, keyLine });
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const kLine = lineAt(keyNode, here);
        if (!isScalar(keyNode) || (typeof keyNode.value !== "string" && typeof keyNode.value !== "number")) {
          add(kLine, path, "keys must be plain names");
          continue;
        }
        const key = String(keyNode.value);
        if (Object.hasOwn(out, key)) {
          add(kLine, [...path, key], `duplicate key (first on line ${where.get(pointer([...path, key]))?.keyLine})`);
          continue;
        }
        // Defined, not assigned: a key named __proto__ is a field like any other.
        Object.defineProperty(out, key, { value: walk(pair.value, [...path, key], kLine, kLine), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item, i) => walk(item, [...path, i], here));
    if (isScalar(node)) {
      if (!opts.scalar) return node.value;
      return opts.scalar(node.value, {
        path,
        line: here,
        source: (node as Scalar).source,
        problem: (message, unset) => {
          add(here, path, message);
          if (unset) unresolved.add(pointer(path));
        },
      });
    }
    return null;
  };

  located.value = doc.contents === null ? null : walk(doc.contents, [], 1);
  return located;
}

/** Reads YAML text; any problem found while reading is thrown as a ProblemsError. */
export function parseLocated(text: string, file: string, opts: ReadOptions = {}): Located {
  const located = readLocated(text, file, opts);
  if (located.problems.length > 0) throw new ProblemsError(located.problems);
  return located;
}
