import { describe, expect, test } from "@jest/globals";
import { defaultRecipe, ZEBRA_REGTEST_ADDRESSES } from "./regtest-chain.js";
import { FIRST_ROUND_TIP, MIN_FIRST_STRETCH, p2shAddress, transactSplit, walletKeys } from "./regtest-transact.js";
import { addressNetwork, decodeTransparentAddress } from "../codec/index.js";
import { hash160, isCoinbaseMature } from "../wallet/index.js";

const miner = walletKeys().miner.address;

describe("transactSplit", () => {
  test("the first round is sent once the coinbases it spends (heights 1 to 5) are mature, and not before", () => {
    expect(isCoinbaseMature(5, FIRST_ROUND_TIP)).toBe(true);
    expect(isCoinbaseMature(5, FIRST_ROUND_TIP - 1)).toBe(false);
    expect(isCoinbaseMature(6, FIRST_ROUND_TIP)).toBe(false);
  });

  test("the default recipe's transparent stretch holds the rounds, and the rest of it follows them", () => {
    const recipe = defaultRecipe({ minerAddress: miner });
    const split = transactSplit(recipe);
    expect(split.before).toBe(FIRST_ROUND_TIP);
    expect(split.before + 2 + split.after).toBe(recipe.stretches[0]!.blocks);
  });

  test("a first stretch too short for mature coinbases is refused, saying how many blocks it needs", () => {
    expect(() => transactSplit(defaultRecipe({ blocks: MIN_FIRST_STRETCH + 2, minerAddress: miner }))).toThrow(`at least ${MIN_FIRST_STRETCH} blocks`);
    expect(transactSplit(defaultRecipe({ blocks: MIN_FIRST_STRETCH, minerAddress: miner, shielded: false })).after).toBe(0);
  });

  test("coinbases paid to an address whose key the wallet does not hold are refused", () => {
    expect(() => transactSplit(defaultRecipe({ minerAddress: ZEBRA_REGTEST_ADDRESSES.transparent }))).toThrow(miner);
  });

  test("the P2SH address hashes the other key's P2PKH script, encoded for regtest", () => {
    const decoded = decodeTransparentAddress(p2shAddress(), walletKeys().other.network);
    expect(decoded.kind).toBe("p2sh");
    expect(decoded.hash).toEqual(hash160(walletKeys().other.scriptPubKey));
    expect(addressNetwork(p2shAddress())).toBe("testnet");
  });

  test("the two keys are distinct regtest P2PKH addresses", () => {
    const { miner: m, other } = walletKeys();
    expect(m.address).not.toBe(other.address);
    expect([m.address, other.address].every((a) => a.startsWith("tm"))).toBe(true);
  });
});
