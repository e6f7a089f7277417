// Against the embedded fixture network, every answer of the reference server is the
// answer the oracle derives from the fixture's Zebra-style JSON-RPC, byte for byte: a
// broad set of requests for every rpc, including the error statuses (compared by code).
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { BlockIDSchema, LightdInfoSchema, PoolType, ShieldedProtocol, type LightdInfo } from "../gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { wireFromDisplay } from "../codec/index.js";
import { deriveFromOracle } from "./derive.js";
import { derived, divergences, brief, expectSameAnswer, plannedCase, request as req, rpcOf, type Req } from "./oracle.test-helper.js";
import type { GrpcDeriver } from "./source.js";
import { UNDERIVABLE, type RpcName } from "./underivable.js";

let net: FixtureNetwork;
let oracle: JsonRpcTarget;
let server: GrpcTarget;
let derive: GrpcDeriver;
let a: Record<string, number | string>;
let tip: bigint;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"], mempoolStreamHoldMs: 5 });
  oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
  server = grpcTarget({ url: net.grpc.reference! });
  derive = deriveFromOracle(oracle);
  a = net.anchors;
  tip = BigInt(net.model.tipHeight);
});

afterAll(async () => {
  await server.close();
  await oracle.close();
  await net.close();
});

type Row = [Req, { error?: boolean; unordered?: boolean }?];
const ok = (r: Req): Row => [r];
const err = (r: Req): Row => [r, { error: true }];

async function all(name: RpcName, rows: Row[]): Promise<void> {
  for (const [r, o] of rows) await expectSameAnswer(derive, server, name, r, o ?? {});
}

const h = (name: string) => BigInt(a[name] as number);
const hashOf = (height: number | bigint) => net.model.blockAt(Number(height))!.block.hash;
const txidBytes = (name: string) => wireFromDisplay(a[name] as string);
const unknownHash = () => new Uint8Array(32).fill(0x5a);

describe("blocks", () => {
  test("GetLatestBlock", async () => {
    const mine = await expectSameAnswer(derive, server, "GetLatestBlock", req("GetLatestBlock"));
    expect(fromBinary(BlockIDSchema, mine.messages[0]!).height).toBe(tip);
  });

  test("GetBlock: by height and by LE hash, every kind of block; bad ids", async () => {
    const heights = [
      1n,
      h("block_with_joinsplits"),
      h("sapling_activation"),
      h("block_with_sapling_outputs"),
      h("block_with_sapling_spends"),
      h("nu5_activation"),
      h("block_with_orchard_actions"),
      h("block_many_txs"),
      h("block_coinbase_only"),
      tip,
    ];
    await all("GetBlock", [
      ...heights.map((height) => ok(req("GetBlock", { height }))),
      ok(req("GetBlock", { hash: hashOf(0) })),
      ok(req("GetBlock", { hash: hashOf(h("block_with_orchard_actions")), height: 7n })),
      ok(toBinary(BlockIDSchema, req("GetBlock", { height: h("block_many_txs") }) as never)),
      err(req("GetBlock", {})),
      err(req("GetBlock", { height: tip + 1n })),
      err(req("GetBlock", { height: 1n << 32n })),
      err(req("GetBlock", { hash: new Uint8Array(5) })),
      err(req("GetBlock", { hash: unknownHash() })),
    ]);
  });

  test("GetBlockNullifiers: spends, actions, outputs-only transactions; bad ids", async () => {
    await all("GetBlockNullifiers", [
      ...[h("block_with_sapling_outputs"), h("block_with_sapling_spends"), h("block_with_orchard_actions"), h("block_many_txs"), 3n, tip].map((height) =>
        ok(req("GetBlockNullifiers", { height })),
      ),
      ok(req("GetBlockNullifiers", { hash: hashOf(h("block_many_txs")) })),
      err(req("GetBlockNullifiers", {})),
      err(req("GetBlockNullifiers", { height: tip + 1n })),
      err(req("GetBlockNullifiers", { hash: new Uint8Array(31) })),
    ]);
  });

  const range = (start: bigint | undefined, end: bigint | undefined, poolTypes: PoolType[] = []) =>
    req("GetBlockRange", { ...(start === undefined ? {} : { start: { height: start } }), ...(end === undefined ? {} : { end: { height: end } }), poolTypes });
  const P = PoolType;

  test("GetBlockRange: ascending, descending, the whole chain, every pool filter; past the tip; bad requests", async () => {
    const filters: PoolType[][] = [
      [],
      [P.TRANSPARENT],
      [P.SAPLING],
      [P.ORCHARD],
      [P.IRONWOOD],
      [P.TRANSPARENT, P.SAPLING, P.ORCHARD, P.IRONWOOD],
      [P.SAPLING, P.SAPLING, P.ORCHARD, P.TRANSPARENT],
    ];
    await all("GetBlockRange", [
      ok(range(0n, tip)),
      ok(range(tip, 0n, [P.TRANSPARENT, P.SAPLING, P.ORCHARD])),
      ...filters.flatMap((f) => [ok(range(0n, 20n, f)), ok(range(120n, 95n, f))]),
      ok(range(h("block_many_txs"), h("block_many_txs"))),
      ok(range(0n, 0n, [P.TRANSPARENT])),
      err(range(tip - 3n, tip + 3n)),
      err(range(tip + 2n, tip - 2n)),
      err(range((1n << 64n) - 1n, 0n)),
      err(range(undefined, 5n)),
      err(range(5n, undefined)),
      err(range(1n, 5n, [P.POOL_TYPE_INVALID])),
      err(range(1n, 5n, [P.SAPLING, 9 as PoolType])),
    ]);
  });

  test("GetBlockRangeNullifiers: both directions, TRANSPARENT ignored; past the tip", async () => {
    const nf = (start: bigint, end: bigint, poolTypes: PoolType[] = []) =>
      req("GetBlockRangeNullifiers", { start: { height: start }, end: { height: end }, poolTypes });
    await all("GetBlockRangeNullifiers", [
      ok(nf(0n, tip)),
      ok(nf(120n, 95n)),
      ok(nf(95n, 120n, [P.TRANSPARENT])),
      ok(nf(120n, 95n, [P.TRANSPARENT, P.ORCHARD])),
      ok(nf(9n, 14n, [P.SAPLING])),
      err(nf(tip - 1n, tip + 1n)),
      err(nf(3n, 4n, [P.POOL_TYPE_INVALID])),
    ]);
  });
});

