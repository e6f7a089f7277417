// Transparent addresses (P2PKH "t1"/"tm", P2SH "t3"/"t2") and their standard scripts.
import { base58CheckDecode, base58CheckEncode, Base58Error } from "./base58.js";
import { bytesToHex } from "./bytes.js";
import { mainnet, testnet, type NetworkParams } from "./network.js";

export type TransparentKind = "p2pkh" | "p2sh";

export interface TransparentAddress {
  kind: TransparentKind;
  /** The 20-byte HASH160 of the public key or redeem script. */
  hash: Uint8Array;
}

/** Why an address was rejected: "character", "checksum", "length" or "prefix". */
export type AddressProblem = "character" | "checksum" | "length" | "prefix";

export class AddressError extends Error {
  readonly problem: AddressProblem;
  constructor(address: string, problem: AddressProblem, detail: string) {
    super(`invalid transparent address ${JSON.stringify(address)}: ${detail}`);
    this.name = "AddressError";
    this.problem = problem;
  }
}

function prefixOf(kind: TransparentKind, network: NetworkParams): Uint8Array {
  return kind === "p2pkh" ? network.p2pkhPrefix : network.p2shPrefix;
}

export function encodeTransparentAddress(addr: TransparentAddress, network: NetworkParams): string {
  if (addr.hash.length !== 20) throw new RangeError(`a transparent address hash is 20 bytes, got ${addr.hash.length}`);
  const payload = new Uint8Array(22);
  payload.set(prefixOf(addr.kind, network));
  payload.set(addr.hash, 2);
  return base58CheckEncode(payload);
}

function describePrefix(p: Uint8Array): string {
  for (const net of [mainnet, testnet]) {
    for (const kind of ["p2pkh", "p2sh"] as const) {
      const q = prefixOf(kind, net);
      if (p[0] === q[0] && p[1] === q[1]) return `the ${net === mainnet ? "mainnet" : "testnet/regtest"} ${kind.toUpperCase()} prefix`;
    }
  }
  return "not a transparent address prefix";
}

/** Decodes an address of `network`; the error says what is wrong (character, checksum, length, prefix). */
export function decodeTransparentAddress(address: string, network: NetworkParams): TransparentAddress {
  let payload: Uint8Array;
  try {
    payload = base58CheckDecode(address);
  } catch (e) {
    if (!(e instanceof Base58Error)) throw e;
    const problem: AddressProblem = e.message.startsWith("bad character") ? "character" : e.message === "bad checksum" ? "checksum" : "length";
    throw new AddressError(address, problem, e.message);
  }
  if (payload.length !== 22) {
    throw new AddressError(address, "length", `decodes to ${payload.length} bytes, expected 22 (2-byte prefix + 20-byte hash)`);
  }
  const p = payload.subarray(0, 2);
  for (const kind of ["p2pkh", "p2sh"] as const) {
    const q = prefixOf(kind, network);
    if (p[0] === q[0] && p[1] === q[1]) return { kind, hash: payload.slice(2) };
  }
  throw new AddressError(address, "prefix", `prefix 0x${bytesToHex(p)} (${describePrefix(p)}) is not valid on ${network.name}`);
}

/** The network an address belongs to by its prefix (regtest shares testnet's), or undefined. */
export function addressNetwork(address: string): "mainnet" | "testnet" | undefined {
  for (const net of [mainnet, testnet]) {
    try {
      decodeTransparentAddress(address, net);
      return net.name as "mainnet" | "testnet";
    } catch {
      // try the next network
    }
  }
  return undefined;
}

/** The address a standard P2PKH (76a914{20}88ac) or P2SH (a914{20}87) script pays, else undefined. */
export function addressFromScript(script: Uint8Array, network: NetworkParams): string | undefined {
  const s = script;
  if (s.length === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 0x14 && s[23] === 0x88 && s[24] === 0xac) {
    return encodeTransparentAddress({ kind: "p2pkh", hash: s.subarray(3, 23) }, network);
  }
  if (s.length === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87) {
    return encodeTransparentAddress({ kind: "p2sh", hash: s.subarray(2, 22) }, network);
  }
  return undefined;
}

/** The standard scriptPubKey paying an address of `network`. */
export function scriptFromAddress(address: string, network: NetworkParams): Uint8Array {
  const { kind, hash } = decodeTransparentAddress(address, network);
  if (kind === "p2pkh") return Uint8Array.of(0x76, 0xa9, 0x14, ...hash, 0x88, 0xac);
  return Uint8Array.of(0xa9, 0x14, ...hash, 0x87);
}
