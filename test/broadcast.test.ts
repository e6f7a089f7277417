// No valid transaction leaves zconform unless the run is against a regtest chain and
// --allow-broadcast was given. The builds and the oracle sit behind fault proxies that
// only log, so the test sees exactly which calls reached a server.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChainProfile } from "../src/core/corpus/chain-profile.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { BROADCAST_REFUSED } from "../src/core/run/broadcast.js";
import type { CaseResult } from "../src/core/results/result.js";
import { runSession } from "../src/core/run/session.js";
import { DEFAULT_LIMITS, type RunConfig } from "../src/core/targets/config.js";
import { bytesToHex, testnet } from "../src/zcash/codec/index.js";
import { syntheticChain } from "../src/zcash/fixture/chain/synthetic.js";
import { runCli } from "./tools/cli.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { chainProfileYaml, tempDir, type TempDir } from "./tools/temp-corpus.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

let net: FixtureNetwork;
let builds: FaultProxy;
let oracle: FaultProxy;
let dir: TempDir;
let validTx: string;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  builds = await startFaultProxy({ grpcUpstream: net.grpc.reference!, jsonrpcUpstream: net.jsonrpcProfiles.reference!.url });
  oracle = await startFaultProxy({ jsonrpcUpstream: net.jsonrpc });
  // A real transaction of the fixture chain: it decodes, so a node could accept it.
  const block = net.model.blocks.find((b) => b.block.transactions.length > 1)!;
  validTx = bytesToHex(block.block.rawTransactions[1]!);
  dir = tempDir();
  dir.write(
    "cases/grpc/SendTransaction.yaml",
    [
      "method: SendTransaction",
      "defaults: { expect: agree }",
      "cases:",
      `  - { id: valid-tx, request: { data: { $hex: "${validTx}" } } }`,
      '  - { id: garbage, request: { data: { $hex: "0400008085202f89" } } }',
      // The same valid transaction inside raw request bytes (RawTransaction field 1).
      `  - { id: valid-tx-raw, request: { $wire: { $hex: "0a${lengthPrefix(validTx.length / 2)}${validTx}" } } }`,
      // A node reads one transaction and ignores what follows: still a transaction.
      `  - { id: valid-tx-trailing, request: { data: { $hex: "${validTx}00" } } }`,
    ].join("\n"),
  );
  dir.write(
    "cases/jsonrpc/sendrawtransaction.yaml",
    [
      "method: sendrawtransaction",
      "cases:",
      `  - { id: valid-tx, request: ["${validTx}"] }`,
      `  - { id: valid-tx-upper, request: ["${validTx.toUpperCase()}"] }`,
      `  - { id: valid-tx-trailing, request: ["${validTx}00"] }`,
      '  - { id: garbage, request: ["0400008085202f89"] }',
    ].join("\n"),
  );
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  dir.write("cases/chains/pretend-testnet.yaml", chainProfileYaml("pretend-testnet", "testnet", net.anchors));
});

afterAll(async () => {
  await builds?.close();
  await oracle?.close();
  await net?.close();
  dir?.remove();
});

/** The protobuf varint of a length, as hex. */
function lengthPrefix(n: number): string {
  const out: number[] = [];
  for (let v = n; ; v >>>= 7) {
    if (v < 0x80) {
      out.push(v);
      break;
    }
    out.push((v & 0x7f) | 0x80);
  }
  return Buffer.from(out).toString("hex");
}

function config(chain: string): RunConfig {
  const ref = net.jsonrpcProfiles.reference!;
  return {
    file: "(test)",
    chain,
    defaults: DEFAULT_LIMITS,
    oracle: { jsonrpc: { url: oracle.jsonrpcUrl, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } },
    builds: [
      {
        ...DEFAULT_LIMITS,
        name: "proxied",
        implementation: "other",
        emulated: true,
        profile: "reference",
        source: { file: "(test)", line: 0 },
        grpc: { url: builds.grpcUrl },
        jsonrpc: { url: builds.jsonrpcUrl, auth: { kind: "cookie", cookieFile: ref.cookie } },
      },
    ],
  };
}

function configYaml(chain: string): string {
  const ref = net.jsonrpcProfiles.reference!;
  return [
    `chain: ${chain}`,
    `oracle: { jsonrpc: { url: "${oracle.jsonrpcUrl}", cookieFile: "${net.cookie}" } }`,
    "builds:",
    `  - { name: proxied, implementation: other, grpc: { url: "${builds.grpcUrl}" }, jsonrpc: { url: "${builds.jsonrpcUrl}", cookieFile: "${ref.cookie}" } }`,
  ].join("\n");
}

/** Calls that reached a server since `from`, by rpc. */
function sent(p: FaultProxy, from: number, rpc: string): number {
  return p.log.slice(from).filter((e) => e.rpc === rpc).length;
}

async function session(chainNetwork: "regtest" | "testnet", allowBroadcast: boolean): Promise<CaseResult[]> {
  const chain: ChainProfile = { name: "fixture", network: chainNetwork, anchors: net.anchors, dynamic: {} };
  const cases = loadCorpus(join(dir.path, "cases"), lightwalletProtocol);
  // The servers are regtest: a testnet profile is forced past the preflight to reach the guard.
  const r = await runSession({
    config: config("fixture"),
    cases,
    chain,
    ledger: [],
    reporters: [],
    protocol: lightwalletProtocol,
    allowBroadcast,
    force: chainNetwork !== "regtest",
  });
  return r.results;
}

const byId = (results: CaseResult[]) => Object.fromEntries(results.map((r) => [r.caseId, r.skipped ?? "ran"]));

