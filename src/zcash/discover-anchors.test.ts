// A chain's anchors read over JSON-RPC from the node that serves it, checked against the
// anchors the fixture computes from its own chain model: the blocks travel as raw hex
// through getblock, are decoded again and give the same heights, hashes, txids and
// addresses. Tree sizes differ on purpose: the synthetic chain seeds its trees with leaves
// no block holds, which no node could show.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { jsonRpcTarget, type JsonRpcTarget } from "../core/targets/jsonrpc.js";
import { startFixtureNetwork, type FixtureNetwork } from "./fixture/network.js";
import { discoverAnchors, type Rpc } from "./discover-anchors.js";
import { jsonRpcResult } from "./start-facts.js";

const SEEDED_TREES = ["sapling_tree_size", "orchard_tree_size", "sapling_subtrees", "orchard_subtrees"];

describe("anchors read from the oracle's chain", () => {
  let net: FixtureNetwork;
  let target: JsonRpcTarget;
  let rpc: Rpc;

  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference"] });
    target = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, { deadlineMs: 30_000 });
    rpc = async (method, params) => {
      const a = jsonRpcResult(await target.call(method, params, { deadlineMs: 30_000 }));
      if ("failure" in a) throw new Error(a.failure);
      return a.result;
    };
  });
  afterAll(async () => {
    await target.close();
    await net.close();
  });

  test("every anchor the blocks and the mempool can show is the one the chain model has", async () => {
    const activations = Object.fromEntries(Object.entries(net.anchors).filter(([k]) => k.endsWith("_activation")));
    const found = await discoverAnchors(rpc, activations);
    if ("failure" in found) throw new Error(found.failure);
    const { anchors } = found;
    const comparable = (a: Record<string, number | string>) =>
      Object.fromEntries(Object.entries(a).filter(([k]) => !SEEDED_TREES.includes(k) && k !== "txid_mempool"));
    expect(comparable(anchors)).toEqual(comparable(net.anchors));
    // The mempool's first transaction is the least txid (two runs agree), one of those the node holds.
    const pool = (await rpc("getrawmempool", [])) as string[];
    expect(anchors.txid_mempool).toBe([...pool].sort()[0]);
    expect(anchors.block_with_orchard_actions).toBeDefined();
    expect(anchors.taddr_with_utxos).toBeDefined();
  }, 120_000);

  test("the profile's own anchors win over what the blocks say", async () => {
    const activations = Object.fromEntries(Object.entries(net.anchors).filter(([k]) => k.endsWith("_activation")));
    const mine = Number(net.anchors.block_many_txs) - 1;
    const found = await discoverAnchors(rpc, { ...activations, block_many_txs: mine });
    if ("failure" in found) throw new Error(found.failure);
    expect(found.anchors.block_many_txs).toBe(mine);
    expect(found.anchors.block_many_txs_hash).toBe(net.anchors.block_many_txs_hash);
  }, 120_000);

  test("a node that will not answer gives a reason, not an exception", async () => {
    const refusing: Rpc = async (method) => {
      throw new Error(`${method}: connect ECONNREFUSED`);
    };
    expect(await discoverAnchors(refusing, {})).toEqual({ failure: "reading the chain's anchors from the oracle: getblockcount: connect ECONNREFUSED" });
    const long: Rpc = async () => 1_000_000;
    expect(await discoverAnchors(long, {})).toEqual({ failure: expect.stringContaining("the chain has 1000001 blocks") });
  });
});
