// Loads scenarios: cases/scenarios/<id>.yaml. Every problem is collected and reported
// with file, line and field, as the corpus loader does, with the nearest known name for a
// misspelt field, rpc, method, corpus case, transaction or stream.

import { readdirSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { Ajv } from "ajv";
import type { Case, Expectation } from "../corpus/case.js";
import type { CorpusMethods } from "../corpus/load.js";
import { hintFor } from "../io/did-you-mean.js";
import { INPUT_LIMITS, readInput } from "../io/input-limits.js";
import { fieldName, parseLocated, ProblemsError, type Located, type PathPart, type Problem } from "../io/located-yaml.js";
import { schemaProblems, validatorOnFirstUse } from "../io/schema-problems.js";
import { scenarioCaseId, type Action, type Check, type Scenario, type Step } from "./scenario.js";
import { ACTION_KEYS, scenarioFileSchema } from "./schema.js";

/** What a scenario may refer to: the protocol's methods and the corpus's cases. */
export interface ScenarioContext {
  methods: CorpusMethods;
  corpus: readonly Case[];
}

/** A check's deadline when neither it nor its scenario says otherwise. */
export const DEFAULT_CONVERGE_MS = 5_000;

const validate = validatorOnFirstUse(() => new Ajv({ allErrors: true, strict: false }).compile(scenarioFileSchema));

type RawExpect = "agree" | "oracle" | "ok" | { error: (string | number)[] };
interface RawCall {
  case?: string;
  id?: string;
  title?: string;
  rpc?: string;
  method?: string;
  request?: unknown;
  expect?: RawExpect;
  volatile?: string[];
  wallClock?: string[];
  unordered?: boolean;
  deadlineMs?: number;
  stream?: string;
}
interface RawStep {
  title?: string;
  mine?: number | { blocks: number; everyMs?: number };
  send?: string | string[];
  reorg?: number | { depth: number; include?: string[] };
  wait?: { ms?: number; until?: "tip"; deadlineMs?: number };
  open?: RawCall & { stream: string; pauseAfter?: number };
  read?: string | { stream: string; deadlineMs?: number };
  close?: string;
  checks?: RawCall[];
}
interface RawScenario {
  id: string;
  title?: string;
  description?: string;
  tags?: string[];
  convergeMs?: number;
  steps: RawStep[];
}

function toExpectation(raw: RawExpect | undefined): Expectation {
  if (raw === undefined || raw === "oracle") return { kind: "oracle" };
  if (raw === "agree" || raw === "ok") return { kind: raw };
  return { kind: "error", codes: raw.error };
}

/** Reads one scenario file; `displayName` is the path shown in problems. */
export function parseScenarioFile(text: string, displayName: string, ctx: ScenarioContext): Scenario {
  const located = parseLocated(text, displayName);
  const schema = schemaProblems(validate(), located);
  if (schema.length > 0) throw new ProblemsError(schema);
  const raw = located.value as RawScenario;
  const problems: Problem[] = [];
  const at = (path: readonly PathPart[], message: string) => problems.push({ file: displayName, line: located.lineOf(path), field: fieldName(path), message });
  const stem = basename(displayName).replace(/\.ya?ml$/, "");
  if (stem !== raw.id) at(["id"], `must equal the file name ("${stem}")`);
  const convergeMs = raw.convergeMs ?? DEFAULT_CONVERGE_MS;
  const calls = callReader(ctx, raw.id, located, at);
  const names = nameBook(at);
  const steps = raw.steps.map((s, i): Step => {
    const path = ["steps", i];
    const actions = ACTION_KEYS.filter((k) => s[k] !== undefined);
    if (actions.length !== 1)
      at(path, actions.length === 0 ? `needs one action: ${ACTION_KEYS.join(", ")}` : `has ${actions.join(" and ")}: one action per step`);
    const action = actionOf(s, [...path, actions[0] ?? "mine"], convergeMs, calls, names);
    const seen = new Set<string>();
    const checks = (s.checks ?? []).flatMap((c, j) => {
      const check = c.stream !== undefined ? names.heldCheck(c, [...path, "checks", j], convergeMs) : calls.check(c, [...path, "checks", j], convergeMs);
      if (check === undefined) return [];
      if (seen.has(check.id)) at([...path, "checks", j], `check "${check.id}" twice in one step`);
      seen.add(check.id);
      return [check];
    });
    return { index: i + 1, ...(s.title !== undefined ? { title: s.title } : {}), action, checks, source: { file: displayName, line: located.lineOf(path) } };
  });
  names.unfinished();
  if (problems.length > 0) throw new ProblemsError(problems);
  return {
    id: raw.id,
    ...(raw.title !== undefined ? { title: raw.title } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    tags: raw.tags ?? [],
    convergeMs,
    steps,
    source: { file: displayName, line: 1 },
  };
}

type At = (path: readonly PathPart[], message: string) => void;

function actionOf(s: RawStep, path: PathPart[], convergeMs: number, calls: ReturnType<typeof callReader>, names: ReturnType<typeof nameBook>): Action {
  if (s.mine !== undefined)
    return typeof s.mine === "number" ? { kind: "mine", blocks: s.mine, everyMs: 0 } : { kind: "mine", blocks: s.mine.blocks, everyMs: s.mine.everyMs ?? 0 };
  if (s.send !== undefined) {
    const txs = typeof s.send === "string" ? [s.send] : s.send;
    txs.forEach((tx, i) => names.sent(tx, typeof s.send === "string" ? path : [...path, i]));
    return { kind: "send", txs };
  }
  if (s.reorg !== undefined) {
    const r = typeof s.reorg === "number" ? { depth: s.reorg, include: [] } : { depth: s.reorg.depth, include: s.reorg.include ?? [] };
    r.include.forEach((tx, i) => names.knownTx(tx, [...path, "include", i]));
    return { kind: "reorg", ...r };
  }
  if (s.wait !== undefined) {
    if ((s.wait.ms === undefined) === (s.wait.until === undefined)) names.at(path, "needs either ms or until");
    if (s.wait.until === "tip") return { kind: "wait-tip", deadlineMs: s.wait.deadlineMs ?? convergeMs };
    return { kind: "wait", ms: s.wait.ms ?? 0 };
  }
  if (s.open !== undefined) {
    const { stream, pauseAfter, ...call } = s.open;
    const check = calls.check({ id: stream, ...call }, path, convergeMs, "stream");
    names.opened(stream, [...path, "stream"], check);
    // Without a check the call had problems, which end the load before anything runs.
    return { kind: "open", stream, ...(pauseAfter !== undefined ? { pauseAfter } : {}), check: check! };
  }
  if (s.read !== undefined) {
    const r = typeof s.read === "string" ? { stream: s.read } : s.read;
    names.ended(r.stream, typeof s.read === "string" ? path : [...path, "stream"]);
    return { kind: "read", stream: r.stream, deadlineMs: r.deadlineMs ?? convergeMs };
  }
  if (s.close !== undefined) {
    names.ended(s.close, path);
    return { kind: "close", stream: s.close };
  }
  return { kind: "wait", ms: 0 };
}

/** The transactions and held streams a scenario names, checked as the steps use them. */
function nameBook(at: At) {
  const txs = new Set<string>();
  const open = new Map<string, { path: readonly PathPart[]; check: Check | undefined }>();
  const ever = new Set<string>();
  return {
    at,
    /** A check of what a held stream has carried so far: the stream's own call, with this check's deadline. */
    heldCheck(raw: RawCall, path: readonly PathPart[], convergeMs: number): Check | undefined {
      const stream = raw.stream!;
      const extra = Object.keys(raw).filter((k) => k !== "stream" && k !== "deadlineMs");
      if (extra.length > 0) at([...path, extra[0]!], `a check of a held stream takes its call from the stream's open step`);
      const held = open.get(stream);
      if (!held) {
        at([...path, "stream"], `no stream "${stream}" is open at this step${hintFor(stream, ever)}`);
        return undefined;
      }
      return held.check && { ...held.check, id: `${stream} so far`, stream, deadlineMs: raw.deadlineMs ?? convergeMs };
    },
    sent(tx: string, path: readonly PathPart[]) {
      if (txs.has(tx)) at(path, `transaction "${tx}" is sent twice; give each its own name`);
      txs.add(tx);
    },
    knownTx(tx: string, path: readonly PathPart[]) {
      if (!txs.has(tx)) at(path, `no transaction "${tx}" was sent before this step${hintFor(tx, txs)}`);
    },
    opened(stream: string, path: readonly PathPart[], check: Check | undefined) {
      if (open.has(stream)) at(path, `stream "${stream}" is already open`);
      open.set(stream, { path, check });
      ever.add(stream);
    },
    ended(stream: string, path: readonly PathPart[]) {
      if (!open.delete(stream)) at(path, `no stream "${stream}" is open at this step${hintFor(stream, ever)}`);
    },
    unfinished() {
      for (const [stream, { path }] of open) at(path, `stream "${stream}" is never read or closed`);
    },
  };
}

/** Turns a check as written into a Check: a corpus case by id, or the scenario's own case. */
function callReader(ctx: ScenarioContext, scenario: string, located: Located, at: At) {
  const byId = new Map(ctx.corpus.map((c) => [c.id, c]));
  const rpcs = ctx.methods.service.methods;
  return {
    check(raw: RawCall, path: PathPart[], convergeMs: number, what = "check"): Check | undefined {
      const source = { file: located.file, line: located.lineOf(path) };
      const deadlineMs = raw.deadlineMs ?? convergeMs;
      const own = (["rpc", "method", "request", "expect", "volatile", "wallClock", "unordered", "title"] as const).filter((k) => raw[k] !== undefined);
      if (raw.case !== undefined) {
        if (own.length > 0) at([...path, own[0]!], `a ${what} that names a corpus case takes its ${own.join(", ")} from that case`);
        const c = byId.get(raw.case);
        if (!c) {
          at([...path, "case"], `no corpus case "${raw.case}"${hintFor(raw.case, byId.keys())}`);
          return undefined;
        }
        if (what === "stream" && !serverStreaming(ctx, c.method))
          at([...path, "case"], `${c.method} is not a gRPC server stream: only a stream can be held open`);
        return { id: raw.id ?? c.id, case: c, deadlineMs, source };
      }
      if (raw.id === undefined) {
        at(path, `a ${what} needs either case (a corpus case) or id with rpc or method`);
        return undefined;
      }
      if ((raw.rpc === undefined) === (raw.method === undefined)) {
        at(path, `a ${what} names either rpc (gRPC) or method (JSON-RPC)`);
        return undefined;
      }
      const transport = raw.rpc !== undefined ? ("grpc" as const) : ("jsonrpc" as const);
      const method = raw.rpc ?? raw.method!;
      const known = transport === "grpc" ? rpcs.map((m) => m.name) : [...ctx.methods.jsonRpcMethods];
      if (!known.includes(method)) {
        at(
          [...path, transport === "grpc" ? "rpc" : "method"],
          `unknown ${transport === "grpc" ? "gRPC rpc" : "JSON-RPC method"} "${method}"${hintFor(method, known)}`,
        );
        return undefined;
      }
      if (what === "stream" && !serverStreaming(ctx, method)) at([...path, "rpc"], `${method} is not a gRPC server stream: only a stream can be held open`);
      const request = raw.request ?? (transport === "grpc" ? {} : []);
      if (transport === "jsonrpc" && !Array.isArray(request)) at([...path, "request"], "must be the positional params array of the JSON-RPC call");
      const c: Case = {
        id: scenarioCaseId(method, scenario, raw.id),
        transport,
        method,
        request,
        expect: toExpectation(raw.expect),
        volatile: raw.volatile ?? [],
        unordered: raw.unordered ?? false,
        tags: ["scenario"],
        source,
        ...(raw.wallClock ? { wallClock: raw.wallClock } : {}),
        ...(raw.title !== undefined ? { title: raw.title } : {}),
      };
      return { id: raw.id, case: c, deadlineMs, source };
    },
  };
}

function serverStreaming(ctx: ScenarioContext, method: string): boolean {
  return ctx.methods.service.methods.find((m) => m.name === method)?.methodKind === "server_streaming";
}

/** Every scenario under `root` (the cases/ folder), by file name; none when it has no scenarios/ folder. */
export function loadScenarios(root: string, ctx: ScenarioContext): Scenario[] {
  const dir = join(root, "scenarios");
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort();
  } catch {
    return [];
  }
  const problems: Problem[] = [];
  const out: Scenario[] = [];
  for (const f of files) {
    const path = join(dir, f);
    const display = relative(process.cwd(), path) || path;
    try {
      out.push(parseScenarioFile(readInput(path, display, INPUT_LIMITS.caseFileBytes, "the scenario file"), display, ctx));
    } catch (e) {
      if (e instanceof ProblemsError) problems.push(...e.problems);
      else throw e;
    }
  }
  if (problems.length > 0) throw new ProblemsError(problems);
  return out;
}
