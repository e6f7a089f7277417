import { describe, expect, test } from "@jest/globals";
import type { Case } from "../../core/corpus/case.js";
import { loadChainProfile, type ChainProfile } from "../../core/corpus/chain-profile.js";
import { loadCorpus } from "../../core/corpus/load.js";
import { coverageCommand } from "../../cli/coverage.js";
import { coverageOf, formatCoverage } from "./coverage.js";
import { inventory } from "./inventory.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

const corpus = loadCorpus("cases", lightwalletProtocol);
const fixture = loadChainProfile("cases", "fixture");
const chain: ChainProfile = { name: "t", network: "regtest", anchors: { tip: 10 }, dynamic: {} };

function grpcCase(id: string, method: string, request: unknown): Case {
  return {
    id: `${method}/${id}`,
    transport: "grpc",
    method,
    request,
    expect: { kind: "oracle" },
    volatile: [],
    unordered: false,
    tags: [],
    source: { file: "t.yaml", line: 1 },
  };
}

describe("inventory", () => {
  test("every rpc, the fields its request reaches by full path, and the enum values of those fields", () => {
    const inv = inventory(lightwalletProtocol);
    expect(inv.rpcs).toHaveLength(20);
    const paths = inv.fields.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "BlockRange.start.hash",
        "BlockRange.poolTypes",
        "TransparentAddressBlockFilter.range.end.height",
        "GetMempoolTxRequest.exclude_txid_suffixes",
      ]),
    );
    expect(inv.fields.find((f) => f.path === "BlockID.hash")!.rpcs).toEqual(["GetBlock", "GetBlockNullifiers", "GetTreeState"]);
    expect(inv.enumValues.map((e) => e.name)).toEqual(expect.arrayContaining(["PoolType.IRONWOOD", "PoolType.POOL_TYPE_INVALID", "ShieldedProtocol.ironwood"]));
    expect(inv.jsonrpcMethods).toContain("getblock");
  });
});

