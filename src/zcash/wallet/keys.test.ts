import { describe, expect, test } from "@jest/globals";
import { createHash } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { addressFromScript, bytesToHex, decodeTransparentAddress, mainnet, regtest, scriptFromAddress, testnet } from "../codec/index.js";
import { walletKey } from "./keys.js";

describe("walletKey", () => {
  test("the same label gives the same key; another label another key", () => {
    const a = walletKey("miner", "regtest");
    expect(bytesToHex(walletKey("miner", regtest).secretKey)).toBe(bytesToHex(a.secretKey));
    expect(bytesToHex(walletKey("alice", regtest).secretKey)).not.toBe(bytesToHex(a.secretKey));
  });

  test("the secret is SHA-256 of the prefixed label, and the public key is its compressed point", () => {
    const k = walletKey("miner", regtest);
    const expected = createHash("sha256").update("zconform wallet key:miner").digest("hex");
    expect(bytesToHex(k.secretKey)).toBe(expected);
    expect(k.publicKey).toHaveLength(33);
    expect([0x02, 0x03]).toContain(k.publicKey[0]);
    expect(bytesToHex(k.publicKey)).toBe(bytesToHex(secp256k1.getPublicKey(k.secretKey, true)));
  });

  test("the key hash is RIPEMD-160(SHA-256(pubkey)), computed here with node:crypto", () => {
    const k = walletKey("miner", regtest);
    const sha = createHash("sha256").update(k.publicKey).digest();
    expect(bytesToHex(k.pubKeyHash)).toBe(createHash("ripemd160").update(sha).digest("hex"));
  });

  test("the address is a P2PKH address of the network, paying the key's script", () => {
    for (const net of [regtest, testnet, mainnet]) {
      const k = walletKey("miner", net);
      expect(k.address.startsWith(net === mainnet ? "t1" : "tm")).toBe(true);
      const decoded = decodeTransparentAddress(k.address, net);
      expect(decoded.kind).toBe("p2pkh");
      expect(bytesToHex(decoded.hash)).toBe(bytesToHex(k.pubKeyHash));
      expect(bytesToHex(scriptFromAddress(k.address, net))).toBe(bytesToHex(k.scriptPubKey));
      expect(addressFromScript(k.scriptPubKey, net)).toBe(k.address);
    }
    expect(walletKey("miner", regtest).address).toBe(walletKey("miner", testnet).address);
  });

  test("an empty label is refused", () => {
    expect(() => walletKey("", regtest)).toThrow(/non-empty label/);
  });
});
