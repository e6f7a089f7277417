// Canonical form of a JSON-RPC answer: the bytes compared, the body read as JSON text
// (json-tree.ts), and the split into result / error.
//
// The bytes of a JSON-RPC answer are its members as the server sent them: every member of
// the body but the envelope's `jsonrpc` and `id` (so `result`, or `error`, and zcashd's
// `"error": null` beside a result), each as its raw value text with the case's volatile
// paths cut out of it (json-cut.ts: nothing else is re-encoded), in the order of their
// names. The envelope is not the answer: its `jsonrpc` and `id` members, the order and
// spacing of the top-level members and the escapes in their names are left out, since
// every client reads them alike and the id is checked when the answer arrives. Inside a
// member every byte counts: `300` and `300.0` are different answers (a serde `u32` client
// rejects the second), and so are two answers that repeat a key. Whether such a
// difference is only one of encoding or one of value is the comparison's to say
// (diff/compare-json.ts); a body that is not JSON is compared as bytes.

import type { JsonValue } from "@bufbuild/protobuf";
import type { Fault, JsonRpcObservation } from "../targets/observation.js";
import { findCuts, findUnorderedKeys, keptText } from "./json-cut.js";
import { kindOf, NULL, OBJECT, readError, readJson, type JsonTree } from "../io/json-tree.js";
import { keptMembers, lastMember, shownValue, stringValue, type CutNodes } from "../io/json-values.js";
import { parseVolatile, type Exclusion } from "./volatile.js";

export type JsonRpcOutcome =
  | { kind: "result" }
  | { kind: "error"; code: JsonValue; message: JsonValue; data?: JsonValue }
  /** A JSON body with neither a result nor an error member. */
  | { kind: "none" };

/** One member of the answer: its name and the nodes of its key and value. */
export interface AnswerMember {
  name: string;
  key: number;
  value: number;
}

export interface JsonRpcCanonical {
  transport: "jsonrpc";
  method: string;
  httpStatus: number;
  fault?: Fault;
  /** The body exactly as received. */
  raw: Uint8Array;
  /** The body read as JSON text; absent when it is not JSON (see notJson). */
  tree?: JsonTree;
  /** The answer's members (the body's, less the envelope and what was cut), in name
   * order; absent when the body is not a JSON object, whose whole value is then the answer. */
  members?: AnswerMember[];
  /** Value nodes the volatile paths cut, and the containers holding one (or an object of `unorderedKeys`). */
  cut: CutNodes;
  dirty: CutNodes;
  /** Objects the case declares a server sends the members of in no fixed order (their key order is not compared). */
  unorderedKeys: CutNodes;
  /** The body as JSON after volatile removal, for reports; made when first read. */
  readonly body?: JsonValue;
  /** Why the body is not (comparable) JSON: it is kept and compared as bytes. */
  notJson?: string;
  /** What is compared: the answer's members (see above), or `raw` when not JSON. */
  compared: Uint8Array;
  outcome: JsonRpcOutcome;
  volatile: readonly string[];
  excluded: Exclusion[];
}

/**
 * Containers nested deeper are not read as JSON: the body is compared as bytes. Real
 * answers nest fewer than ten levels, serde_json (Zebra, Zaino) refuses to read past 128,
 * and the reader keeps no nodes below this depth, so an answer nested millions of levels
 * costs a byte per level while it is checked.
 */
export const MAX_JSON_DEPTH = 256;

const ENVELOPE = new Set(["jsonrpc", "id"]);
/** Values an error's code, message and data show (see shownValue). */
const SHOWN_VALUES = 1000;
const NOTHING: CutNodes = new Set();
const enc = new TextEncoder();

export interface JsonRpcCanonOptions {
  volatile?: readonly string[];
  /**
   * Objects whose members a server sends in an order of its own making (a hash map's):
   * their members are compared in the order of their names, every member's bytes as sent.
   */
  unorderedKeys?: readonly string[];
}

