// Limits a run keeps against slow, huge or endless answers: the per-call deadline, the
// largest message, the longest stream and the calls in flight per build. Each is set in
// a config file (in `defaults` and per build), hit through the fault proxy, and must
// end only the call that hit it: the session finishes and nothing escapes as an
// unhandled error. The built-in defaults must let the largest real blocks through.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import { join } from "node:path";
import { loadCorpus } from "../src/core/corpus/load.js";
import type { ChainProfile } from "../src/core/corpus/chain-profile.js";
import { loadRealChain } from "../src/zcash/fixture/chain/real.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { runSession } from "../src/core/run/session.js";
import type { CaseResult } from "../src/core/results/result.js";
import { DEFAULT_LIMITS, parseConfig, type RunConfig } from "../src/core/targets/config.js";
import { chainPath, chainTest } from "./chain-data.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

let net: FixtureNetwork;
let proxy: FaultProxy;
let dir: TempDir;
let chain: ChainProfile;

// Whatever a limit does, it must not leave an error nobody handles.
const escaped: unknown[] = [];
const onEscape = (e: unknown) => escaped.push(e);
beforeEach(() => {
  process.on("unhandledRejection", onEscape);
  process.on("uncaughtException", onEscape);
});
afterEach(() => {
  process.off("unhandledRejection", onEscape);
  process.off("uncaughtException", onEscape);
  expect(escaped).toEqual([]);
});

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  proxy = await startFaultProxy({ grpcUpstream: net.grpc.reference!, jsonrpcUpstream: net.jsonrpcProfiles.reference!.url });
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  // Twelve GetBlock calls, to see how many a build has in flight at once.
  const many = ["method: GetBlock", "cases:", ...Array.from({ length: 12 }, (_, i) => `  - { id: h${i + 1}, request: { height: ${i + 1} } }`)];
  dir.write(join("many", "grpc", "GetBlock.yaml"), many.join("\n"));
  chain = { name: "fixture", network: "regtest", anchors: net.anchors, dynamic: {} };
});

afterAll(async () => {
  await proxy?.close();
  await net?.close();
  dir?.remove();
});

/** A config file as a user writes it; every build goes through the proxy. */
function config(yaml: string): RunConfig {
  const ref = net.jsonrpcProfiles.reference!;
  const text = yaml
    .replaceAll("$GRPC", proxy.grpcUrl)
    .replaceAll("$JSONRPC", proxy.jsonrpcUrl)
    .replaceAll("$ORACLE_COOKIE", net.cookie)
    .replaceAll("$ORACLE", net.jsonrpc)
    .replaceAll("$COOKIE", ref.cookie);
  return parseConfig(text, join(dir.path, "zconform.config.yaml"), lightwalletProtocol);
}

async function run(cfg: RunConfig, corpus = "cases"): Promise<CaseResult[]> {
  const cases = loadCorpus(join(dir.path, corpus), lightwalletProtocol);
  const session = await runSession({ config: cfg, cases, chain, ledger: [], reporters: [], protocol: lightwalletProtocol });
  expect(session.partial).toBe(false);
  expect(session.results).toHaveLength(cases.length);
  return session.results;
}

const answer = (results: CaseResult[], id: string, side: string) => results.find((r) => r.caseId === id)!.answers.find((a) => a.side === side)!;