describe("transactions", () => {
  test("GetTransaction: mined transactions of every kind, mempool transactions (height 0); bad txids", async () => {
    const names = ["txid_coinbase", "txid_transparent", "txid_sprout", "txid_sapling_v4", "txid_sapling_v5", "txid_orchard_v5"];
    await all("GetTransaction", [
      ...names.map((n) => ok(req("GetTransaction", { hash: txidBytes(n) }))),
      ...net.model.mempool.map((t) => ok(req("GetTransaction", { hash: t.txid }))),
      err(req("GetTransaction", {})),
      err(req("GetTransaction", { block: { height: 5n, hash: hashOf(5) } })),
      err(req("GetTransaction", { hash: new Uint8Array(31) })),
      err(req("GetTransaction", { hash: unknownHash() })),
    ]);
  });

  test("SendTransaction: bytes that are no transaction come back as the node's rejection; empty data", async () => {
    await all("SendTransaction", [
      ok(req("SendTransaction", { data: Uint8Array.of(1, 2, 3, 4, 5) })),
      ok(req("SendTransaction", { data: new Uint8Array(100).fill(0xee) })),
      err(req("SendTransaction", {})),
    ]);
  });
});

describe("transparent addresses", () => {
  const addr = (n: string) => a[n] as string;
  const bad = "t!badaddress-with-wrong-characters!!";

  test("GetTaddressTxids / GetTaddressTransactions: ranges, open ends, past the tip; bad requests", async () => {
    const f = (address: string, start?: bigint, end?: bigint, hasRange = true) => ({
      address,
      ...(hasRange ? { range: { ...(start === undefined ? {} : { start: { height: start } }), ...(end === undefined ? {} : { end: { height: end } }) } } : {}),
    });
    for (const name of ["GetTaddressTxids", "GetTaddressTransactions"] as const) {
      const rows: Row[] = [];
      for (const n of ["taddr_with_utxos", "taddr_spent", "taddr_p2sh", "taddr_unused"]) {
        rows.push(ok(req(name, f(addr(n), 0n))), ok(req(name, f(addr(n), 1n, 100n))), ok(req(name, f(addr(n), 100n, 0n))));
      }
      rows.push(
        ok(req(name, f(addr("taddr_with_utxos"), tip, tip))),
        ok(req(name, f(addr("taddr_with_utxos"), 150n, tip + 1000n))),
        ok(req(name, f(addr("taddr_with_utxos"), tip + 5n, tip + 10n))),
        err(req(name, f(addr("taddr_with_utxos"), tip + 5n))),
        err(req(name, f(addr("taddr_with_utxos"), 0n, 0n, false))),
        err(req(name, f(addr("taddr_with_utxos"), undefined, 10n))),
        err(req(name, f(addr("taddr_with_utxos"), 20n, 10n))),
        err(req(name, f(addr("taddr_other_network"), 0n))),
        err(req(name, f(bad, 0n))),
      );
      await all(name, rows);
    }
  });

  test("GetTaddressBalance: one, several, duplicates, unused, none; bad addresses", async () => {
    await all("GetTaddressBalance", [
      ok(req("GetTaddressBalance", { addresses: [addr("taddr_with_utxos")] })),
      ok(req("GetTaddressBalance", { addresses: [addr("taddr_with_utxos"), addr("taddr_p2sh"), addr("taddr_spent"), addr("taddr_with_utxos")] })),
      ok(req("GetTaddressBalance", { addresses: [addr("taddr_unused")] })),
      ok(req("GetTaddressBalance", { addresses: [] })),
      err(req("GetTaddressBalance", { addresses: [addr("taddr_with_utxos"), addr("taddr_other_network")] })),
      err(req("GetTaddressBalance", { addresses: [bad] })),
    ]);
  });

  test("GetTaddressBalanceStream: a repeated address counts once; empty stream; bad address", async () => {
    const s = (...xs: string[]) => xs.map((address) => req("GetTaddressBalanceStream", { address }));
    await all("GetTaddressBalanceStream", [
      ok(s(addr("taddr_with_utxos"), addr("taddr_p2sh"), addr("taddr_with_utxos"))),
      ok(s()),
      err(s(addr("taddr_with_utxos"), bad)),
    ]);
  });

  test("GetAddressUtxos / GetAddressUtxosStream: startHeight, maxEntries, several addresses; bad address", async () => {
    for (const name of ["GetAddressUtxos", "GetAddressUtxosStream"] as const) {
      await all(name, [
        ok(req(name, { addresses: [addr("taddr_with_utxos")] })),
        ok(req(name, { addresses: [addr("taddr_with_utxos")], startHeight: 150n })),
        ok(req(name, { addresses: [addr("taddr_with_utxos")], maxEntries: 2 })),
        ok(req(name, { addresses: [addr("taddr_with_utxos")], startHeight: 150n, maxEntries: 1 })),
        ok(req(name, { addresses: [addr("taddr_p2sh"), addr("taddr_with_utxos"), addr("taddr_spent"), addr("taddr_p2sh")] })),
        ok(req(name, { addresses: [addr("taddr_unused")] })),
        ok(req(name, { addresses: [] })),
        ok(req(name, { addresses: [addr("taddr_with_utxos")], startHeight: tip + 1n })),
        err(req(name, { addresses: [bad] })),
      ]);
    }
  });
});

