// Served from real blocks (../shared/chain-data): the oracle's compact blocks equal the
// reference server's GetBlock answers and the decoder's compactBlock of the same raw
// block (chainMetadata as the oracle knows it, from getblock's `trees`); ranges, nullifier
// variants, transactions and tree states agree with the server too.
import { toBinary } from "@bufbuild/protobuf";
import { PoolType, ShieldedProtocol } from "../gen/walletrpc/service_pb.js";
import { describe, expect } from "@jest/globals";
import { chainPath, chainTest } from "../../../test/chain-data.js";
import { CompactBlockSchema } from "../gen/walletrpc/compact_formats_pb.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { loadRealChain } from "../fixture/chain/real.js";
import { oneBlockChain, saplingTestnetChain } from "../fixture/grpc/chains.test-helper.js";
import { startFixtureNetwork } from "../fixture/network.js";
import { grpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { ALL_POOL_TYPES, bytesToHex, compactBlock, decodeBlock } from "../codec/index.js";
import { deriveFromOracle } from "./derive.js";
import { derived, expectSameAnswer, request } from "./oracle.test-helper.js";

/** trees.*.size of `getblock <h> 1`, as the oracle reads them. */
async function treeSizes(oracle: JsonRpcTarget, height: number): Promise<{ sapling: number; orchard: number }> {
  const body = JSON.parse(Buffer.from((await oracle.call("getblock", [String(height), 1])).body).toString("utf8")) as {
    result: { trees: { sapling?: { size: number }; orchard?: { size: number } } };
  };
  return { sapling: body.result.trees.sapling?.size ?? 0, orchard: body.result.trees.orchard?.size ?? 0 };
}

async function servedFromRealBlocks(model: ChainModel): Promise<void> {
  const net = await startFixtureNetwork({ chain: model, profiles: ["reference"] });
  const oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
  const server = grpcTarget({ url: net.grpc.reference! });
  const derive = deriveFromOracle(oracle);
  try {
    const { baseHeight, tipHeight } = model;
    for (let h = baseHeight; h <= tipHeight; h++) {
      // Height 0 means "unspecified": the genesis block is asked for by its hash.
      const id = h === 0 ? { hash: model.blockAt(0)!.block.hash } : { height: BigInt(h) };
      const mine = await expectSameAnswer(derive, server, "GetBlock", request("GetBlock", id));
      const raw = model.blockAt(h)!.raw;
      const decoder = compactBlock(decodeBlock(raw), { poolTypes: ALL_POOL_TYPES, chainMetadata: await treeSizes(oracle, h), height: h });
      expect({ height: h, bytes: bytesToHex(mine.messages[0]!) }).toEqual({ height: h, bytes: bytesToHex(toBinary(CompactBlockSchema, decoder)) });

      await expectSameAnswer(derive, server, "GetBlockNullifiers", request("GetBlockNullifiers", id));
      await expectSameAnswer(derive, server, "GetTreeState", request("GetTreeState", id));
      for (const txid of model.blockAt(h)!.block.txids) await expectSameAnswer(derive, server, "GetTransaction", request("GetTransaction", { hash: txid }));
    }
    const [lo, hi] = [BigInt(baseHeight), BigInt(tipHeight)];
    for (const name of ["GetBlockRange", "GetBlockRangeNullifiers"] as const) {
      for (const poolTypes of [[], [...ALL_POOL_TYPES]]) {
        const all = await expectSameAnswer(derive, server, name, request(name, { start: { height: lo }, end: { height: hi }, poolTypes }));
        expect(all.messages).toHaveLength(tipHeight - baseHeight + 1);
        await expectSameAnswer(derive, server, name, request(name, { start: { height: hi }, end: { height: lo }, poolTypes }));
      }
    }
    await expectSameAnswer(derive, server, "GetLatestBlock", request("GetLatestBlock"));
    await expectSameAnswer(derive, server, "GetLatestTreeState", request("GetLatestTreeState"));
    for (const poolTypes of [[], [PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD]]) {
      await expectSameAnswer(derive, server, "GetMempoolTx", request("GetMempoolTx", { poolTypes }));
    }
    await expectSameAnswer(derive, server, "GetMempoolStream", request("GetMempoolStream"));
    for (const shieldedProtocol of [ShieldedProtocol.sapling, ShieldedProtocol.orchard]) {
      await expectSameAnswer(derive, server, "GetSubtreeRoots", request("GetSubtreeRoots", { shieldedProtocol }));
    }
    const latest = await derived(derive, "GetBlock", request("GetBlock", { height: hi + 1n }));
    expect(latest.code).not.toBe(0);
  } finally {
    await server.close();
    await oracle.close();
    await net.close();
  }
}

describe("served from real blocks", () => {
  chainTest("mainnet 0-20 (lightwalletd test data)", async () => {
    await servedFromRealBlocks(loadRealChain(chainPath("lightwalletd", "mainnet-0-20.blocks.txt")));
  });

  chainTest("testnet 289460-289465: Sapling spends and outputs, seeded subtrees, a mempool of real v4/v5 transactions", async () => {
    await servedFromRealBlocks(saplingTestnetChain());
  });

  chainTest("testnet 1842421 and 1842462: Orchard actions beside Sapling spends and transparent inputs", async () => {
    await servedFromRealBlocks(oneBlockChain("testnet", 1842421));
    await servedFromRealBlocks(oneBlockChain("testnet", 1842462));
  });

  for (const net of ["mainnet", "testnet"] as const) {
    chainTest(`${net} 0-10 (zebra test vectors)`, async () => {
      await servedFromRealBlocks(loadRealChain(chainPath("zebra", "blocks", net), { network: net, from: 0, to: 10, trees: {} }));
    });
  }
});
