// The JSON report as a file. Most builds answer most cases with the same bytes, so an
// answer identical to one given earlier in the same case (the oracle's first, then the
// builds' in config order) is written as `sameAs: <side>` instead of repeating its bytes
// and decoded form; readJsonReport puts them back. Written compact, atomically.

import { readFileSync } from "node:fs";
import { writeFileAtomicParts } from "../io/atomic-write.js";
import { jsonParts } from "./json-parts.js";
import type { Answer, CaseResult } from "../results/result.js";
import type { JsonReport } from "./json.js";

/** An answer as the file holds it: its bytes, or the side whose identical answer has them. */
export type FileAnswer = Answer | (Omit<Answer, "hex" | "json" | "elided"> & { sameAs: string });

export type FileCase = Omit<CaseResult, "answers" | "oracle"> & { answers: FileAnswer[]; oracle?: FileAnswer };

export type JsonReportFile = Omit<JsonReport, "cases"> & { cases: FileCase[] };

function key(a: Answer): string {
  return JSON.stringify([a.transport, a.status, a.code, a.message, a.hex, a.elided?.sha256]);
}

function compactCase(c: CaseResult): FileCase {
  const seen = new Map<string, string>();
  const one = (a: Answer): FileAnswer => {
    const k = key(a);
    const first = seen.get(k);
    if (first === undefined) {
      seen.set(k, a.side);
      return a;
    }
    const { hex: _hex, json: _json, elided: _elided, ...rest } = a;
    return { ...rest, sameAs: first };
  };
  const oracle = c.oracle ? one(c.oracle) : undefined;
  return { ...c, ...(oracle ? { oracle } : {}), answers: c.answers.map(one) };
}

export function compactReport(r: JsonReport): JsonReportFile {
  return { ...r, cases: r.cases.map(compactCase) };
}

function expandCase(c: FileCase, where: string): CaseResult {
  const full = new Map<string, Answer>();
  const one = (a: FileAnswer): Answer => {
    if (!("sameAs" in a)) {
      full.set(a.side, a);
      return a;
    }
    const src = full.get(a.sameAs);
    if (!src) throw new Error(`${where}: case ${c.caseId}: answer of ${a.side} refers to ${a.sameAs}, which has no bytes before it`);
    const { sameAs: _s, ...rest } = a;
    return { ...rest, hex: src.hex, ...(src.elided ? { elided: src.elided } : {}), ...(src.json !== undefined ? { json: src.json } : {}) };
  };
  const { oracle: fileOracle, answers, ...rest } = c;
  const oracle = fileOracle ? one(fileOracle) : undefined;
  return { ...rest, ...(oracle ? { oracle } : {}), answers: answers.map(one) };
}

export function expandReport(r: JsonReportFile, where = "report"): JsonReport {
  return { ...r, cases: r.cases.map((c) => expandCase(c, where)) };
}

/** Written case by case: a report's size is limited by the disk, not by one string. */
export function writeJsonReport(path: string, r: JsonReport): void {
  const doc = { ...r, cases: r.cases.map(compactCase) };
  writeFileAtomicParts(path, (function* () {
    yield* jsonParts(doc, ["cases", "divergences"]);
    yield "\n";
  })());
}

/** Reads a report file (any zconform version with the same schemaVersion) with every answer in full. */
export function readJsonReport(path: string): JsonReport {
  const doc = JSON.parse(readFileSync(path, "utf8")) as JsonReportFile;
  return expandReport(doc, path);
}
