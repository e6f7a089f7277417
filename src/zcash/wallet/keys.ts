// Deterministic transparent keys for test chains: a label names a key, so a regtest
// miner address and the wallet that spends its coinbase agree without any key file.
// Such keys are public by construction and must never hold real funds.
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeTransparentAddress, networkByName, type NetworkName, type NetworkParams } from "../codec/index.js";

export interface WalletKey {
  label: string;
  network: NetworkParams;
  /** 32-byte secp256k1 secret scalar. */
  secretKey: Uint8Array;
  /** 33-byte compressed public key. */
  publicKey: Uint8Array;
  /** HASH160 (RIPEMD-160 of SHA-256) of the compressed public key. */
  pubKeyHash: Uint8Array;
  /** The P2PKH scriptPubKey paying this key. */
  scriptPubKey: Uint8Array;
  /** The P2PKH t-address (regtest uses testnet's "tm" prefix). */
  address: string;
}

const encoder = new TextEncoder();

/** The key a label names: SHA-256 of "zconform wallet key:" + label, rehashed in the (~2^-128) case it is not a valid scalar. */
export function walletKey(label: string, network: NetworkParams | NetworkName): WalletKey {
  if (label.length === 0) throw new RangeError("walletKey needs a non-empty label (it names the key)");
  const net = typeof network === "string" ? networkByName(network) : network;
  let secretKey = sha256(encoder.encode(`zconform wallet key:${label}`));
  while (!secp256k1.utils.isValidSecretKey(secretKey)) secretKey = sha256(secretKey);
  const publicKey = secp256k1.getPublicKey(secretKey, true);
  const pubKeyHash = hash160(publicKey);
  return {
    label,
    network: net,
    secretKey,
    publicKey,
    pubKeyHash,
    scriptPubKey: p2pkhScript(pubKeyHash),
    address: encodeTransparentAddress({ kind: "p2pkh", hash: pubKeyHash }, net),
  };
}

export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG. */
export function p2pkhScript(pubKeyHash: Uint8Array): Uint8Array {
  if (pubKeyHash.length !== 20) throw new RangeError(`a P2PKH script needs a 20-byte key hash, got ${pubKeyHash.length}`);
  return Uint8Array.of(0x76, 0xa9, 0x14, ...pubKeyHash, 0x88, 0xac);
}
