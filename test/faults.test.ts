// Hostile and broken servers, end to end: for each fault kind a whole session runs through
// the fault proxy (a real network hop in front of the fixture network) and must finish,
// give the affected case and build the expected classification, leave every other case
// and build alone, and write its reports.
//
// Builds in every run, all backed by the fixture's reference profile:
//   faulty   through the proxy, sending `x-fault-target: faulty`, which the rules select on;
//            small limits (deadline 1.5 s, 256 KiB messages, 500 stream messages, one call
//            at a time, so a dropped connection cannot take a neighbouring call with it)
//   relayed  through the same proxy without the header: the hop itself changes nothing
//   healthy  straight to the fixture
// The oracle is the fixture's Zebra-style JSON-RPC (through a second proxy in one row).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadCorpus } from "../src/core/corpus/load.js";
import type { Case } from "../src/core/corpus/case.js";
import type { ChainProfile } from "../src/core/corpus/chain-profile.js";
import type { DivergenceKind } from "../src/core/diff/divergence.js";
import type { VerdictKind } from "../src/core/diff/verdict.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { deriveFromOracle } from "../src/zcash/oracle/derive.js";
import { reportersFor } from "../src/cli/reporters.js";
import { runSession } from "../src/core/run/session.js";
import type { CaseResult } from "../src/core/results/result.js";
import { DEFAULT_LIMITS, type Build, type Limits, type RunConfig } from "../src/core/targets/config.js";
import type { FaultKind } from "../src/core/targets/observation.js";
import { startFaultProxy, type FaultProxy, type FaultRule, type GrpcFault, type JsonRpcFault } from "./tools/fault-proxy.js";
import { SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

const FAULTY_LIMITS: Limits = { concurrency: 1, deadlineMs: 1500, maxMessageBytes: 256 * 1024, maxStreamMessages: 500 };
const SELECT = { name: "x-fault-target", value: "faulty" };

const GRPC = { UNKNOWN: 2, RESOURCE_EXHAUSTED: 8, INTERNAL: 13, UNAVAILABLE: 14 } as const;

interface Row {
  name: string;
  /** The fault the proxy applies to the faulty build (selected by rpc and header). */
  grpc?: { rpc: string; fault: GrpcFault };
  jsonrpc?: { rpc: string; fault: JsonRpcFault };
  /** Special setups that are not a proxy rule on the faulty build. */
  setup?: "wrong-cookie" | "oracle-closes";
  /** Case ids that the fault touches. */
  affected: string[];
  /** Expected `fault.kind` of the faulty build's answer on the affected cases (none: no fault). */
  fault?: FaultKind;
  /** Expected gRPC code in the report; null for a client timeout, which has none. */
  code?: number | null;
  /** How many messages the faulty build's answer keeps (what arrived before the break). */
  kept?: number;
  verdict?: VerdictKind;
  /** A divergence the faulty build must show on the affected cases. */
  divergence?: { kind: DivergenceKind; path: string };
}

const grpcDiv = { kind: "error-vs-ok", path: "status.code" } as const;
const rpcDiv = { kind: "value", path: "fault" } as const;
const rpcHttp = { kind: "error-vs-ok", path: "http.status" } as const;

// The fault table: kind → classification.
const ROWS: Row[] = [
  { name: "grpc: delay inside the deadline", grpc: { rpc: "GetBlock", fault: { kind: "delay", ms: 300 } }, affected: ["GetBlock/at-5"], verdict: "agree" },
  { name: "grpc: delay past the deadline", grpc: { rpc: "GetBlock", fault: { kind: "delay", ms: 4000 } }, affected: ["GetBlock/at-5"], fault: "timeout", code: null, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: hang", grpc: { rpc: "GetBlock", fault: { kind: "hang" } }, affected: ["GetBlock/at-5"], fault: "timeout", code: null, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: stream reset mid-way", grpc: { rpc: "GetBlockRange", fault: { kind: "reset-mid-stream", afterMessages: 3 } }, affected: ["GetBlockRange/first-ten"], fault: "reset", code: GRPC.INTERNAL, kept: 3, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: connection closed mid-stream", grpc: { rpc: "GetBlockRange", fault: { kind: "close-mid-stream", afterMessages: 3 } }, affected: ["GetBlockRange/first-ten"], fault: "reset", code: GRPC.UNAVAILABLE, kept: 3, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: malformed frame", grpc: { rpc: "GetBlock", fault: { kind: "malformed-frame" } }, affected: ["GetBlock/at-5"], fault: "malformed-frame", code: GRPC.INTERNAL, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: lying length prefix", grpc: { rpc: "GetBlock", fault: { kind: "lying-length" } }, affected: ["GetBlock/at-5"], fault: "malformed-frame", code: GRPC.INTERNAL, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: compressed frame without negotiation", grpc: { rpc: "GetBlock", fault: { kind: "compressed" } }, affected: ["GetBlock/at-5"], fault: "compressed", code: GRPC.INTERNAL, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: wrong content-type", grpc: { rpc: "GetBlock", fault: { kind: "content-type", value: "text/html" } }, affected: ["GetBlock/at-5"], fault: "content-type", code: GRPC.UNKNOWN, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: gateway error status", grpc: { rpc: "GetBlock", fault: { kind: "http-status", status: 502 } }, affected: ["GetBlock/at-5"], fault: "http-status", code: GRPC.UNAVAILABLE, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: message over the size limit", grpc: { rpc: "GetBlock", fault: { kind: "oversized", bytes: 300 * 1024 } }, affected: ["GetBlock/at-5"], fault: "too-large", code: GRPC.RESOURCE_EXHAUSTED, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: endless stream", grpc: { rpc: "GetBlockRange", fault: { kind: "endless" } }, affected: ["GetBlockRange/first-ten"], fault: "too-long", code: GRPC.RESOURCE_EXHAUSTED, kept: 500, verdict: "deviant", divergence: grpcDiv },
  { name: "grpc: no grpc-status", grpc: { rpc: "GetBlock", fault: { kind: "no-status" } }, affected: ["GetBlock/at-5"], fault: "protocol", code: GRPC.INTERNAL, kept: 1, verdict: "deviant", divergence: grpcDiv },
  // A status the server sent is not a fault: undecodable bytes under OK are an answer that differs.
  { name: "grpc: undecodable message under status OK", grpc: { rpc: "GetBlock", fault: { kind: "garbage" } }, affected: ["GetBlock/at-5"], kept: 1, verdict: "deviant", divergence: { kind: "value", path: "" } },
  // Startup calls: a build answering garbage to GetLightdInfo or GetLatestBlock leaves the run and every case alone.
  { name: "grpc: garbage to GetLightdInfo at startup", grpc: { rpc: "GetLightdInfo", fault: { kind: "garbage" } }, affected: [] },
  { name: "jsonrpc: delay past the deadline", jsonrpc: { rpc: "getblock", fault: { kind: "delay", ms: 4000 } }, affected: ["getblock/raw-5"], fault: "timeout", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: hang", jsonrpc: { rpc: "getblock", fault: { kind: "hang" } }, affected: ["getblock/raw-5"], fault: "timeout", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: HTML error page", jsonrpc: { rpc: "getblock", fault: { kind: "html-error-page", status: 502 } }, affected: ["getblock/raw-5"], fault: "http-status", verdict: "deviant", divergence: rpcHttp },
  { name: "jsonrpc: HTML page with 200", jsonrpc: { rpc: "getblock", fault: { kind: "html-200" } }, affected: ["getblock/raw-5"], fault: "content-type", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: empty 200 body", jsonrpc: { rpc: "getblock", fault: { kind: "empty-200" } }, affected: ["getblock/raw-5"], fault: "empty-body", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: connection closed with no reply", jsonrpc: { rpc: "getblock", fault: { kind: "close-no-reply" } }, affected: ["getblock/raw-5"], fault: "empty-body", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: invalid JSON", jsonrpc: { rpc: "getblock", fault: { kind: "invalid-json" } }, affected: ["getblock/raw-5"], fault: "invalid-json", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: answer with the wrong id", jsonrpc: { rpc: "getblock", fault: { kind: "wrong-id" } }, affected: ["getblock/raw-5"], fault: "wrong-id", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: connection dropped mid-body", jsonrpc: { rpc: "getblock", fault: { kind: "reset-mid-body" } }, affected: ["getblock/raw-5"], fault: "reset", verdict: "deviant", divergence: rpcDiv },
  { name: "jsonrpc: body over the size limit", jsonrpc: { rpc: "getblock", fault: { kind: "oversized", bytes: 300 * 1024 } }, affected: ["getblock/raw-5"], fault: "too-large", verdict: "deviant", divergence: rpcDiv },
  // A hostile body: valid JSON nested 50,000 deep. It is an answer (no fault), compared as bytes.
  { name: "jsonrpc: JSON nested 50,000 levels deep", jsonrpc: { rpc: "getblock", fault: { kind: "deep-json", depth: 50_000 } }, affected: ["getblock/raw-5"], verdict: "deviant", divergence: { kind: "json-shape", path: "" } },
  { name: "jsonrpc: wrong cookie (the fixture closes the connection, as Zebra does)", setup: "wrong-cookie", affected: ["getblock/raw-5", "getblockcount/count"], fault: "empty-body", verdict: "deviant", divergence: rpcDiv },
  // The oracle's getblock also feeds the derived GetBlock and GetBlockRange answers.
  { name: "oracle: closes the connection", setup: "oracle-closes", affected: ["getblock/raw-5", "GetBlock/at-5", "GetBlockRange/first-ten"], verdict: "unavailable" },
];

let net: FixtureNetwork;
let proxy: FaultProxy;
let oracleProxy: FaultProxy;
let dir: TempDir;
let cases: Case[];
let chain: ChainProfile;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  proxy = await startFaultProxy({ grpcUpstream: net.grpc.reference!, jsonrpcUpstream: net.jsonrpcProfiles.reference!.url });
  oracleProxy = await startFaultProxy({ jsonrpcUpstream: net.jsonrpc });
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("wrong.cookie", "__cookie__:bm90IHRoZSByaWdodCB0b2tlbiBhdCBhbGwsIHNvcnJ5IQ==");
  cases = loadCorpus(join(dir.path, "cases"));
  chain = { name: "fixture", network: "regtest", anchors: net.anchors, dynamic: {} };
});