describe("limits from the config", () => {
  test("deadline, message size and stream length from `defaults` end only the calls that hit them", async () => {
    proxy.rules = [
      { transport: "grpc", rpc: "GetLatestBlock", fault: { kind: "hang" } },
      { transport: "grpc", rpc: "GetBlock", fault: { kind: "oversized", bytes: 70_000 } },
      { transport: "grpc", rpc: "GetBlockRange", fault: { kind: "endless" } },
      { transport: "jsonrpc", rpc: "getblock", fault: { kind: "oversized", bytes: 70_000 } },
      { transport: "jsonrpc", rpc: "getblockcount", fault: { kind: "hang" } },
    ];
    const cfg = config(`
chain: fixture
oracle: { jsonrpc: { url: $ORACLE, cookieFile: $ORACLE_COOKIE } }
defaults: { deadlineMs: 800, maxMessageBytes: 65536, maxStreamMessages: 50, concurrency: 2 }
builds:
  - name: limited
    implementation: other
    grpc: { url: $GRPC }
    jsonrpc: { url: $JSONRPC, cookieFile: $COOKIE }
`);
    expect(cfg.builds[0]).toMatchObject({ deadlineMs: 800, maxMessageBytes: 65536, maxStreamMessages: 50, concurrency: 2 });
    const t0 = performance.now();
    const results = await run(cfg);
    expect(performance.now() - t0).toBeLessThan(8000);
    expect(answer(results, "GetLatestBlock/tip", "limited").fault?.kind).toBe("timeout");
    expect(answer(results, "GetBlock/at-5", "limited").fault?.kind).toBe("too-large");
    expect(answer(results, "GetBlockRange/first-ten", "limited")).toMatchObject({ fault: { kind: "too-long" }, count: 50 });
    expect(answer(results, "getblock/raw-5", "limited").fault?.kind).toBe("too-large");
    expect(answer(results, "getblockcount/count", "limited").fault?.kind).toBe("timeout");
    // The kept part of an oversized body is the limit, not the whole answer.
    expect(answer(results, "getblock/raw-5", "limited").hex[0]!.length).toBe(2 * 65536);
  });

  test("a build's own limits win over `defaults`", async () => {
    proxy.rules = [
      { transport: "grpc", rpc: "GetBlockRange", fault: { kind: "endless" } },
      { transport: "grpc", rpc: "GetBlock", fault: { kind: "delay", ms: 600 } },
    ];
    const cfg = config(`
chain: fixture
oracle: { jsonrpc: { url: $ORACLE, cookieFile: $ORACLE_COOKIE } }
defaults: { deadlineMs: 300, maxStreamMessages: 20 }
builds:
  - { name: strict, implementation: other, grpc: { url: $GRPC } }
  - { name: patient, implementation: other, grpc: { url: $GRPC }, deadlineMs: 5000, maxStreamMessages: 200 }
`);
    const results = await run(cfg);
    expect(answer(results, "GetBlock/at-5", "strict").fault?.kind).toBe("timeout");
    expect(answer(results, "GetBlock/at-5", "patient").fault).toBeUndefined();
    expect(answer(results, "GetBlockRange/first-ten", "strict")).toMatchObject({ fault: { kind: "too-long" }, count: 20 });
    expect(answer(results, "GetBlockRange/first-ten", "patient")).toMatchObject({ fault: { kind: "too-long" }, count: 200 });
  });

  test("no build ever has more calls in flight than its concurrency", async () => {
    proxy.rules = [{ transport: "grpc", rpc: "GetBlock", fault: { kind: "delay", ms: 120 } }];
    const from = proxy.log.length;
    const cfg = config(`
chain: fixture
oracle: { jsonrpc: { url: $ORACLE, cookieFile: $ORACLE_COOKIE } }
defaults: { concurrency: 2 }
builds:
  - { name: two, implementation: other, grpc: { url: $GRPC, headers: { x-build: two } } }
  - { name: five, implementation: other, grpc: { url: $GRPC, headers: { x-build: five } }, concurrency: 5 }
`);
    const results = await run(cfg, "many");
    expect(results.every((r) => r.verdict?.verdict === "agree")).toBe(true);
    const seen = proxy.log.slice(from).filter((e) => e.rpc === "GetBlock");
    const inFlight = (build: string) => maxOverlapOf(seen.filter((e) => e.headers["x-build"] === build));
    // The limit is reached (the cases run in parallel) and never passed.
    expect(inFlight("two")).toBe(2);
    expect(inFlight("five")).toBe(5);
  });
});

function maxOverlapOf(entries: FaultProxy["log"]): number {
  let max = 0;
  for (const e of entries) {
    const at = e.start;
    max = Math.max(max, entries.filter((o) => o.start <= at && (o.end ?? Infinity) > at).length);
  }
  return max;
}

describe("built-in limits fit real chains", () => {
  // Testnet block 141,042 is about 1.9 MB: the largest real block in the chain data.
  chainTest("the largest real block passes at every verbosity with the default limits", async () => {
    const model = loadRealChain(chainPath("zebra", "blocks", "testnet", "block-test-0-141-042.bin"), { network: "testnet" });
    const big = await startFixtureNetwork({ profiles: ["reference"], chain: model });
    try {
      const d = tempDir();
      try {
        d.write("grpc/GetBlock.yaml", "method: GetBlock\ncases:\n  - { id: big, request: { height: 141042 } }\n");
        d.write("jsonrpc/getblock.yaml", 'method: getblock\ncases:\n  - { id: raw, request: ["141042", 0] }\n  - { id: full, request: ["141042", 2] }\n');
        const cases = loadCorpus(d.path, lightwalletProtocol);
        const builds = big.builds(); // DEFAULT_LIMITS
        expect(builds[0]).toMatchObject(DEFAULT_LIMITS);
        const cfg: RunConfig = {
          file: "(test)",
          chain: "fixture",
          defaults: DEFAULT_LIMITS,
          builds,
          oracle: { jsonrpc: { url: big.jsonrpc, auth: { kind: "cookie", cookieFile: big.cookie } }, source: { file: "(test)", line: 0 } },
        };
        const session = await runSession({
          config: cfg,
          cases,
          chain: { name: "fixture", network: "testnet", anchors: big.anchors, dynamic: {} },
          ledger: [],
          reporters: [],
          protocol: lightwalletProtocol,
        });
        for (const r of session.results) {
          expect({ id: r.caseId, verdict: r.verdict?.verdict, faults: r.answers.filter((a) => a.fault).length }).toEqual({
            id: r.caseId,
            verdict: "agree",
            faults: 0,
          });
        }
        // The verbose JSON form is several times the block; it must still be well inside the limit.
        const full = session.results.find((r) => r.caseId === "getblock/full")!.answers[0]!;
        expect(full.wireBytes).toBeGreaterThan(5_000_000);
        expect(full.wireBytes).toBeLessThan(DEFAULT_LIMITS.maxMessageBytes);
      } finally {
        d.remove();
      }
    } finally {
      await big.close();
    }
  });
});
