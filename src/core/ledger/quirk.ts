// The known-quirks ledger (cases/quirks.yaml): what each entry says, its schema, and
// loading with file:line errors. Adding a quirk touches only the YAML file.

import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { Ajv } from "ajv";
import semver from "semver";
import { DIVERGENCE_KINDS, type DivergenceKind } from "../diff/divergence.js";
import { parseLocated, ProblemsError, type Problem } from "../io/located-yaml.js";
import { schemaProblems, X_MESSAGE, validatorOnFirstUse } from "../io/schema-problems.js";
import { parsePath, PathSyntaxError } from "../canon/paths.js";
import { hintFor } from "../io/did-you-mean.js";

export interface BuildSelector {
  /** lightwalletd, zaino, ztreamer, zebrad, … (a build's `implementation`). */
  implementation?: string;
  /** A semver range (">=0.9.0 <0.10.1") or a list of exact versions ("master"). */
  versions?: string | string[];
  /** Exact build names, for a user's entries about one deployment (the shipped ledger matches what builds are, never their names). */
  names?: string[];
  /** The node the build is backed by (its implementation and a semver range or list), for behaviours that depend on it. */
  node?: { implementation?: string; versions?: string | string[] };
}

export interface QuirkMatch {
  transport?: "grpc" | "jsonrpc";
  /** rpc or JSON-RPC method names; absent = any. */
  methods?: string[];
  /** Case id patterns (`*` = any characters); absent = any. */
  cases?: string[];
  /** Field path patterns (any may match): `*` any characters, `[*]` any index. */
  path?: string | string[];
  /** The expected shape of the divergence; which keys apply depends on the kind. */
  shape?: {
    /** error-code: the code(s) the reference side had, and the code(s) the build answered. */
    from?: (string | number)[];
    to?: (string | number)[];
    /** multiplicity: the factor (2 = doubled). */
    factor?: number;
    /** json-shape: JSON types of the reference value and of the build's value. */
    fromType?: string;
    toType?: string;
    /**
     * count: the [reference, build] item counts it shows; a count divergence with any other
     * pair (one more item dropped, one duplicated) is not this entry's. "*" stands for any
     * count (["*", 0]: the build answered nothing, whatever the reference had). Other kinds are not affected.
     */
    counts?: [number | "*", number | "*"][];
  };
}

export type QuirkStatus = "open" | "fixed" | "wontfix" | "by-design";

/**
 * A committed file that holds a real server's answer an entry's reference describes, and
 * what it holds there, so that a test can check the quote. Exactly one of equals, length
 * and holds.
 */
export interface Evidence {
  /** A golden or a committed report, relative to the repository root. */
  file: string;
  /**
   * Where in it, in the field-path syntax of cases and divergences: in a golden, a path
   * into the recorded answer (`status.message`, `[5].vtx[0].vout[0].scriptPubKey` into the
   * messages as decoded from their bytes, `""` the whole stream; `error.message` into a
   * JSON-RPC body); in another JSON file, into its document. Absent: the file's text.
   */
  path?: string;
  /** The value there. */
  equals?: unknown;
  /** How many items the list there has (a stream's messages, a block's vtx). */
  length?: number;
  /** Text the string there (or the whole file) contains. */
  holds?: string;
}

/**
 * A source file an entry cites, machine-readable: a crate (crates.io) or Go module at the
 * version the pinned builds it names lock, so a test can check the lock and the file.
 */
export interface SourceCitation {
  crate?: string;
  module?: string;
  version: string;
  /** The file, relative to the crate's or module's root. */
  file: string;
  /** The function, type or constant cited (`Encoder::buffer`); each part is in the file. */
  symbol?: string;
  /** The pinned builds of real-servers.yaml ("zainod 0.10.1") whose lock file locks this version. */
  for: string[];
}

export interface Quirk {
  id: string;
  title: string;
  /** The divergence kind(s) one behaviour shows as (a missing transaction is a count and a missing field). */
  kind: DivergenceKind | DivergenceKind[];
  builds: BuildSelector[];
  /** Protocol versions the entry applies to (semver range over the version a build speaks). */
  protocol?: string;
  /**
   * Chain profiles the entry applies on (absent: every chain). A behaviour only some chains
   * can show (a mempool order, a pool activated at height 1) is neither matched nor stale
   * on the others.
   */
  chains?: string[];
  match: QuirkMatch;
  /**
   * When the behaviour shows only under conditions a run does not set (the first calls after
   * the server started): said in words, and the entry is never reported stale, since a run
   * that did not meet the condition cannot tell.
   */
  intermittent?: string;
  /** Issue, report or spec section the quirk comes from. */
  reference: string;
  /** The committed goldens or reports that show what the reference says a real server answered. */
  evidence?: Evidence[];
  /** The upstream source files the reference cites, by crate or module and version. */
  sources?: SourceCitation[];
  status: QuirkStatus;
  /** ISO date after which a still-present entry fails the run (it should be re-examined). */
  expires?: string;
  /** First version of the implementation that no longer shows it. */
  fixedIn?: string;
  notes?: string;
  source: { file: string; line: number };
}