describe("mempool (compared unordered: getrawmempool's order is not the server's)", () => {
  test("GetMempoolTx: pool filters and exclude suffixes; bad requests", async () => {
    const [t0, t1] = net.model.mempool;
    const P = PoolType;
    await all("GetMempoolTx", [
      ok(req("GetMempoolTx", {})),
      ...[[P.TRANSPARENT], [P.SAPLING], [P.ORCHARD], [P.TRANSPARENT, P.SAPLING, P.ORCHARD, P.IRONWOOD]].map((poolTypes) =>
        ok(req("GetMempoolTx", { poolTypes })),
      ),
      ok(req("GetMempoolTx", { excludeTxidSuffixes: [t0!.txid.slice(30)], poolTypes: [P.TRANSPARENT, P.SAPLING, P.ORCHARD] })),
      ok(req("GetMempoolTx", { excludeTxidSuffixes: [t1!.txid, new Uint8Array(0)], poolTypes: [P.TRANSPARENT, P.SAPLING, P.ORCHARD] })),
      err(req("GetMempoolTx", { excludeTxidSuffixes: [new Uint8Array(33)] })),
      err(req("GetMempoolTx", { poolTypes: [P.POOL_TYPE_INVALID] })),
      err(req("GetMempoolTx", { poolTypes: [7 as PoolType] })),
    ]);
  });

  test("GetMempoolStream: the raw mempool transactions with height 0", async () => {
    const mine = await expectSameAnswer(derive, server, "GetMempoolStream", req("GetMempoolStream"));
    expect(mine.messages).toHaveLength(net.model.mempool.length);
  });
});

