// Goldens: each build's answers, recorded under golden/<chain>/<build>/<Method>/<case>.json
// with stable names and a layout that reads well in a git diff (one message per line
// pair: its exact bytes as hex, and its decoded JSON). Written atomically.

import { INPUT_LIMITS, readInput } from "../../core/io/input-limits.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { JsonValue } from "@bufbuild/protobuf";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import type { Answer, CaseResult } from "../../core/results/result.js";
import { ORACLE as ORACLE_SIDE } from "../../core/run/judge.js";
import type { Observation } from "../../core/targets/observation.js";

export const GOLDEN_FORMAT = 1;

export interface Golden {
  format: number;
  caseId: string;
  build: string;
  transport: "grpc" | "jsonrpc";
  status: string;
  code: number | null;
  message: string;
  /** Per gRPC message, or the one JSON-RPC body. */
  messages: { hex: string; json?: JsonValue }[];
}

function safe(part: string): string {
  return part.replace(/[^A-Za-z0-9._-]/g, "_");
}

/**
 * A build's folder: its name, a real build's label "lightwalletd v0.5.4 (real)" as
 * "lightwalletd-v0.5.4". Emulated profiles live apart, under "emulated/", so that
 * "zaino 0.10.1 (real)" and the profile "zaino-0.10.1" never share goldens.
 */
export function buildFolder(build: string, emulated = false): string {
  const name = safe(build.replace(/ \(real\)$/, "").replace(/ /g, "-"));
  return emulated ? join("emulated", name) : name;
}

/** golden/<chain>/<build>: the folder of one build's goldens, where RECORDED.json says where they came from. */
export function buildDir(root: string, chain: string, build: string, emulated = false): string {
  return join(root, safe(chain), buildFolder(build, emulated));
}

/** golden/<chain>/<build>/<Method>/<case>.json; case ids are "<Method>/<name>". */
export function goldenPath(root: string, chain: string, build: string, caseId: string, emulated = false): string {
  return join(buildDir(root, chain, build, emulated), ...caseId.split("/").map(safe)) + ".json";
}

export function goldenOf(caseId: string, a: Answer): Golden {
  const json = a.transport === "grpc" && Array.isArray(a.json) ? a.json : a.transport === "grpc" ? [a.json] : [a.json];
  return {
    format: GOLDEN_FORMAT,
    caseId,
    build: a.side,
    transport: a.transport,
    status: a.status,
    code: a.code,
    message: a.message,
    messages: a.hex.map((hex, i) => ({ hex, ...(json[i] !== undefined ? { json: json[i] as JsonValue } : {}) })),
  };
}

/**
 * The answers of a case that goldens keep: every build's, or with `sides` only those
 * sides' ("oracle" for the oracle's own answers to JSON-RPC cases, which are the node's
 * words; its gRPC answers are zconform's derivation and are not kept).
 */
export function goldenAnswers(c: CaseResult, sides?: ReadonlySet<string>): Answer[] {
  if (!sides) return c.answers;
  return [...c.answers.filter((a) => sides.has(a.side)), ...(sides.has(ORACLE_SIDE) && c.transport === "jsonrpc" && c.oracle ? [c.oracle] : [])];
}

export function writeGolden(path: string, g: Golden): void {
  writeFileAtomic(path, `${JSON.stringify(g, null, 2)}\n`);
}

export function readGolden(path: string): Golden | undefined {
  if (!existsSync(path)) return undefined;
  const g = JSON.parse(readInput(path, path, INPUT_LIMITS.goldenBytes, "the golden")) as Golden;
  if (g.format !== GOLDEN_FORMAT) throw new Error(`${path}: golden format ${g.format}, this zconform reads format ${GOLDEN_FORMAT}`);
  return g;
}

/** The recorded answer as an observation, so the live one can be compared with it. */
export function observationOf(g: Golden, method: string): Observation {
  const timing = { startedAt: 0, totalMs: 0 };
  const bytes = g.messages.map((m) => new Uint8Array(Buffer.from(m.hex, "hex")));
  if (g.transport === "jsonrpc") {
    return { transport: "jsonrpc", method, httpStatus: 200, body: bytes[0] ?? new Uint8Array(), wireBytes: bytes[0]?.length ?? 0, timing };
  }
  return {
    transport: "grpc",
    method,
    code: g.code ?? 0,
    message: g.message,
    messages: bytes,
    headers: {},
    trailers: {},
    wireBytes: bytes.reduce((n, b) => n + b.length, 0),
    timing,
  };
}
