// The JSON report as a file. The same bytes come back again and again — most builds
// answer most cases alike, and many cases share an answer (a transaction asked for by
// txid, by address, in a range) — so the file stores each answer's body once:
// - an answer identical to one given earlier in the same case (the oracle's first, then
//   the other oracle answers, then the builds' in config order) is written as
//   `sameAs: <side>` instead of repeating its bytes and decoded form;
// - any other answer whose body (hex, decoded form, elision) is 1 KiB or more as JSON is
//   written as `body: <key>`, the key of that body in the top-level `bodies`, where each
//   distinct body is written once for the whole report;
// - a request of more than 64 KiB as JSON (a 2 MB transaction of zeros, ten thousand
//   addresses) is written gzip-compressed, as `requestGzip` (base64), in place of `request`.
// readJsonReport puts them all back. Written compact, atomically.

import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { JsonValue } from "@bufbuild/protobuf";
import { writeFileAtomicParts } from "../io/atomic-write.js";
import { INPUT_LIMITS, readInputText } from "../io/input-limits.js";
import { jsonParts } from "./json-parts.js";
import type { Answer, CaseResult } from "../results/result.js";
import type { JsonReport } from "./json.js";

/** Bodies this long as JSON, or longer, are stored once per report. */
export const SHARED_BODY_CHARS = 1024;
/** Requests longer than this as JSON are stored compressed. */
export const GZIP_REQUEST_CHARS = 64 * 1024;

type Body = Pick<Answer, "hex" | "json" | "elided">;
type Head = Omit<Answer, "hex" | "json" | "elided">;

/** An answer as the file holds it: its bytes, the side whose identical answer has them, or the key of its body in `bodies`. */
export type FileAnswer = Answer | (Head & { sameAs: string }) | (Head & { body: string });

export type FileCase = Omit<CaseResult, "answers" | "oracle" | "otherOracles" | "request"> & {
  answers: FileAnswer[];
  oracle?: FileAnswer;
  otherOracles?: FileAnswer[];
  request?: JsonValue;
  /** The request as gzip-compressed JSON, base64, when it is too long to write as it is. */
  requestGzip?: string;
};

export type JsonReportFile = Omit<JsonReport, "cases"> & { cases: FileCase[]; bodies?: Record<string, Body> };

function split(a: Answer): { head: Head; body: Body } {
  const { hex, json, elided, ...head } = a;
  return { head, body: { hex, ...(elided ? { elided } : {}), ...(json !== undefined ? { json } : {}) } };
}

/** The report with its answers' bodies shared and its long requests compressed; `bodies` holds what the answers refer to. */
export function compactReport(r: JsonReport): JsonReportFile {
  const bodies: Record<string, Body> = {};
  const compactCase = (c: CaseResult): FileCase => {
    const seen = new Map<string, string>();
    const one = (a: Answer): FileAnswer => {
      const { head, body } = split(a);
      const text = JSON.stringify(body);
      // sameAs says the whole answer is the same, status and message included.
      const same = JSON.stringify([a.transport, a.status, a.code, a.message, text]);
      const first = seen.get(same);
      if (first !== undefined) return { ...head, sameAs: first };
      seen.set(same, a.side);
      if (text.length < SHARED_BODY_CHARS) return a;
      const key = createHash("sha256").update(text).digest("hex");
      bodies[key] ??= body;
      return { ...head, body: key };
    };
    const { oracle, otherOracles, answers, request, ...rest } = c;
    const o = oracle ? one(oracle) : undefined;
    const others = otherOracles?.map(one);
    const requestText = request === undefined ? "" : JSON.stringify(request);
    return {
      ...rest,
      ...(request === undefined ? {} : requestText.length > GZIP_REQUEST_CHARS ? { requestGzip: gzipSync(requestText).toString("base64") } : { request }),
      ...(o ? { oracle: o } : {}),
      ...(others ? { otherOracles: others } : {}),
      answers: answers.map(one),
    };
  };
  const cases = r.cases.map(compactCase);
  return { ...r, cases, bodies };
}

function expandCase(c: FileCase, bodies: Readonly<Record<string, Body>>, where: string): CaseResult {
  const full = new Map<string, Answer>();
  const one = (a: FileAnswer): Answer => {
    let out: Answer;
    if ("sameAs" in a) {
      const { sameAs, ...head } = a;
      const src = full.get(sameAs);
      if (!src) throw new Error(`${where}: case ${c.caseId}: answer of ${a.side} refers to ${sameAs}, which has no bytes before it`);
      out = { ...head, ...split(src).body };
    } else if ("body" in a) {
      const { body, ...head } = a;
      const b = bodies[body];
      if (!b) throw new Error(`${where}: case ${c.caseId}: answer of ${a.side} refers to body ${body}, which the report does not hold`);
      out = { ...head, ...b };
    } else out = a;
    full.set(out.side, out);
    return out;
  };
  const { oracle: fileOracle, otherOracles: fileOthers, answers, requestGzip, ...rest } = c;
  const oracle = fileOracle ? one(fileOracle) : undefined;
  const otherOracles = fileOthers?.map(one);
  return {
    ...rest,
    ...(requestGzip !== undefined ? { request: JSON.parse(gunzipSync(Buffer.from(requestGzip, "base64")).toString("utf8")) as JsonValue } : {}),
    ...(oracle ? { oracle } : {}),
    ...(otherOracles ? { otherOracles } : {}),
    answers: answers.map(one),
  };
}

export function expandReport(r: JsonReportFile, where = "report"): JsonReport {
  const { bodies = {}, cases, ...rest } = r;
  return { ...rest, cases: cases.map((c) => expandCase(c, bodies, where)) };
}

/** Written part by part (each case, divergence and body on its own): a report's size is limited by the disk, not by one string. */
export function writeJsonReport(path: string, r: JsonReport): void {
  const doc = compactReport(r);
  writeFileAtomicParts(
    path,
    (function* () {
      yield* jsonParts(doc as unknown as Record<string, unknown>, ["cases", "divergences", "bodies"]);
      yield "\n";
    })(),
  );
}

/** A report file as written (shared bodies not put back); refused by its size before it is read. */
export function readJsonReportFile(path: string): JsonReportFile {
  return JSON.parse(readInputText(path, INPUT_LIMITS.reportBytes, "the JSON report")) as JsonReportFile;
}

/** Reads a report file (any zconform version with the same schemaVersion) with every answer in full. */
export function readJsonReport(path: string): JsonReport {
  return expandReport(readJsonReportFile(path), path);
}
