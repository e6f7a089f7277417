import { expect, test } from "@jest/globals";
import { decodeTransparentAddress, regtest } from "../codec/index.js";
import { DEFAULT_ACTIVATION_HEIGHTS, defaultRecipe, ZEBRA_REGTEST_ADDRESSES } from "./regtest-chain.js";

test("every upgrade through NU6.1 is active before the transparent stretch ends; shielded coinbases come last", () => {
  const r = defaultRecipe({ blocks: 300 });
  expect(r.stretches.reduce((n, s) => n + s.blocks, 0)).toBe(300);
  expect(r.stretches[0]!.blocks).toBeGreaterThan(Math.max(...Object.values(DEFAULT_ACTIVATION_HEIGHTS)));
  expect(r.stretches.map((s) => s.pool)).toEqual(["transparent", "orchard", "sapling", "transparent"]);
  expect(r.activationHeights.canopy).toBe(1);
});

test("without shielded coinbases every block pays the miner address; too short a chain is refused", () => {
  expect(defaultRecipe({ blocks: 50, shielded: false, minerAddress: "tmCARZmCu5uxke62UTpxxQ1Rn25adU4nLTX" })).toMatchObject({
    minerAddress: "tmCARZmCu5uxke62UTpxxQ1Rn25adU4nLTX",
    stretches: [{ blocks: 50, pool: "transparent" }],
  });
  expect(() => defaultRecipe({ blocks: 20 })).toThrow(/ends before every upgrade is active/);
});

test("zebrad's default regtest miner address is a testnet-prefix P2PKH address", () => {
  expect(decodeTransparentAddress(ZEBRA_REGTEST_ADDRESSES.transparent, regtest)).toMatchObject({ kind: "p2pkh" });
});

test("a miner address of another network is refused before zebrad would drop it", () => {
  expect(() => defaultRecipe({ minerAddress: "t1LKgEviVhFTFVqq2o6fDYLm2R6Vp2DXe4p" })).toThrow(/must be a regtest transparent address/);
  expect(() => defaultRecipe({ minerAddress: ZEBRA_REGTEST_ADDRESSES.sapling })).toThrow(/must be a regtest transparent address/);
  expect(defaultRecipe({ minerAddress: ZEBRA_REGTEST_ADDRESSES.transparent }).minerAddress).toBe(ZEBRA_REGTEST_ADDRESSES.transparent);
});