describe("coverageOf", () => {
  test("a field counts when set to a non-default value; enum values as the server receives them", () => {
    const c = coverageOf(
      [
        grpcCase("a", "GetBlockRange", { start: { height: 0 }, end: { hash: "AQI=" }, poolTypes: ["IRONWOOD"] }),
        grpcCase("b", "GetSubtreeRoots", { startIndex: 0 }),
        grpcCase("c", "GetBlockRangeNullifiers", { end: { height: 2 } }),
      ],
      chain,
      lightwalletProtocol,
    );
    const set = (p: string) => c.fields.find((f) => f.path === p)!.cases;
    expect(set("BlockRange.start")).toBe(1);
    expect(set("BlockRange.start.height")).toBe(0); // 0 is the default: not exercised
    expect(set("BlockRange.end.hash")).toBe(1);
    expect(c.unexercised.enumValues).not.toContain("PoolType.IRONWOOD");
    expect(c.unexercised.enumValues).toContain("PoolType.SAPLING");
    // An unset singular enum reaches the server as its zero value.
    expect(c.unexercised.enumValues).not.toContain("ShieldedProtocol.sapling");
    expect(c.unexercised.enumValues).toContain("ShieldedProtocol.orchard");
    expect(c.unexercised.rpcs).toContain("GetBlock");
    expect(c.unexercised.fieldsByRpc).toContain("GetBlockRangeNullifiers BlockRange.end.hash");
  });

  test("raw $wire requests count by what they decode to; undecodable ones only for their rpc", () => {
    const c = coverageOf(
      [
        grpcCase("w", "GetBlock", { $wire: { $hex: "1202abcd" } }),
        grpcCase("bad", "GetTreeState", { $wire: { $hex: "ff" } }),
        grpcCase("s", "GetTaddressBalanceStream", [{ address: "t1x" }, { $wire: { $hex: "0a0174" } }]),
      ],
      chain,
      lightwalletProtocol,
    );
    expect(c.fields.find((f) => f.path === "BlockID.hash")!.byRpc).toEqual({ GetBlock: 1, GetBlockNullifiers: 0, GetTreeState: 0 });
    expect(c.undecodable).toBe(1);
    expect(c.rpcs.find((r) => r.name === "GetTreeState")!.cases).toBe(1);
    expect(c.fields.find((f) => f.path === "Address.address")!.cases).toBe(1);
  });

  test("cases the chain cannot plan count for their rpc and are listed", () => {
    const c = coverageOf([grpcCase("x", "GetBlock", { height: "${no_such_anchor}" })], chain, lightwalletProtocol);
    expect(c.skipped).toEqual([{ id: "GetBlock/x", kind: "unplannable", reason: 'chain "t" has no anchor "no_such_anchor"' }]);
    expect(c.unexercised.rpcs).not.toContain("GetBlock");
  });

  test("a case declared for other chains is listed apart from the unplannable ones", () => {
    const only = { ...grpcCase("y", "GetBlock", { height: 1 }), chains: ["elsewhere"] };
    const c = coverageOf([only], chain, lightwalletProtocol);
    expect(c.skipped).toEqual([{ id: "GetBlock/y", kind: "other-chains", reason: "only for chains elsewhere" }]);
    expect(formatCoverage(c).join("\n")).toMatch(
      /0 not plannable, 1 for other chains only[\s\S]*cases declared for other chains:\n {2}GetBlock\/y: only for chains elsewhere/,
    );
  });

  test("dynamic anchors plan at the profile's frozen block; without one they are missing", () => {
    const live: ChainProfile = { name: "live", network: "testnet", anchors: {}, dynamic: { tip: "tip_height", tip_hash: "tip_hash" } };
    const cases = [grpcCase("t", "GetBlock", { height: "${tip}" }), grpcCase("h", "GetBlock", { hash: "${tip_hash|le}" })];
    expect(coverageOf(cases, live, lightwalletProtocol).skipped.map((s) => s.kind)).toEqual(["unplannable", "unplannable"]);
    const frozen = coverageOf(cases, { ...live, frozenAt: 7, frozenHash: "ab".repeat(32) }, lightwalletProtocol);
    expect(frozen.skipped).toEqual([]);
    expect(frozen.frozenTip).toEqual({ height: 7, hash: "ab".repeat(32) });
    expect(formatCoverage(frozen)[1]).toMatch(/frozen block 7 /);
  });

  test("a mempool anchor plans with a placeholder and lists its cases as taken at run start", () => {
    const live: ChainProfile = { name: "live", network: "testnet", anchors: {}, dynamic: { txid_mempool: "mempool_txid" } };
    const cases = [grpcCase("m", "GetTransaction", { hash: "${txid_mempool|le}" }), grpcCase("b", "GetBlock", { height: 1 })];
    const c = coverageOf(cases, live, lightwalletProtocol);
    expect(c.skipped).toEqual([]);
    expect(c.atRunStart).toEqual([{ id: "GetTransaction/m", anchor: "txid_mempool" }]);
    expect(formatCoverage(c).join("\n")).toMatch(/1 planned cases take a transaction from the oracle's mempool at run start/);
  });
});

describe("the shipped corpus", () => {
  test("leaves no rpc of CompactTxStreamer without a case", () => {
    expect(coverageOf(corpus, fixture, lightwalletProtocol).unexercised.rpcs).toEqual([]);
  });

  test("without the cases of one rpc, that rpc is reported", () => {
    const c = coverageOf(
      corpus.filter((x) => !(x.transport === "grpc" && x.method === "GetSubtreeRoots")),
      fixture,
      lightwalletProtocol,
    );
    expect(c.unexercised.rpcs).toEqual(["GetSubtreeRoots"]);
    expect(c.unexercised.fields).toEqual(expect.arrayContaining(["GetSubtreeRootsArg.maxEntries"]));
    expect(formatCoverage(c).join("\n")).toMatch(/rpcs without a case:\n {2}GetSubtreeRoots/);
  });

  // Every case that does not need a mempool plans on the real chains; what does not is few
  // and each says why (a mempool transaction is a property of the moment, not of the chain).
  // The mempool transaction is taken from the oracle when a run starts, so those cases plan;
  // what remains unplanned is declared for the fixture chain alone.
  test.each(["testnet", "mainnet"])("on %s at most 10 cases cannot be planned, each listed with why", (name) => {
    const c = coverageOf(corpus, loadChainProfile("cases", name), lightwalletProtocol);
    expect(c.skipped.length).toBeLessThanOrEqual(10);
    for (const s of c.skipped) expect(s.reason).toMatch(/^only for chains /);
    const usesMempool = corpus.filter((x) => JSON.stringify(x.request).includes("${txid_mempool")).map((x) => x.id);
    expect(usesMempool.length).toBeGreaterThan(0);
    expect(c.atRunStart.map((a) => a.id).sort()).toEqual(usesMempool.filter((id) => !c.skipped.some((s) => s.id === id)).sort());
    const text = formatCoverage(c).join("\n");
    for (const s of c.skipped) expect(text).toContain(`  ${s.id}: ${s.reason}`);
    for (const a of c.atRunStart) expect(text).toContain(`  ${a.id}: \${txid_mempool}`);
    expect(c.planned + c.skipped.length).toBe(corpus.length);
  });

  test("each real version's JSON-RPC methods: how many of the corpus's it serves, from which source, and which it lacks", () => {
    const c = coverageOf(corpus, fixture, {
      ...lightwalletProtocol,
      jsonRpcServedBy: [
        { implementation: "zaino", version: "9.9.9", source: "a crate 1.0.0 src/rpc.rs Trait", methods: ["getinfo", "getblock", "not-in-the-corpus"] },
        { implementation: "zebrad", version: "1.0.0", source: "another", methods: lightwalletProtocol.jsonRpcMethods },
      ],
    });
    const all = lightwalletProtocol.jsonRpcMethods;
    expect(c.jsonrpcServedBy).toEqual([
      {
        server: "zaino 9.9.9",
        source: "a crate 1.0.0 src/rpc.rs Trait",
        methods: 3,
        ofCorpus: 2,
        lacks: all.filter((m) => m !== "getinfo" && m !== "getblock"),
      },
      { server: "zebrad 1.0.0", source: "another", methods: all.length, ofCorpus: all.length, lacks: [] },
    ]);
    const text = formatCoverage(c).join("\n");
    expect(text).toContain(
      `JSON-RPC methods each server version serves (from its source):\n  zaino 9.9.9: 2/${all.length}, 3 in all (a crate 1.0.0 src/rpc.rs Trait); not getblockchaininfo, `,
    );
    // A version that serves them all lacks nothing, and says so by saying no more.
    expect(text.split("\n")).toContain(`  zebrad 1.0.0: ${all.length}/${all.length} (another)`);
  });

  test("the lightwallet protocol names zainod 0.10.1's 28 methods, zainod 0.9.0's 27 and zebrad 7.0.0's, each with its crate", () => {
    const served = coverageOf(corpus, fixture, lightwalletProtocol).jsonrpcServedBy;
    expect(served.map((s) => [s.server, s.ofCorpus, s.lacks, s.source])).toEqual([
      ["zaino 0.10.1", 28, ["getblockhash"], "zaino-serve 0.9.0 src/rpc/jsonrpc/service.rs ZcashIndexerRpc"],
      ["zaino 0.9.0", 27, ["getaddressdeltas", "getblockhash"], "zaino-serve 0.7.0 src/rpc/jsonrpc/service.rs ZcashIndexerRpc"],
      ["zebrad 7.0.0", 24, ["gettxoutsetinfo", "getblockdeltas", "getchaintips", "getspentinfo", "getaddressdeltas"], "zebra-rpc 19.0.0 src/methods.rs Rpc"],
    ]);
  });

  test("zconform coverage --json prints one stable object and exits 0", async () => {
    const lines: string[] = [];
    const code = await coverageCommand({ cases: "cases", json: true }, { stdout: (l) => lines.push(l), stderr: () => {} });
    expect(code).toBe(0);
    const out = JSON.parse(lines.join("\n"));
    expect(Object.keys(out)).toEqual([
      "chain",
      "cases",
      "planned",
      "skipped",
      "atRunStart",
      "rpcs",
      "fields",
      "enumValues",
      "jsonrpcMethods",
      "jsonrpcServedBy",
      "unexercised",
      "undecodable",
    ]);
    expect(out.chain).toBe("fixture");
    expect(out.rpcs.map((r: { name: string }) => r.name)).toEqual(inventory(lightwalletProtocol).rpcs.map((r) => r.name));
    const again: string[] = [];
    await coverageCommand({ cases: "cases", json: true }, { stdout: (l) => again.push(l), stderr: () => {} });
    expect(again).toEqual(lines);
  });
});
