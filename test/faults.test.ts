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
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { commandReports } from "../src/cli/reporters.js";
import { runSession } from "../src/core/run/session.js";
import type { CaseResult } from "../src/core/results/result.js";
import { DEFAULT_LIMITS, type Build, type Limits, type RunConfig } from "../src/core/targets/config.js";
import { startFaultProxy, type FaultProxy, type FaultRule } from "./tools/fault-proxy.js";
import { FAULT_ROWS as ROWS, type FaultRow as Row } from "./tools/fault-table.js";
import { SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const FAULTY_LIMITS: Limits = { concurrency: 1, deadlineMs: 1500, maxMessageBytes: 256 * 1024, maxCallBytes: 1024 * 1024, maxStreamMessages: 500 };
const SELECT = { name: "x-fault-target", value: "faulty" };

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
  cases = loadCorpus(join(dir.path, "cases"), lightwalletProtocol);
  chain = { name: "fixture", network: "regtest", anchors: net.anchors, dynamic: {} };
});

afterAll(async () => {
  await proxy?.close();
  await oracleProxy?.close();
  await net?.close();
  dir?.remove();
});

function build(name: string, grpcUrl: string, jsonrpcUrl: string, limits: Limits, o: { header?: boolean; cookie?: string } = {}): Build {
  const headers = o.header ? { headers: { [SELECT.name]: SELECT.value }, public: [SELECT.name] } : {};
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
  const faulty =
    row.setup === "wrong-cookie"
      ? build("faulty", direct.grpc, direct.jsonrpc, FAULTY_LIMITS, { cookie: join(dir.path, "wrong.cookie") })
      : build("faulty", proxy.grpcUrl, proxy.jsonrpcUrl, FAULTY_LIMITS, { header: true });
  return {
    file: "(test)",
    chain: "fixture",
    oracle: {
      jsonrpc: { url: row.setup === "oracle-closes" ? oracleProxy.jsonrpcUrl : net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } },
      source: { file: "(test)", line: 0 },
    },
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
      const { reporters } = commandReports({ ...paths, quiet: true }, { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) });
      const session = await runSession({ config: configFor(row), cases, chain, ledger: [], reporters, protocol: lightwalletProtocol });

      // The run completed, whole.
      expect(session.partial).toBe(false);
      expect(session.results.map((r) => r.caseId).sort()).toEqual(cases.map((c) => c.id).sort());

      for (const r of session.results) {
        const affected = row.affected.includes(r.caseId);
        const faulty = answerOf(r, "faulty")!;
        if (!affected) {
          // Every other case: every build answered, all agree with the oracle.
          expect({ id: r.caseId, verdict: r.verdict?.verdict, faults: r.answers.filter((a) => a.fault).map((a) => a.side) }).toEqual({
            id: r.caseId,
            verdict: "agree",
            faults: [],
          });
          expect(r.divergences).toEqual([]);
          continue;
        }
        // Other builds on the affected case: no fault.
        expect(r.answers.filter((a) => a.side !== "faulty" && a.fault)).toEqual([]);
        expect({ id: r.caseId, fault: faulty.fault?.kind, verdict: r.verdict?.verdict }).toEqual({ id: r.caseId, fault: row.fault, verdict: row.verdict });
        if (row.fault) expect(faulty.status).toBe(`fault:${row.fault}`);
        if (row.code !== undefined) expect(faulty.code).toBe(row.code);
        if (row.kept !== undefined) expect(faulty.count).toBe(row.kept);
        if (row.verdict === "deviant") {
          expect(r.verdict?.deviants).toEqual(["faulty"]);
          expect(r.verdict?.unavailable).toEqual(row.fault ? ["faulty"] : []);
        }
        const mine = r.divergences.filter((d) => d.build === "faulty");
        const outcome = r.outcomes?.find((o) => o.build === "faulty");
        // A fault is a build that could not be checked, never a divergence, never a pass.
        if (row.fault) expect(outcome).toMatchObject({ outcome: "unchecked", cause: "faulty", fault: { kind: row.fault } });
        if (row.divergence) expect(mine).toEqual(expect.arrayContaining([expect.objectContaining(row.divergence)]));
        else expect(mine).toEqual([]);
        expect(r.divergences.filter((d) => d.build !== "faulty")).toEqual([]);
        if (row.setup === "oracle-closes") {
          expect(r.oracle?.fault?.kind).toBe("empty-body");
          expect(r.outcomes?.map((o) => [o.outcome, o.cause])).toEqual(r.answers.map(() => ["unchecked", "oracle"]));
        }
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