afterAll(async () => {
  await proxy?.close();
  await oracleProxy?.close();
  await net?.close();
  dir?.remove();
});

function build(name: string, grpcUrl: string, jsonrpcUrl: string, limits: Limits, o: { header?: boolean; cookie?: string } = {}): Build {
  const headers = o.header ? { headers: { [SELECT.name]: SELECT.value } } : {};
  return {
    ...limits,
    name,
    implementation: "other",
    emulated: true,
    profile: "reference",
    grpc: { url: grpcUrl, ...headers },
    jsonrpc: { url: jsonrpcUrl, auth: { kind: "cookie", cookieFile: o.cookie ?? net.jsonrpcProfiles.reference!.cookie }, ...headers },
    source: { file: "(test)", line: 0 },
  };
}

function configFor(row: Row): RunConfig {
  const direct = { grpc: net.grpc.reference!, jsonrpc: net.jsonrpcProfiles.reference!.url };
  const faulty = row.setup === "wrong-cookie"
    ? build("faulty", direct.grpc, direct.jsonrpc, FAULTY_LIMITS, { cookie: join(dir.path, "wrong.cookie") })
    : build("faulty", proxy.grpcUrl, proxy.jsonrpcUrl, FAULTY_LIMITS, { header: true });
  return {
    file: "(test)",
    chain: "fixture",
    oracle: { jsonrpc: { url: row.setup === "oracle-closes" ? oracleProxy.jsonrpcUrl : net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } },
    defaults: DEFAULT_LIMITS,
    builds: [
      faulty,
      build("relayed", proxy.grpcUrl, proxy.jsonrpcUrl, { ...DEFAULT_LIMITS, deadlineMs: 15_000 }),
      build("healthy", direct.grpc, direct.jsonrpc, { ...DEFAULT_LIMITS, deadlineMs: 15_000 }),
    ],
  };
}

