// The data the HTML report embeds: the JSON report's content, made small enough to carry
// in one file (each distinct message — most builds answer most cases alike, and many
// cases share messages — is stored once; very large answers are cut, with a note pointing
// at the JSON report; the whole is gzip-compressed into the page by html.ts), plus what
// only the HTML shows: each ledger entry's title and reference, and reproduce commands.

import type { JsonValue } from "@bufbuild/protobuf";
import type { BuildInfo } from "../results/events.js";
import type { Answer, CaseResult } from "../results/result.js";
import type { QuirkInfo, ReportContext } from "./context.js";
import type { JsonReport } from "./json.js";
import { reproduceCommands, type ReproduceCommand } from "./reproduce.js";
import { withDisplayHashes } from "./hash-view.js";

/** Most hex characters embedded per answer (two per byte). */
export const MAX_HEX_CHARS = 256 * 1024;
/** Most characters of decoded JSON embedded per answer. */
export const MAX_JSON_CHARS = 512 * 1024;

export interface HtmlAnswer extends Omit<Answer, "hex" | "json"> {
  /** Per message, the index into `blobs` of its hex. */
  hex: number[];
  /** The decoded form: per message (a gRPC answer) the index of each message's JSON, else the index of the whole (-1: none). */
  json: number | number[];
  /** Set when not every message or byte is embedded. */
  truncated?: string;
}

export interface HtmlCase extends Omit<CaseResult, "answers" | "oracle" | "otherOracles"> {
  answers: HtmlAnswer[];
  oracle?: HtmlAnswer;
  /** The oracle's answers under older protocol rules, for builds judged under them. */
  otherOracles?: HtmlAnswer[];
  /** Commands that repeat the call, per side ("oracle" for JSON-RPC cases). */
  reproduce: Record<string, ReproduceCommand[]>;
}

/** The run's header fields as in the JSON report, the cases reshaped for the page. */
export interface HtmlData extends Omit<JsonReport, "cases" | "divergences"> {
  quirks: Record<string, QuirkInfo>;
  blobs: JsonValue[];
  cases: HtmlCase[];
}

function cutHex(hex: readonly string[]): { hex: string[]; note?: string } {
  const out: string[] = [];
  let used = 0;
  for (const [i, m] of hex.entries()) {
    if (used + m.length > MAX_HEX_CHARS) {
      const room = Math.max(0, MAX_HEX_CHARS - used) & ~1;
      if (room > 0) out.push(m.slice(0, room));
      const total = hex.reduce((s, x) => s + x.length / 2, 0);
      return { hex: out, note: `${used / 2 + room / 2} of ${total} bytes shown (message ${i + 1} of ${hex.length} cut); the JSON report has every byte` };
    }
    out.push(m);
    used += m.length;
  }
  return { hex: out };
}

function cutJson(json: JsonValue | undefined): { json?: JsonValue; note?: string } {
  if (json === undefined) return {};
  const size = JSON.stringify(json).length;
  if (size <= MAX_JSON_CHARS) return { json };
  if (Array.isArray(json)) {
    const kept: JsonValue[] = [];
    let used = 2;
    for (const m of json) {
      const n = JSON.stringify(m).length + 1;
      if (used + n > MAX_JSON_CHARS) break;
      kept.push(m);
      used += n;
    }
    return { json: kept, note: `${kept.length} of ${json.length} decoded messages shown` };
  }
  return { note: `decoded form (${size} characters) left out; the JSON report has it` };
}

/** Longest string, and longest list, embedded in requests, divergence values and patches. */
const MAX_STRING = 2048;
const MAX_ITEMS = 200;

