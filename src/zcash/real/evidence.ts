// What a committed golden or report holds at a field path: the one reader of the evidence
// behind what the ledger (and the published comparison) say a real server answered. A
// golden's gRPC messages are decoded from their recorded bytes, not read from the JSON
// beside them, which leaves out the fields a case declared volatile (LightdInfo's
// versions), so a path reads what the server sent.

import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, normalize } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import { messageJson } from "../../core/canon/grpc-json.js";
import { parsePath, type Segment } from "../../core/canon/paths.js";
import type { Evidence } from "../../core/ledger/quirk.js";
import { rpcOf } from "../../core/run/plan.js";
import { CompactTxStreamer } from "../gen/walletrpc/service_pb.js";

export type Found = { value: unknown } | { problem: string };

/** A golden as this reader needs it (the recorder's format, src/modes/golden/store.ts). */
interface RecordedAnswer {
  caseId: string;
  transport: "grpc" | "jsonrpc";
  status: string;
  message: string;
  messages: { hex: string }[];
}

function walk(value: unknown, segs: readonly Segment[]): Found {
  let at = value;
  for (const s of segs) {
    if (s.kind === "field" && at !== null && typeof at === "object" && !Array.isArray(at) && s.name in at) at = (at as Record<string, unknown>)[s.name];
    else if (s.kind === "index" && Array.isArray(at) && s.index < at.length) at = at[s.index];
    else return { problem: `has nothing at ${s.kind === "field" ? s.name : s.kind === "index" ? `[${s.index}]` : s.kind}` };
  }
  return { value: at };
}

function isGolden(doc: unknown): doc is RecordedAnswer {
  return doc !== null && typeof doc === "object" && "format" in doc && "caseId" in doc && Array.isArray((doc as { messages?: unknown }).messages);
}

/** A golden's answer at a path: the status, a JSON-RPC body, or gRPC messages as decoded from their bytes. */
function inGolden(g: RecordedAnswer, segs: readonly Segment[]): Found {
  const [first, second] = segs;
  if (first?.kind === "field" && first.name === "status" && second?.kind === "field" && segs.length === 2) {
    if (second.name === "code") return { value: g.status };
    if (second.name === "message") return { value: g.message };
  }
  const bytes = g.messages.map((m) => Buffer.from(m.hex, "hex"));
  if (g.transport === "jsonrpc") return walk(JSON.parse(bytes[0]?.toString("utf8") ?? "null"), segs);
  const rpc = rpcOf({ service: CompactTxStreamer }, g.caseId.split("/")[0]!);
  if (!rpc) return { problem: `names no rpc of the protocol (${g.caseId})` };
  const messages = bytes.map((b) => messageJson(rpc.output, fromBinary(rpc.output, b)).json);
  if (segs.length === 0 || first?.kind === "index") return walk(messages, segs);
  if (messages.length !== 1) return { problem: `is a stream of ${messages.length} messages: start the path with the message's index ([0]…)` };
  return walk(messages[0], segs);
}

/**
 * What a JSON file's text holds at a path: in a golden, the recorded answer (`status.code`,
 * `[5].vtx[0].vin` into a stream, `""` the whole stream, `result` of a JSON-RPC body); in
 * another JSON document, the document itself.
 */
export function valueAt(text: string, path: string): Found {
  const doc = JSON.parse(text) as unknown;
  return isGolden(doc) ? inGolden(doc, parsePath(path)) : walk(doc, parsePath(path));
}

/** What is wrong with one evidence item, or undefined when its file (under root) holds what it says. */
export function evidenceProblem(e: Evidence, root: string): string | undefined {
  const where = `${e.file}${e.path !== undefined ? ` at ${JSON.stringify(e.path)}` : ""}`;
  if (isAbsolute(e.file) || normalize(e.file).startsWith("..")) return `${where}: is outside the repository, so it is not committed with it`;
  const path = join(root, e.file);
  if (!existsSync(path)) return `${where}: no such file`;
  const text = readFileSync(path, "utf8");
  let found: Found = { value: text };
  if (e.path !== undefined) {
    if (!e.file.endsWith(".json")) return `${where}: a path reads a JSON file (a golden or a JSON report); quote text with holds and no path`;
    found = valueAt(text, e.path);
  }
  if ("problem" in found) return `${where}: ${found.problem}`;
  const v = found.value;
  if (e.length !== undefined && !(Array.isArray(v) && v.length === e.length))
    return `${where}: holds ${Array.isArray(v) ? `${v.length} items` : JSON.stringify(v)}, not ${e.length} items`;
  if (e.holds !== undefined && !(typeof v === "string" && v.includes(e.holds))) return `${where}: does not hold ${JSON.stringify(e.holds)}`;
  if ("equals" in e && !isDeepStrictEqual(v, e.equals)) return `${where}: holds ${JSON.stringify(v)}, not ${JSON.stringify(e.equals)}`;
  return undefined;
}