const codeItem = { anyOf: [{ type: "string" }, { type: "integer" }] };
const text = { type: "string", minLength: 1 } as const;
/** A non-empty list of maps with exactly these fields. */
const listOf = (required: readonly string[], properties: Record<string, object>) =>
  ({ type: "array", minItems: 1, items: { type: "object", required, additionalProperties: false, properties } }) as const;
const pinnedBuild = {
  type: "string",
  pattern: "^[a-z][a-z0-9-]* v?[0-9]+\\.[0-9]+\\.[0-9]+$",
  [X_MESSAGE]: 'must name a pinned build as "<name> <version>" (zainod 0.10.1)',
};

export const ledgerSchema = {
  type: "object",
  required: ["quirks"],
  additionalProperties: false,
  properties: {
    description: { type: "string" },
    quirks: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "title", "kind", "builds", "match", "reference", "status"],
        additionalProperties: false,
        properties: {
          id: { type: "string", pattern: "^[a-z0-9][a-z0-9.-]*$" },
          title: { type: "string", minLength: 1 },
          kind: { anyOf: [{ enum: DIVERGENCE_KINDS }, { type: "array", items: { enum: DIVERGENCE_KINDS }, minItems: 1 }] },
          builds: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              additionalProperties: false,
              minProperties: 1,
              properties: {
                implementation: { type: "string" },
                versions: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 1 }] },
                names: { type: "array", items: { type: "string" }, minItems: 1 },
                node: {
                  type: "object",
                  additionalProperties: false,
                  minProperties: 1,
                  properties: {
                    implementation: { type: "string", minLength: 1 },
                    versions: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 1 }] },
                  },
                },
              },
            },
          },
          protocol: { type: "string" },
          chains: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
          match: {
            type: "object",
            additionalProperties: false,
            properties: {
              transport: { enum: ["grpc", "jsonrpc"] },
              methods: { type: "array", items: { type: "string" }, minItems: 1 },
              cases: { type: "array", items: { type: "string" }, minItems: 1 },
              path: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 1 }] },
              shape: {
                type: "object",
                additionalProperties: false,
                properties: {
                  from: { type: "array", items: codeItem, minItems: 1 },
                  to: { type: "array", items: codeItem, minItems: 1 },
                  factor: { type: "number" },
                  fromType: { enum: ["string", "number", "boolean", "null", "object", "array"] },
                  toType: { enum: ["string", "number", "boolean", "null", "object", "array"] },
                  counts: {
                    type: "array",
                    minItems: 1,
                    items: { type: "array", items: { anyOf: [{ type: "integer", minimum: 0 }, { const: "*" }] }, minItems: 2, maxItems: 2 },
                  },
                },
              },
            },
          },
          intermittent: { type: "string", minLength: 1 },
          reference: { type: "string", minLength: 1 },
          evidence: listOf(["file"], {
            file: text,
            path: { type: "string" },
            equals: {},
            length: { type: "integer", minimum: 0 },
            holds: text,
          }),
          sources: listOf(["version", "file", "for"], {
            crate: text,
            module: text,
            version: { type: "string", pattern: "^v?[0-9]+\\.[0-9]+\\.[0-9]+$" },
            file: text,
            symbol: text,
            for: { anyOf: [pinnedBuild, { type: "array", items: pinnedBuild, minItems: 1 }] },
          }),
          status: { enum: ["open", "fixed", "wontfix", "by-design"] },
          expires: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
          fixed_in: { type: "string" },
          notes: { type: "string" },
        },
      },
    },
  },
} as const;

const validate = validatorOnFirstUse(() => new Ajv({ allErrors: true, strict: false }).compile(ledgerSchema));

type RawQuirk = Omit<Quirk, "source" | "fixedIn" | "sources"> & { fixed_in?: string; sources?: (Omit<SourceCitation, "for"> & { for: string | string[] })[] };

const EVIDENCE_CHECKS = ["equals", "length", "holds"] as const;

/**
 * The entries of a ledger file. With `implementations` (the protocol's names), an entry's
 * `builds[].implementation` must be one of them: a misspelt name would match no build and
 * leave its quirk unexplained.
 */