describe("the runner's broadcast guard", () => {
  test("without --allow-broadcast a valid transaction is never sent, to a build or to the oracle", async () => {
    const b0 = builds.log.length;
    const o0 = oracle.log.length;
    const results = await session("regtest", false);
    expect(byId(results)).toEqual({
      "SendTransaction/valid-tx": BROADCAST_REFUSED,
      "SendTransaction/valid-tx-raw": BROADCAST_REFUSED,
      "SendTransaction/valid-tx-trailing": BROADCAST_REFUSED,
      "SendTransaction/garbage": "ran",
      "sendrawtransaction/valid-tx": BROADCAST_REFUSED,
      "sendrawtransaction/valid-tx-upper": BROADCAST_REFUSED,
      "sendrawtransaction/valid-tx-trailing": BROADCAST_REFUSED,
      "sendrawtransaction/garbage": "ran",
    });
    // Only the garbage reached anyone.
    expect(sent(builds, b0, "SendTransaction")).toBe(1);
    expect(sent(builds, b0, "sendrawtransaction")).toBe(1);
    expect(sent(oracle, o0, "sendrawtransaction")).toBe(1);
    expect(results.find((r) => r.caseId === "SendTransaction/valid-tx")?.answers).toEqual([]);
  });

  test("allowed on a regtest chain, every case is sent", async () => {
    const b0 = builds.log.length;
    const o0 = oracle.log.length;
    const results = await session("regtest", true);
    expect(Object.values(byId(results))).toEqual(Array(8).fill("ran"));
    expect(sent(builds, b0, "SendTransaction")).toBe(4);
    expect(sent(builds, b0, "sendrawtransaction")).toBe(4);
    expect(sent(oracle, o0, "sendrawtransaction")).toBe(4);
  });

  test("asking for it on any other chain changes nothing", async () => {
    const b0 = builds.log.length;
    const results = await session("testnet", true);
    expect(byId(results)["SendTransaction/valid-tx"]).toBe(BROADCAST_REFUSED);
    expect(sent(builds, b0, "SendTransaction")).toBe(1);
  });
});

describe("the servers' own chain names", () => {
  test("a regtest chain profile with --allow-broadcast sends nothing when a server says its chain is not regtest", async () => {
    // The same chain served as testnet: the build's GetLightdInfo.chainName and
    // getblockchaininfo.chain say "test" while the config's profile says regtest.
    const tnet = await startFixtureNetwork({ profiles: ["reference"], chain: { ...syntheticChain(), network: testnet } });
    const tproxy = await startFaultProxy({ grpcUpstream: tnet.grpc.reference!, jsonrpcUpstream: tnet.jsonrpcProfiles.reference!.url });
    try {
      const cfg = config("fixture");
      cfg.builds[0] = {
        ...cfg.builds[0]!,
        grpc: { url: tproxy.grpcUrl },
        jsonrpc: { url: tproxy.jsonrpcUrl, auth: { kind: "cookie", cookieFile: tnet.jsonrpcProfiles.reference!.cookie } },
      };
      const o0 = oracle.log.length;
      const chain: ChainProfile = { name: "fixture", network: "regtest", anchors: net.anchors, dynamic: {} };
      const r = await runSession({
        config: cfg,
        cases: loadCorpus(join(dir.path, "cases"), lightwalletProtocol),
        chain,
        ledger: [],
        reporters: [],
        protocol: lightwalletProtocol,
        allowBroadcast: true,
        force: true,
      });
      const skipped = r.results.filter((c) => c.skipped);
      expect(skipped.map((c) => c.caseId).sort()).toEqual([
        "SendTransaction/valid-tx",
        "SendTransaction/valid-tx-raw",
        "SendTransaction/valid-tx-trailing",
        "sendrawtransaction/valid-tx",
        "sendrawtransaction/valid-tx-trailing",
        "sendrawtransaction/valid-tx-upper",
      ]);
      for (const c of skipped) {
        expect(c.skipped).toContain('proxied (GetLightdInfo.chainName) says "test"');
        expect(c.skipped).toContain('proxied (getblockchaininfo.chain) says "test"');
        expect(c.skipped).not.toContain("oracle (");
      }
      // Only the garbage reached anyone.
      expect(sent(tproxy, 0, "SendTransaction")).toBe(1);
      expect(sent(tproxy, 0, "sendrawtransaction")).toBe(1);
      expect(sent(oracle, o0, "sendrawtransaction")).toBe(1);
    } finally {
      await tproxy.close();
      await tnet.close();
    }
  });
});

describe("zconform run --allow-broadcast", () => {
  test("is refused with exit 2 and a clear message unless the chain is regtest", async () => {
    const cfg = dir.write("testnet.config.yaml", configYaml("pretend-testnet"));
    const b0 = builds.log.length;
    const r = await runCli(["run", "-c", cfg, "--cases", join(dir.path, "cases"), "--allow-broadcast", "-q"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-broadcast refused: chain "pretend-testnet" is testnet.');
    expect(builds.log.length).toBe(b0); // nothing was sent at all
  });

  test("on a regtest chain it sends the valid transactions; without it they are skipped", async () => {
    const cfg = dir.write("regtest.config.yaml", configYaml("fixture"));
    const cases = join(dir.path, "cases");
    for (const allow of [true, false]) {
      const json = join(dir.path, `report-${allow}.json`);
      const r = await runCli(["run", "-c", cfg, "--cases", cases, "--json", json, "-q", ...(allow ? ["--allow-broadcast"] : [])]);
      if (![0, 1].includes(r.code ?? -1)) throw new Error(`exit ${r.code}: ${r.stderr}`);
      const report = JSON.parse(readFileSync(json, "utf8")) as { cases: CaseResult[] };
      expect(report.cases.find((c) => c.caseId === "SendTransaction/valid-tx")?.skipped).toBe(allow ? undefined : BROADCAST_REFUSED);
    }
  });
});
