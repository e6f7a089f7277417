// Loads the corpus: cases/grpc/<Rpc>.yaml and cases/jsonrpc/<method>.yaml. Every problem
// is collected (not just the first) and reported with file, line and field.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { Ajv } from "ajv";
import semver from "semver";
import { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import { JSONRPC_METHOD_NAMES } from "../../zcash/oracle/jsonrpc-methods.js";
import type { Transport } from "../targets/observation.js";
import { fieldName, parseLocated, ProblemsError, schemaProblems, type Problem } from "../io/located-yaml.js";
import type { Case, Expectation } from "./case.js";
import { caseFileSchema } from "./schema.js";

const ajv = new Ajv({ allErrors: true, strict: false });
const validateCaseFile = ajv.compile(caseFileSchema);

const GRPC_METHODS = new Set(CompactTxStreamer.methods.map((m) => m.name));
const JSONRPC_METHODS = new Set(JSONRPC_METHOD_NAMES);

interface RawCase {
  id: string;
  title?: string;
  request: unknown;
  expect?: RawExpect;
  volatile?: string[];
  unordered?: boolean;
  tags?: string[];
  protocol?: string;
  chains?: string[];
  servedBy?: string[];
}
type RawExpect = "agree" | "oracle" | { error: (string | number)[] };
interface RawFile {
  method: string;
  defaults?: Omit<RawCase, "id" | "request" | "title">;
  cases: RawCase[];
}

function toExpectation(raw: RawExpect | undefined): Expectation {
  if (raw === undefined || raw === "oracle") return { kind: "oracle" };
  if (raw === "agree") return { kind: "agree" };
  return { kind: "error", codes: raw.error };
}

/** Cases of one file; `displayName` is the path shown in problems. */
export function parseCaseFile(text: string, displayName: string, transport: Transport): Case[] {
  const located = parseLocated(text, displayName);
  const problems: Problem[] = schemaProblems(validateCaseFile, located);
  if (problems.length > 0) throw new ProblemsError(problems);
  const file = located.value as RawFile;
  const known = transport === "grpc" ? GRPC_METHODS : JSONRPC_METHODS;
  if (!known.has(file.method)) {
    problems.push({ file: displayName, line: located.lineOf(["method"]), field: "method",
      message: `unknown ${transport} method "${file.method}"` });
  }
  const stem = basename(displayName).replace(/\.ya?ml$/, "");
  if (stem !== file.method) {
    problems.push({ file: displayName, line: located.lineOf(["method"]), field: "method",
      message: `must equal the file name ("${stem}")` });
  }
  const seen = new Map<string, number>();
  const cases = file.cases.map((raw, i): Case => {
    const line = located.lineOf(["cases", i]);
    const first = seen.get(raw.id);
    if (first !== undefined) {
      problems.push({ file: displayName, line: located.lineOf(["cases", i, "id"]), field: `cases[${i}].id`,
        message: `duplicate id "${raw.id}" (first at line ${first})` });
    } else seen.set(raw.id, line);
    const d = file.defaults ?? {};
    const c: Case = {
      id: `${file.method}/${raw.id}`,
      transport,
      method: file.method,
      request: raw.request,
      expect: toExpectation(raw.expect ?? d.expect),
      volatile: [...(d.volatile ?? []), ...(raw.volatile ?? [])],
      unordered: raw.unordered ?? d.unordered ?? false,
      tags: [...new Set([...(d.tags ?? []), ...(raw.tags ?? [])])],
      source: { file: displayName, line },
    };
    const protocol = raw.protocol ?? d.protocol;
    if (protocol !== undefined) {
      if (semver.validRange(protocol) === null) {
        const at = raw.protocol !== undefined ? ["cases", i, "protocol"] : ["defaults", "protocol"];
        problems.push({ file: displayName, line: located.lineOf(at), field: fieldName(at), message: `not a semver range of protocol versions: "${protocol}" (e.g. ">=0.4.1")` });
      }
      c.protocol = protocol;
    }
    const chains = raw.chains ?? d.chains;
    if (chains !== undefined) c.chains = chains;
    const servedBy = raw.servedBy ?? d.servedBy;
    if (servedBy !== undefined) c.servedBy = servedBy;
    if (raw.title !== undefined) c.title = raw.title;
    if (transport === "jsonrpc" && !Array.isArray(raw.request)) {
      problems.push({ file: displayName, line: located.lineOf(["cases", i, "request"]), field: `cases[${i}].request`,
        message: "must be the positional params array of the JSON-RPC call" });
    }
    return c;
  });
  if (problems.length > 0) throw new ProblemsError(problems);
  return cases;
}

function yamlFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** Every case under `root` (the cases/ folder), in file then declaration order. */
export function loadCorpus(root: string): Case[] {
  if (!existsSync(root)) throw new ProblemsError([{ file: root, line: 0, field: "", message: "corpus folder not found" }]);
  const problems: Problem[] = [];
  const cases: Case[] = [];
  for (const transport of ["grpc", "jsonrpc"] as const) {
    for (const path of yamlFiles(join(root, transport))) {
      const display = relative(process.cwd(), path) || path;
      try {
        cases.push(...parseCaseFile(readFileSync(path, "utf8"), display, transport));
      } catch (e) {
        if (e instanceof ProblemsError) problems.push(...e.problems);
        else throw e;
      }
    }
  }
  if (problems.length > 0) throw new ProblemsError(problems);
  return cases;
}