export function parseLedger(text: string, file: string, implementations?: readonly string[]): Quirk[] {
  const located = parseLocated(text, file);
  const problems: Problem[] = schemaProblems(validate(), located);
  if (problems.length > 0) throw new ProblemsError(problems);
  const raw = (located.value as { quirks: RawQuirk[] }).quirks;
  const seen = new Map<string, number>();
  const quirks = raw.map((q, i): Quirk => {
    const line = located.lineOf(["quirks", i]);
    const at = (field: string) => ({ file, line: located.lineOf(["quirks", i, field]), field: `quirks[${i}].${field}` });
    const first = seen.get(q.id);
    if (first !== undefined) problems.push({ ...at("id"), message: `duplicate id "${q.id}" (first at line ${first})` });
    seen.set(q.id, line);
    if (q.protocol !== undefined && semver.validRange(q.protocol) === null)
      problems.push({ ...at("protocol"), message: `not a semver range: "${q.protocol}"` });
    q.builds.forEach((b, k) => {
      if (implementations && b.implementation !== undefined && !implementations.includes(b.implementation)) {
        problems.push({
          file,
          line: located.lineOf(["quirks", i, "builds", k, "implementation"]),
          field: `quirks[${i}].builds[${k}].implementation`,
          message: `unknown implementation "${b.implementation}"${hintFor(b.implementation, implementations)}; known: ${implementations.join(", ")}`,
        });
      }
      const range = (versions: string | string[] | undefined, path: (string | number)[]) => {
        if (typeof versions === "string" && semver.validRange(versions) === null) {
          problems.push({
            file,
            line: located.lineOf(["quirks", i, "builds", k, ...path]),
            field: `quirks[${i}].builds[${k}].${path.join(".")}`,
            message: `not a semver range: "${versions}" (use a list for exact names such as [master])`,
          });
        }
      };
      range(b.versions, ["versions"]);
      range(b.node?.versions, ["node", "versions"]);
    });
    if (q.expires !== undefined && Number.isNaN(Date.parse(q.expires))) problems.push({ ...at("expires"), message: `not a date: "${q.expires}"` });
    q.evidence?.forEach((e, k) => {
      const where = { file, line: located.lineOf(["quirks", i, "evidence", k]), field: `quirks[${i}].evidence[${k}]` };
      const checks = EVIDENCE_CHECKS.filter((c) => c in e);
      if (checks.length !== 1)
        problems.push({
          ...where,
          message: `says what the file holds with exactly one of ${EVIDENCE_CHECKS.join(", ")} (found ${checks.length === 0 ? "none" : checks.join(", ")})`,
        });
      else if (checks[0] !== "holds" && e.path === undefined) problems.push({ ...where, message: `${checks[0]} needs a path: the field it is about` });
      const bad = e.path === undefined ? undefined : concretePathProblem(e.path);
      if (bad) problems.push({ ...where, line: located.lineOf(["quirks", i, "evidence", k, "path"]), field: `${where.field}.path`, message: bad });
    });
    q.sources?.forEach((s, k) => {
      if ((s.crate === undefined) === (s.module === undefined)) {
        problems.push({
          file,
          line: located.lineOf(["quirks", i, "sources", k]),
          field: `quirks[${i}].sources[${k}]`,
          message: "names either a crate (crates.io) or a module (Go), not both or neither",
        });
      }
    });
    const { fixed_in, sources, ...rest } = q;
    return {
      ...rest,
      ...(fixed_in !== undefined ? { fixedIn: fixed_in } : {}),
      ...(sources ? { sources: sources.map((s) => ({ ...s, for: typeof s.for === "string" ? [s.for] : s.for })) } : {}),
      source: { file, line },
    };
  });
  if (problems.length > 0) throw new ProblemsError(problems);
  return quirks;
}

/** Why an evidence path cannot name one value (a syntax error, a wildcard), or undefined. */
function concretePathProblem(path: string): string | undefined {
  try {
    return parsePath(path).some((s) => s.kind === "any") ? `${JSON.stringify(path)} has a wildcard: evidence names one value` : undefined;
  } catch (e) {
    if (e instanceof PathSyntaxError) return e.message;
    throw e;
  }
}

export function loadLedger(path: string, o: { displayName?: string; implementations?: readonly string[] } = {}): Quirk[] {
  const displayName = o.displayName ?? path;
  return parseLedger(readInput(path, displayName, INPUT_LIMITS.ledgerBytes, "the ledger"), displayName, o.implementations);
}

/** The entries that apply on a run over this chain profile. */
export function ledgerOnChain(ledger: readonly Quirk[], chain: string): Quirk[] {
  return ledger.filter((q) => q.chains === undefined || q.chains.includes(chain));
}