/** A value for display: long strings and lists cut, with what was left out said in place. */
export function clip(v: JsonValue | undefined): JsonValue | undefined {
  if (typeof v === "string") return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}… (${v.length - MAX_STRING} more characters)` : v;
  if (Array.isArray(v)) {
    const kept = v.slice(0, MAX_ITEMS).map((x) => clip(x) ?? null);
    return v.length > MAX_ITEMS ? [...kept, `… ${v.length - MAX_ITEMS} more items`] : kept;
  }
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clip(x) ?? null]));
  return v;
}

/** Stores each distinct value once and hands out its index. */
function blobStore(): { put(v: JsonValue | undefined): number; blobs: JsonValue[] } {
  const index = new Map<string, number>();
  const blobs: JsonValue[] = [];
  return {
    blobs,
    put(v) {
      if (v === undefined) return -1;
      const key = JSON.stringify(v);
      let i = index.get(key);
      if (i === undefined) {
        i = blobs.length;
        blobs.push(v);
        index.set(key, i);
      }
      return i;
    },
  };
}

function reproduceFor(r: CaseResult, builds: ReadonlyMap<string, BuildInfo>, oracle: string | null, ctx: ReportContext): Record<string, ReproduceCommand[]> {
  const out: Record<string, ReproduceCommand[]> = {};
  const sides = r.answers.map((a) => a.side);
  for (const side of sides) {
    const b = builds.get(side);
    const url = r.transport === "grpc" ? b?.grpc : b?.jsonrpc;
    const auth = ctx.auth?.[side]?.[r.transport];
    out[side] = reproduceCommands({ transport: r.transport, method: r.method, request: r.request, url, ...(auth ? { auth } : {}) });
  }
  // The oracle answers JSON-RPC cases itself; gRPC answers are derived from several calls.
  if (r.transport === "jsonrpc" && r.oracle && oracle) {
    const auth = ctx.auth?.oracle?.jsonrpc;
    out.oracle = reproduceCommands({ transport: "jsonrpc", method: r.method, request: r.request, url: oracle, ...(auth ? { auth } : {}) });
  }
  return out;
}

export function htmlDataFrom(report: JsonReport, ctx: ReportContext = {}): HtmlData {
  const store = blobStore();
  const builds = new Map(report.builds.map((b) => [b.name, b]));
  const hashFields = new Set(ctx.hashFields ?? []);
  const answer = (a: Answer): HtmlAnswer => {
    const { hex, json, ...rest } = a;
    const h = cutHex(hex);
    const j = cutJson(a.transport === "grpc" && json !== undefined ? withDisplayHashes(json, hashFields) : json);
    const notes = [h.note, j.note].filter((n): n is string => n !== undefined);
    const decoded = Array.isArray(j.json) && a.transport === "grpc" ? j.json.map((m) => store.put(m)) : store.put(j.json);
    return { ...rest, hex: h.hex.map((m) => store.put(m)), json: decoded, ...(notes.length > 0 ? { truncated: notes.join("; ") } : {}) };
  };
  const cases = report.cases.map((r): HtmlCase => {
    const { answers, oracle, otherOracles, request, divergences, patches, ...rest } = r;
    return {
      ...rest,
      ...(request !== undefined ? { request: clip(request)! } : {}),
      divergences: divergences.map((d) => ({
        ...d,
        ...(d.leftValue !== undefined ? { leftValue: clip(d.leftValue)! } : {}),
        ...(d.rightValue !== undefined ? { rightValue: clip(d.rightValue)! } : {}),
      })),
      patches: patches.map((p) => ({
        ...p,
        ops: p.ops.map((o) => ({ ...o, ...(o.value !== undefined ? { value: clip(o.value)! } : {}), ...(o.old !== undefined ? { old: clip(o.old)! } : {}) })),
      })),
      answers: answers.map(answer),
      ...(oracle ? { oracle: answer(oracle) } : {}),
      ...(otherOracles ? { otherOracles: otherOracles.map(answer) } : {}),
      // From the whole request: the commands must send what the case sent.
      reproduce: reproduceFor(r, builds, report.oracle, ctx),
    };
  });
  return {
    kind: report.kind,
    tool: report.tool,
    schemaVersion: report.schemaVersion,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    partial: report.partial,
    interrupted: report.interrupted,
    exitCode: report.exitCode,
    chain: report.chain,
    oracle: report.oracle,
    conditions: report.conditions,
    shard: report.shard,
    builds: report.builds,
    summary: report.summary,
    quirks: Object.fromEntries((ctx.quirks ?? []).map((q) => [q.id, q])),
    blobs: store.blobs,
    cases,
  };
}
