// The mover that drives a regtest zebrad through its JSON-RPC, here driving the fixture's
// moving node, which answers the same methods (generate, invalidateblock): blocks, and
// reorganizations whose orphaned blocks are the ones the node named before, followed by
// the emulated builds as the fixture's own mover's are. Its transactions (the wallet's
// spends of a regtest miner's coinbases) need a real zebrad: test/real-scenario.test.ts.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadChainProfile } from "../../core/corpus/chain-profile.js";
import { loadCorpus } from "../../core/corpus/load.js";
import { SHIPPED_CASES } from "../../core/corpus/shipped.js";
import { loadLedger } from "../../core/ledger/quirk.js";
import { loadScenarios } from "../../core/scenario/load.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { join } from "node:path";
import { runScenariosOn } from "../../modes/scenario/run.js";
import { fixtureDeadlineMs } from "../fixture/deadline.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { lightwalletProtocol } from "../protocol.js";
import { nodeCall, type NodeCall } from "../real/node-call.js";
import { zebradMover } from "./zebrad-mover.js";

let net: FixtureNetwork;
let target: JsonRpcTarget;
let rpc: NodeCall;
beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference", "lightwalletd", "zaino-0.10.1"], moving: {} });
  target = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
  rpc = nodeCall(target, "the fixture's node");
});
afterAll(async () => {
  await target.close();
  await net.close();
});

describe("the zebrad mover on the fixture's node", () => {
  test("mines on the tip, and a reorganization of depth 2 drops the two blocks the node named and mines three others", async () => {
    const mover = zebradMover(rpc);
    const start = await mover.tip();
    expect(start).toEqual({ height: net.moving!.model.tipHeight, hash: await rpc<string>("getblockhash", [start.height]) });
    const one = await mover.mine();
    expect(one.height).toBe(start.height + 1);
    const named = [await rpc<string>("getblockhash", [one.height - 1]), one.hash];
    const r = await mover.reorg(2, []);
    expect(r.forkPoint).toBe(one.height - 2);
    expect(r.orphaned).toEqual(named);
    expect(r.tip.height).toBe(one.height + 1);
    const now = [await rpc<string>("getblockhash", [r.forkPoint + 1]), await rpc<string>("getblockhash", [r.forkPoint + 2])];
    expect(now.filter((h) => named.includes(h))).toEqual([]);
    // The node's own JSON-RPC no longer finds an orphaned block by its hash.
    await expect(rpc("getblock", [named[1], 1])).rejects.toThrow(/getblock: error -/);
  });

  test("invalidateblock of a hash the chain does not hold is refused as zebrad refuses it", async () => {
    await expect(rpc("invalidateblock", ["00".repeat(32)])).rejects.toThrow(
      `invalidateblock: error -1: block hash ${"00".repeat(32)} not found in any non-finalized chain`,
    );
  });

  test("the reorganization scenarios without transactions run on it to their end, every build converging", async () => {
    const corpus = loadCorpus(SHIPPED_CASES, lightwalletProtocol);
    const scenarios = loadScenarios(SHIPPED_CASES, { methods: lightwalletProtocol, corpus }).filter((s) =>
      ["reorg-depth-3", "stream-across-reorg"].includes(s.id),
    );
    expect(scenarios).toHaveLength(2);
    const records = await runScenariosOn(
      {
        builds: net.builds({ deadlineMs: await fixtureDeadlineMs(net) }),
        oracle: { url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } },
        mover: zebradMover(rpc),
      },
      { scenarios, chain: loadChainProfile(SHIPPED_CASES, "fixture"), ledger: loadLedger(join(SHIPPED_CASES, "quirks.yaml")) },
    );
    for (const r of records) expect(r.error).toBeUndefined();
    const cells = records.flatMap((r) => r.steps.flatMap((s) => s.checks.flatMap((c) => c.builds.map((b) => `${r.id} ${c.id} ${b.build} ${b.outcome}`))));
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter((c) => !/ (pass|known)$/.test(c))).toEqual([]);
  }, 120_000);
});
