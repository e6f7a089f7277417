// Loads the corpus: cases/grpc/<Rpc>.yaml and cases/jsonrpc/<method>.yaml. Every problem
// is collected (not just the first) and reported with file, line and field.

import { existsSync, readdirSync } from "node:fs";
import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { basename, join, relative } from "node:path";
import { Ajv } from "ajv";
import semver from "semver";
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "../targets/observation.js";
import { fieldName, parseLocated, ProblemsError, type Problem } from "../io/located-yaml.js";
import { schemaProblems, validatorsByImplementations } from "../io/schema-problems.js";
import type { Case, Expectation } from "./case.js";
import { caseFileSchema } from "./schema.js";

/**
 * What a case file may name, from the protocol (src/core/run/protocol.ts): its gRPC
 * service and JSON-RPC methods, and the implementations `servedBy` may list.
 */
export interface CorpusMethods {
  service: DescService;
  jsonRpcMethods: readonly string[];
  implementations: readonly string[];
}

const validatorFor = validatorsByImplementations(() => new Ajv({ allErrors: true, strict: false }), caseFileSchema);

interface RawCase {
  id: string;
  title?: string;
  request: unknown;
  expect?: RawExpect;
  volatile?: string[];
  wallClock?: string[];
  unorderedKeys?: string[];
  unordered?: boolean;
  openEnded?: { quietMs: number };
  cancelAfter?: number;
  deadlineMs?: number;
  tags?: string[];
  protocol?: string;
  chains?: string[];
  servedBy?: string[];
  sameAnswerAs?: { case: string; why: string };
}
type RawExpect = "agree" | "oracle" | "ok" | { error: (string | number)[] };
interface RawFile {
  method: string;
  defaults?: Omit<RawCase, "id" | "request" | "title" | "sameAnswerAs" | "cancelAfter" | "deadlineMs">;
  cases: RawCase[];
}

function toExpectation(raw: RawExpect | undefined): Expectation {
  if (raw === undefined || raw === "oracle") return { kind: "oracle" };
  if (raw === "agree") return { kind: "agree" };
  if (raw === "ok") return { kind: "ok" };
  return { kind: "error", codes: raw.error };
}

