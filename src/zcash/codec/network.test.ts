import { describe, expect, test } from "@jest/globals";
import { chainTest, readChainText } from "../../../test/chain-data.js";
import { decodeBlock } from "./block.js";
import { zebraBlockFiles } from "./chain-files.test-helper.js";
import {
  BRANCH_IDS,
  UPGRADES,
  UPGRADE_NAMES,
  branchIdAt,
  branchIdHex,
  isActive,
  mainnet,
  networkByName,
  regtest,
  regtestWith,
  testnet,
  upgradeAt,
} from "./network.js";

/** The JSON body of an insta snapshot (after the second `---`). */
function snapshotJson(name: string): unknown {
  const text = readChainText("zebra", "rpc-snapshots", name);
  return JSON.parse(text.split(/^---$/m).slice(2).join("---"));
}

describe("network parameters", () => {
  for (const [net, file] of [
    [mainnet, "get_blockchain_info@mainnet_10.snap"],
    [testnet, "get_blockchain_info@testnet_10.snap"],
  ] as const) {
    chainTest(`${net.name}: upgrades, heights and branch ids equal Zebra's getblockchaininfo`, () => {
      const info = snapshotJson(file) as { chain: string; upgrades: unknown };
      expect(info.chain).toBe(net.rpcName);
      const expected = Object.entries(info.upgrades as Record<string, { name: string; activationheight: number }>).map(([id, u]) => [
        id,
        u.name,
        u.activationheight,
      ]);
      const ours = UPGRADES.map((u) => [branchIdHex(BRANCH_IDS[u]), UPGRADE_NAMES[u], net.activationHeights[u]]);
      expect(ours).toEqual(expected);
    });
  }

  chainTest("every real v5 transaction commits to the branch id the network gives at its block's height", () => {
    let checked = 0;
    for (const f of zebraBlockFiles()) {
      const net = f.network === "mainnet" ? mainnet : testnet;
      for (const bytes of f.blocks) {
        const block = decodeBlock(bytes);
        for (const tx of block.transactions) {
          if (tx.version !== 5) continue;
          expect(`${f.rel}: ${branchIdHex(tx.consensusBranchId!)}`).toBe(`${f.rel}: ${branchIdHex(branchIdAt(net, block.height!))}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  test("activation boundaries", () => {
    expect(upgradeAt(mainnet, 347_499)).toBeUndefined();
    expect(branchIdAt(mainnet, 347_499)).toBe(0);
    expect(upgradeAt(mainnet, 347_500)).toBe("overwinter");
    expect(upgradeAt(mainnet, 1_687_103)).toBe("canopy");
    expect(upgradeAt(mainnet, 1_687_104)).toBe("nu5");
    expect(branchIdHex(branchIdAt(testnet, 1_842_420))).toBe("c2d6d0b4");
    expect(isActive(testnet, "sapling", 279_999)).toBe(false);
    expect(isActive(testnet, "sapling", 280_000)).toBe(true);
  });

  test("regtest: Overwinter through NU6.1 at height 1, later upgrades unscheduled", () => {
    expect(regtest.rpcName).toBe("regtest");
    expect(upgradeAt(regtest, 0)).toBeUndefined();
    expect(upgradeAt(regtest, 1)).toBe("nu6_1");
    expect(upgradeAt(regtest, 10_000_000)).toBe("nu6_1");
    expect(regtest.activationHeights.nu6_2).toBeUndefined();
    const custom = regtestWith({ overwinter: 1, sapling: 1, blossom: 1, heartwood: 1, canopy: 1, nu5: 100 });
    expect(upgradeAt(custom, 99)).toBe("canopy");
    expect(upgradeAt(custom, 100)).toBe("nu5");
    expect(() => regtestWith({ sapling: 10, canopy: 5 })).toThrow("below an earlier upgrade");
    expect(() => regtestWith({ nu5: 0 })).toThrow(">= 1");
  });

  test("address prefixes and names", () => {
    expect([...mainnet.p2pkhPrefix, ...mainnet.p2shPrefix]).toEqual([0x1c, 0xb8, 0x1c, 0xbd]);
    expect([...testnet.p2pkhPrefix, ...testnet.p2shPrefix]).toEqual([0x1d, 0x25, 0x1c, 0xba]);
    expect([...regtest.p2pkhPrefix, ...regtest.p2shPrefix]).toEqual([0x1d, 0x25, 0x1c, 0xba]);
    expect(networkByName("testnet")).toBe(testnet);
    expect(() => networkByName("main")).toThrow('unknown network "main"');
  });
});