function rulesFor(row: Row): FaultRule[] {
  if (row.grpc) return [{ transport: "grpc", rpc: row.grpc.rpc, header: SELECT, fault: row.grpc.fault }];
  if (row.jsonrpc) return [{ transport: "jsonrpc", rpc: row.jsonrpc.rpc, header: SELECT, fault: row.jsonrpc.fault }];
  return [];
}

const answerOf = (r: CaseResult, side: string) => r.answers.find((a) => a.side === side);

describe("a run through the fault proxy", () => {
  test.each(ROWS.map((r) => [r.name, r] as const))("%s", async (_name, row) => {
    proxy.rules = rulesFor(row);
    oracleProxy.rules = row.setup === "oracle-closes" ? [{ transport: "jsonrpc", rpc: "getblock", fault: { kind: "close-no-reply" } }] : [];
    const logFrom = proxy.log.length;
    const out = tempDir("zconform-faults-");
    const paths = { json: join(out.path, "report.json"), junit: join(out.path, "report.xml"), html: join(out.path, "report.html") };
    try {
      const lines: string[] = [];
      const reporters = reportersFor({ ...paths, quiet: true }, { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) });
      const session = await runSession({ config: configFor(row), cases, chain, ledger: [], reporters, deriveGrpc: deriveFromOracle });

      // The run completed, whole.
      expect(session.partial).toBe(false);
      expect(session.results.map((r) => r.caseId).sort()).toEqual(cases.map((c) => c.id).sort());

      for (const r of session.results) {
        const affected = row.affected.includes(r.caseId);
        const faulty = answerOf(r, "faulty")!;
        if (!affected) {
          // Every other case: every build answered, all agree with the oracle.
          expect({ id: r.caseId, verdict: r.verdict?.verdict, faults: r.answers.filter((a) => a.fault).map((a) => a.side) })
            .toEqual({ id: r.caseId, verdict: "agree", faults: [] });
          expect(r.divergences).toEqual([]);
          continue;
        }
        // Other builds on the affected case: no fault.
        expect(r.answers.filter((a) => a.side !== "faulty" && a.fault)).toEqual([]);
        expect({ id: r.caseId, fault: faulty.fault?.kind, verdict: r.verdict?.verdict })
          .toEqual({ id: r.caseId, fault: row.fault, verdict: row.verdict });
        if (row.fault) expect(faulty.status).toBe(`fault:${row.fault}`);
        if (row.code !== undefined) expect(faulty.code).toBe(row.code);
        if (row.kept !== undefined) expect(faulty.count).toBe(row.kept);
        if (row.verdict === "deviant") {
          expect(r.verdict?.deviants).toEqual(["faulty"]);
          expect(r.verdict?.unavailable).toEqual(row.fault ? ["faulty"] : []);
        }
        const mine = r.divergences.filter((d) => d.build === "faulty");
        if (row.divergence) expect(mine).toEqual(expect.arrayContaining([expect.objectContaining(row.divergence)]));
        else expect(mine).toEqual([]);
        expect(r.divergences.filter((d) => d.build !== "faulty")).toEqual([]);
        if (row.setup === "oracle-closes") expect(r.oracle?.fault?.kind).toBe("empty-body");
      }

      // The fault really was applied on the hop, to the faulty build only.
      const seen = proxy.log.slice(logFrom);
      const rule = row.grpc ?? row.jsonrpc;
      if (rule) {
        const applied = seen.filter((e) => e.fault !== undefined);
        expect(applied.length).toBeGreaterThan(0);
        expect(applied.every((e) => e.rpc === rule.rpc && e.fault === rule.fault.kind && e.headers[SELECT.name] === SELECT.value)).toBe(true);
      }
      expect(seen.some((e) => e.headers[SELECT.name] === undefined)).toBe(true); // the relayed build went through too

      // The reports were written and say the same.
      const report = JSON.parse(readFileSync(paths.json, "utf8")) as { partial: boolean; cases: CaseResult[] };
      expect(report.partial).toBe(false);
      expect(report.cases).toHaveLength(cases.length);
      for (const id of row.affected) {
        const rc = report.cases.find((c) => c.caseId === id)!;
        expect(rc.verdict?.verdict).toBe(row.verdict);
        if (row.fault) expect(answerOf(rc, "faulty")?.fault?.kind).toBe(row.fault);
      }
      expect(readFileSync(paths.junit, "utf8")).toContain("<testsuite");
      expect(readFileSync(paths.html, "utf8")).toMatch(/<html/i);
    } finally {
      out.remove();
    }
  });

  test("the table covers at least twelve fault kinds", () => {
    const kinds = new Set(ROWS.map((r) => r.grpc?.fault.kind ?? r.jsonrpc?.fault.kind ?? r.setup));
    expect(kinds.size).toBeGreaterThanOrEqual(12);
  });
});
