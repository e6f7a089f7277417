// The known-quirks ledger (cases/quirks.yaml): what each entry says, its schema, and
// loading with file:line errors. Adding a quirk touches only the YAML file.

import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { Ajv } from "ajv";
import semver from "semver";
import { DIVERGENCE_KINDS, type DivergenceKind } from "../diff/divergence.js";
import { parseLocated, ProblemsError, type Problem } from "../io/located-yaml.js";
import { schemaProblems } from "../io/schema-problems.js";
import { hintFor } from "../io/did-you-mean.js";

export interface BuildSelector {
  /** lightwalletd, zaino, ztreamer, zebrad, … (a build's `implementation`). */
  implementation?: string;
  /** A semver range (">=0.9.0 <0.10.1") or a list of exact versions ("master"). */
  versions?: string | string[];
  /** Exact build names, for entries about one deployment. */
  names?: string[];
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
     * pair (one more item dropped, one duplicated) is not this entry's. Other kinds are not affected.
     */
    counts?: [number, number][];
  };
}

export type QuirkStatus = "open" | "fixed" | "wontfix" | "by-design";

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
  /** Issue, report or spec section the quirk comes from. */
  reference: string;
  status: QuirkStatus;
  /** ISO date after which a still-present entry fails the run (it should be re-examined). */
  expires?: string;
  /** First version of the implementation that no longer shows it. */
  fixedIn?: string;
  notes?: string;
  source: { file: string; line: number };
}

const codeItem = { anyOf: [{ type: "string" }, { type: "integer" }] };

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
                    type: "array", minItems: 1,
                    items: { type: "array", items: { type: "integer", minimum: 0 }, minItems: 2, maxItems: 2 },
                  },
                },
              },
            },
          },
          reference: { type: "string", minLength: 1 },
          status: { enum: ["open", "fixed", "wontfix", "by-design"] },
          expires: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
          fixed_in: { type: "string" },
          notes: { type: "string" },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(ledgerSchema);

type RawQuirk = Omit<Quirk, "source" | "fixedIn"> & { fixed_in?: string };

/**
 * The entries of a ledger file. With `implementations` (the protocol's names), an entry's
 * `builds[].implementation` must be one of them: a misspelt name would match no build and
 * leave its quirk unexplained.
 */
export function parseLedger(text: string, file: string, implementations?: readonly string[]): Quirk[] {
  const located = parseLocated(text, file);
  const problems: Problem[] = schemaProblems(validate, located);
  if (problems.length > 0) throw new ProblemsError(problems);
  const raw = (located.value as { quirks: RawQuirk[] }).quirks;
  const seen = new Map<string, number>();
  const quirks = raw.map((q, i): Quirk => {
    const line = located.lineOf(["quirks", i]);
    const at = (field: string) => ({ file, line: located.lineOf(["quirks", i, field]), field: `quirks[${i}].${field}` });
    const first = seen.get(q.id);
    if (first !== undefined) problems.push({ ...at("id"), message: `duplicate id "${q.id}" (first at line ${first})` });
    seen.set(q.id, line);
    if (q.protocol !== undefined && semver.validRange(q.protocol) === null) problems.push({ ...at("protocol"), message: `not a semver range: "${q.protocol}"` });
    q.builds.forEach((b, k) => {
      if (implementations && b.implementation !== undefined && !implementations.includes(b.implementation)) {
        problems.push({
          file, line: located.lineOf(["quirks", i, "builds", k, "implementation"]), field: `quirks[${i}].builds[${k}].implementation`,
          message: `unknown implementation "${b.implementation}"${hintFor(b.implementation, implementations)}; known: ${implementations.join(", ")}`,
        });
      }
      if (typeof b.versions === "string" && semver.validRange(b.versions) === null) {
        problems.push({ file, line: located.lineOf(["quirks", i, "builds", k, "versions"]), field: `quirks[${i}].builds[${k}].versions`, message: `not a semver range: "${b.versions}" (use a list for exact names such as [master])` });
      }
    });
    if (q.expires !== undefined && Number.isNaN(Date.parse(q.expires))) problems.push({ ...at("expires"), message: `not a date: "${q.expires}"` });
    const { fixed_in, ...rest } = q;
    return { ...rest, ...(fixed_in !== undefined ? { fixedIn: fixed_in } : {}), source: { file, line } };
  });
  if (problems.length > 0) throw new ProblemsError(problems);
  return quirks;
}

export function loadLedger(path: string, o: { displayName?: string; implementations?: readonly string[] } = {}): Quirk[] {
  const displayName = o.displayName ?? path;
  return parseLedger(readInput(path, displayName, INPUT_LIMITS.ledgerBytes, "the ledger"), displayName, o.implementations);
}

/** The entries that apply on a run over this chain profile. */
export function ledgerOnChain(ledger: readonly Quirk[], chain: string): Quirk[] {
  return ledger.filter((q) => q.chains === undefined || q.chains.includes(chain));
}