/** Cases of one file; `displayName` is the path shown in problems. */
export function parseCaseFile(text: string, displayName: string, transport: Transport, methods: CorpusMethods): Case[] {
  const located = parseLocated(text, displayName);
  const listed = (located.value as { cases?: unknown } | null)?.cases;
  if (Array.isArray(listed) && listed.length > INPUT_LIMITS.casesPerFile) {
    throw new ProblemsError([
      {
        file: displayName,
        line: located.lineOf(["cases"]),
        field: "cases",
        message: `${listed.length} cases; the limit is ${INPUT_LIMITS.casesPerFile} per file`,
      },
    ]);
  }
  const problems: Problem[] = schemaProblems(validatorFor(methods.implementations), located);
  if (problems.length > 0) throw new ProblemsError(problems);
  const file = located.value as RawFile;
  const known = transport === "grpc" ? methods.service.methods.some((m) => m.name === file.method) : methods.jsonRpcMethods.includes(file.method);
  if (!known) {
    problems.push({ file: displayName, line: located.lineOf(["method"]), field: "method", message: `unknown ${transport} method "${file.method}"` });
  }
  const stem = basename(displayName).replace(/\.ya?ml$/, "");
  if (stem !== file.method) {
    problems.push({ file: displayName, line: located.lineOf(["method"]), field: "method", message: `must equal the file name ("${stem}")` });
  }
  const seen = new Map<string, number>();
  const cases = file.cases.map((raw, i): Case => {
    const line = located.lineOf(["cases", i]);
    const first = seen.get(raw.id);
    if (first !== undefined) {
      problems.push({
        file: displayName,
        line: located.lineOf(["cases", i, "id"]),
        field: `cases[${i}].id`,
        message: `duplicate id "${raw.id}" (first at line ${first})`,
      });
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
    const wallClock = [...(d.wallClock ?? []), ...(raw.wallClock ?? [])];
    if (wallClock.length > 0) c.wallClock = wallClock;
    if (raw.unorderedKeys !== undefined) {
      if (transport !== "jsonrpc") {
        const at = ["cases", i, "unorderedKeys"];
        problems.push({
          file: displayName,
          line: located.lineOf(at),
          field: fieldName(at),
          message: "unorderedKeys names objects of a JSON-RPC answer; a gRPC message has no key order (use unordered for a stream's messages)",
        });
      }
      c.unorderedKeys = raw.unorderedKeys;
    }
    const protocol = raw.protocol ?? d.protocol;
    if (protocol !== undefined) {
      if (semver.validRange(protocol) === null) {
        const at = raw.protocol !== undefined ? ["cases", i, "protocol"] : ["defaults", "protocol"];
        problems.push({
          file: displayName,
          line: located.lineOf(at),
          field: fieldName(at),
          message: `not a semver range of protocol versions: "${protocol}" (e.g. ">=0.4.1")`,
        });
      }
      c.protocol = protocol;
    }
    const openEnded = raw.openEnded ?? d.openEnded;
    if (openEnded !== undefined) {
      const rpc = transport === "grpc" ? methods.service.methods.find((m) => m.name === file.method) : undefined;
      if (rpc && rpc.methodKind !== "server_streaming") {
        const at = raw.openEnded !== undefined ? ["cases", i, "openEnded"] : ["defaults", "openEnded"];
        problems.push({
          file: displayName,
          line: located.lineOf(at),
          field: fieldName(at),
          message: `only a server-streaming rpc can be open-ended; ${file.method} is ${rpc.methodKind.replace("_", "-")}`,
        });
      } else if (transport !== "grpc") {
        const at = raw.openEnded !== undefined ? ["cases", i, "openEnded"] : ["defaults", "openEnded"];
        problems.push({ file: displayName, line: located.lineOf(at), field: fieldName(at), message: "only a gRPC stream can be open-ended" });
      } else c.openEnded = openEnded;
    }
    if (raw.cancelAfter !== undefined) {
      const rpc = transport === "grpc" ? methods.service.methods.find((m) => m.name === file.method) : undefined;
      if (rpc?.methodKind !== "server_streaming") {
        problems.push({
          file: displayName,
          line: located.lineOf(["cases", i, "cancelAfter"]),
          field: `cases[${i}].cancelAfter`,
          message: `only a gRPC server stream can be cancelled mid-way; ${file.method} is ${rpc ? rpc.methodKind.replace("_", "-") : "JSON-RPC"}`,
        });
      } else c.cancelAfter = raw.cancelAfter;
    }
    if (raw.deadlineMs !== undefined) {
      if (transport !== "grpc") {
        problems.push({
          file: displayName,
          line: located.lineOf(["cases", i, "deadlineMs"]),
          field: `cases[${i}].deadlineMs`,
          message: "only a gRPC call carries a deadline (grpc-timeout)",
        });
      } else c.deadlineMs = raw.deadlineMs;
    }
    const chains = raw.chains ?? d.chains;
    if (chains !== undefined) c.chains = chains;
    const servedBy = raw.servedBy ?? d.servedBy;
    if (servedBy !== undefined) c.servedBy = servedBy;
    if (raw.title !== undefined) c.title = raw.title;
    if (raw.sameAnswerAs !== undefined) c.sameAnswerAs = { case: `${file.method}/${raw.sameAnswerAs.case}`, why: raw.sameAnswerAs.why };
    if (transport === "jsonrpc" && !Array.isArray(raw.request)) {
      problems.push({
        file: displayName,
        line: located.lineOf(["cases", i, "request"]),
        field: `cases[${i}].request`,
        message: "must be the positional params array of the JSON-RPC call",
      });
    }
    return c;
  });
  file.cases.forEach((raw, i) => {
    const other = raw.sameAnswerAs?.case;
    if (other === undefined || (seen.has(other) && other !== raw.id)) return;
    problems.push({
      file: displayName,
      line: located.lineOf(["cases", i, "sameAnswerAs", "case"]),
      field: `cases[${i}].sameAnswerAs.case`,
      message: other === raw.id ? "a case cannot name itself" : `no case "${other}" in this file`,
    });
  });
  if (problems.length > 0) throw new ProblemsError(problems);
  return cases;
}

function yamlFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** Every case under `root` (the cases/ folder), in file then declaration order. */
export function loadCorpus(root: string, methods: CorpusMethods): Case[] {
  if (!existsSync(root)) throw new ProblemsError([{ file: root, line: 0, field: "", message: "corpus folder not found" }]);
  const problems: Problem[] = [];
  const cases: Case[] = [];
  for (const transport of ["grpc", "jsonrpc"] as const) {
    for (const path of yamlFiles(join(root, transport))) {
      const display = relative(process.cwd(), path) || path;
      try {
        // One at a time: spreading tens of thousands of items into push() overflows the stack.
        for (const c of parseCaseFile(readInput(path, display, INPUT_LIMITS.caseFileBytes, "the case file"), display, transport, methods)) cases.push(c);
      } catch (e) {
        if (e instanceof ProblemsError) for (const p of e.problems) problems.push(p);
        else throw e;
      }
    }
  }
  if (problems.length > 0) throw new ProblemsError(problems);
  return cases;
}