export function canonJsonRpc(obs: JsonRpcObservation, options: JsonRpcCanonOptions = {}): JsonRpcCanonical {
  const declared = options.volatile ?? [];
  const patterns = parseVolatile(declared);
  const orderFree = parseVolatile(options.unorderedKeys ?? []);
  const base = { transport: "jsonrpc" as const, method: obs.method, httpStatus: obs.httpStatus, fault: obs.fault, raw: obs.body, volatile: declared };
  const read = readJson(obs.body, MAX_JSON_DEPTH);
  const asBytes = (notJson: string, why: string): JsonRpcCanonical => {
    const excluded = patterns.map((p) => ({ pattern: p.text, path: "", note: `not applied: ${why}` }));
    return { ...base, notJson, compared: obs.body, outcome: { kind: "none" }, excluded, cut: NOTHING, dirty: NOTHING, unorderedKeys: NOTHING };
  };
  if (!read.ok) return asBytes(obs.body.length === 0 ? "empty body" : readError(read), "the body is not JSON");
  if (read.tree.deep) return asBytes(`JSON nested deeper than ${MAX_JSON_DEPTH} levels (compared as bytes)`, "the body is nested too deep to compare as JSON");
  const tree = read.tree;
  const { cut, dirty: cutHolders, excluded } = findCuts(tree, 0, patterns);
  const unordered = findUnorderedKeys(tree, 0, orderFree, cut);
  const dirty = unordered.objects.size === 0 ? cutHolders : new Set([...cutHolders, ...unordered.holders, ...unordered.objects]);
  const members = kindOf(tree, 0) === OBJECT ? answerMembers(tree, cut) : undefined;
  const parts: Uint8Array[] = [];
  if (members) {
    members.forEach((m, k) => {
      parts.push(enc.encode(`${k > 0 ? "," : ""}${JSON.stringify(m.name)}:`));
      keptText(tree, m.value, { cut, dirty, unordered: unordered.objects }, parts);
    });
  } else {
    keptText(tree, 0, { cut, dirty, unordered: unordered.objects }, parts);
  }
  let shown: JsonValue | undefined;
  return {
    ...base,
    tree,
    cut,
    dirty,
    unorderedKeys: unordered.objects,
    excluded,
    compared: parts.length === 1 ? parts[0]! : Buffer.concat(parts),
    outcome: outcomeOf(tree, members, cut),
    ...(members ? { members } : {}),
    // Made when a report asks: above the inline size a report keeps no JSON of an answer.
    get body(): JsonValue {
      shown ??= shownValue(tree, 0, cut);
      return shown;
    },
  };
}

function answerMembers(t: JsonTree, cut: CutNodes): AnswerMember[] {
  const out = keptMembers(t, 0, cut)
    .map((m) => ({ name: stringValue(t, m.key), ...m }))
    .filter((m) => !ENVELOPE.has(m.name));
  // Stable: a repeated name keeps the order sent.
  return out.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/** An error member that is present and not null wins; zcashd sends `"error": null` on success. */
function outcomeOf(t: JsonTree, members: readonly AnswerMember[] | undefined, cut: CutNodes): JsonRpcOutcome {
  if (!members) return { kind: "none" };
  // What a last-wins reader (JSON.parse, serde_json's Value) takes; at most SHOWN_VALUES values of each part.
  const shown = (v: number) => shownValue(t, v, cut, { left: SHOWN_VALUES });
  const err = lastMember(t, 0, "error", cut);
  if (err !== undefined && kindOf(t, err) !== NULL) {
    if (kindOf(t, err) !== OBJECT) return { kind: "error", code: null, message: shown(err) };
    const field = (name: string) => {
      const v = lastMember(t, err, name, cut);
      return v === undefined ? undefined : shown(v);
    };
    const data = field("data");
    return { kind: "error", code: field("code") ?? null, message: field("message") ?? null, ...(data !== undefined ? { data } : {}) };
  }
  if (members.some((m) => m.name === "result")) return { kind: "result" };
  return { kind: "none" };
}