describe("trees", () => {
  test("GetTreeState: before and after each pool's activation, by height and by LE hash; bad ids", async () => {
    const heights = [
      1n,
      h("pre_sapling"),
      h("sapling_activation"),
      h("block_with_sapling_outputs"),
      h("nu5_activation"),
      h("block_with_orchard_actions"),
      150n,
      tip,
    ];
    await all("GetTreeState", [
      ...heights.map((height) => ok(req("GetTreeState", { height }))),
      ok(req("GetTreeState", { hash: hashOf(h("block_with_orchard_actions")) })),
      ok(req("GetTreeState", { hash: hashOf(0) })),
      err(req("GetTreeState", {})),
      err(req("GetTreeState", { hash: new Uint8Array(5), height: 12n })),
      err(req("GetTreeState", { hash: unknownHash() })),
      err(req("GetTreeState", { height: tip + 1n })),
    ]);
  });

  test("GetLatestTreeState", async () => {
    await expectSameAnswer(derive, server, "GetLatestTreeState", req("GetLatestTreeState"));
  });

  test("GetSubtreeRoots: every protocol, startIndex, maxEntries; an unknown protocol", async () => {
    const S = ShieldedProtocol;
    await all("GetSubtreeRoots", [
      ...[S.sapling, S.orchard, S.ironwood].map((shieldedProtocol) => ok(req("GetSubtreeRoots", { shieldedProtocol }))),
      ok(req("GetSubtreeRoots", { shieldedProtocol: S.sapling, startIndex: 1 })),
      ok(req("GetSubtreeRoots", { shieldedProtocol: S.sapling, maxEntries: 1 })),
      ok(req("GetSubtreeRoots", { shieldedProtocol: S.sapling, startIndex: 1, maxEntries: 5 })),
      ok(req("GetSubtreeRoots", { shieldedProtocol: S.sapling, startIndex: 2 })),
      err(req("GetSubtreeRoots", { shieldedProtocol: S.sapling, startIndex: 70_000 })),
      ok(req("GetSubtreeRoots", { shieldedProtocol: S.orchard, maxEntries: 70_000 })),
      err(req("GetSubtreeRoots", { shieldedProtocol: 7 as ShieldedProtocol })),
    ]);
  });
});

describe("server information", () => {
  test("GetLightdInfo equals the server's once the server's own identity (UNDERIVABLE) is blanked", async () => {
    const rpc = rpcOf("GetLightdInfo");
    const [mine, theirs] = await Promise.all([derived(derive, "GetLightdInfo", req("GetLightdInfo")), server.call(rpc, req("GetLightdInfo"))]);
    const info = fromBinary(LightdInfoSchema, theirs.messages[0]!);
    expect(info.vendor).not.toBe("");
    for (const f of UNDERIVABLE.GetLightdInfo) (info as unknown as Record<string, string>)[f as keyof LightdInfo] = "";
    const blanked = { ...theirs, messages: [toBinary(LightdInfoSchema, info)] };
    expect(brief(divergences("GetLightdInfo", mine, blanked))).toEqual([]);
    expect(fromBinary(LightdInfoSchema, mine.messages[0]!).lightwalletProtocolVersion).toBe("v0.5.0");
  });

  test("Ping is not derived", async () => {
    expect(await derive(plannedCase("Ping", req("Ping", { intervalUs: 10n })))).toBeUndefined();
  });
});

describe("requests as hand-built wire bytes", () => {
  test("bytes that parse are read as a server reads them; bytes that do not leave the answer underivable", async () => {
    expect(await derive(plannedCase("GetBlock", Uint8Array.of(0xff, 0xff)))).toBeUndefined();
    // BlockRange with an explicitly present, empty start (height 0) and end 2.
    await expectSameAnswer(derive, server, "GetBlockRange", Uint8Array.of(0x0a, 0x00, 0x12, 0x02, 0x08, 0x02));
  });
});
