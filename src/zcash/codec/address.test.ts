import { describe, expect, test } from "@jest/globals";
import { chainTest, readChainText, readHexLines } from "../../../test/chain-data.js";
import {
  AddressError,
  addressFromScript,
  addressNetwork,
  decodeTransparentAddress,
  encodeTransparentAddress,
  scriptFromAddress,
  type AddressProblem,
} from "./address.js";
import { base58CheckEncode, base58Decode, base58Encode } from "./base58.js";
import { decodeBlockHex } from "./block.js";
import { bytesToHex, displayHex, hexToBytes } from "./bytes.js";
import { mainnet, regtest, testnet, type NetworkParams } from "./network.js";

function snapshotJson(name: string): unknown {
  return JSON.parse(readChainText("zebra", "rpc-snapshots", name).split(/^---$/m).slice(2).join("---"));
}

function problemOf(address: string, network: NetworkParams): [AddressProblem, string] {
  try {
    decodeTransparentAddress(address, network);
  } catch (e) {
    if (e instanceof AddressError) return [e.problem, e.message];
    throw e;
  }
  throw new Error(`accepted ${address}`);
}

describe("base58", () => {
  test("leading zero bytes become leading 1s and back", () => {
    const bytes = hexToBytes("0000ff01");
    expect(base58Encode(bytes).startsWith("11")).toBe(true);
    expect(bytesToHex(base58Decode(base58Encode(bytes)))).toBe("0000ff01");
    expect(base58Encode(new Uint8Array(0))).toBe("");
  });
});

describe("transparent addresses", () => {
  test.each([
    ["t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd", mainnet, "p2sh", "a9147d46a730d31f97b1930d3368a967c309bd4d136a87"],
    ["t2UNzUUx8mWBCRYPRezvA363EYXyEpHokyi", testnet, "p2sh", "a914ef775f1f997f122a062fff1a2d7443abd1f9c64287"],
    ["t1at7nVNsv6taLRrNRvnQdtfLNRDfsGc3Ak", mainnet, "p2pkh", "76a914ba92ff06081d5ff6542af8d3b2d209d29ba6337c88ac"],
  ] as const)("%s decodes, re-encodes, and maps to and from its script", (address, net, kind, script) => {
    // Pairs of address and script as Zebra reports them (snapshots and getblock of mainnet 2222000).
    const decoded = decodeTransparentAddress(address, net);
    expect(decoded.kind).toBe(kind);
    expect(encodeTransparentAddress(decoded, net)).toBe(address);
    expect(bytesToHex(scriptFromAddress(address, net))).toBe(script);
    expect(addressFromScript(hexToBytes(script), net)).toBe(address);
    expect(addressNetwork(address)).toBe(net.name);
  });

  test("regtest uses the testnet prefixes", () => {
    expect(decodeTransparentAddress("t2UNzUUx8mWBCRYPRezvA363EYXyEpHokyi", regtest).kind).toBe("p2sh");
  });

  test("non-standard scripts have no address", () => {
    expect(addressFromScript(hexToBytes("21027a46eb513588b01b37ea24303f4b628afd12cc20df789fede0921e43cad3e875ac"), mainnet)).toBeUndefined();
    expect(addressFromScript(new Uint8Array(0), mainnet)).toBeUndefined();
  });

  test("rejections say why", () => {
    const good = "t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojd";
    expect(problemOf(good.slice(0, -1) + (good.endsWith("d") ? "e" : "d"), mainnet)).toEqual(["checksum", expect.stringContaining("bad checksum")]);
    expect(problemOf(good, testnet)).toEqual(["prefix", expect.stringContaining("prefix 0x1cbd (the mainnet P2SH prefix) is not valid on testnet")]);
    expect(problemOf("t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9oj0", mainnet)).toEqual(["character", expect.stringContaining('bad character "0" at position 34')]);
    expect(problemOf("t3Vz22vK5z2LcKEdg16Yv4FFneEL1zg9ojl", mainnet)[0]).toBe("character");
    const short = base58CheckEncode(hexToBytes("1cbd" + "00".repeat(19)));
    expect(problemOf(short, mainnet)).toEqual(["length", expect.stringContaining("decodes to 21 bytes, expected 22")]);
    expect(problemOf("1", mainnet)[0]).toBe("length");
    const unknown = base58CheckEncode(hexToBytes("0000" + "00".repeat(20)));
    expect(problemOf(unknown, mainnet)).toEqual(["prefix", expect.stringContaining("not a transparent address prefix")]);
    expect(addressNetwork(unknown)).toBeUndefined();
  });

  for (const [net, name] of [
    [mainnet, "mainnet"],
    [testnet, "testnet"],
  ] as const) {
    chainTest(`${name} blocks 1-10: coinbase output scripts give the addresses of Zebra's getaddressutxos snapshot`, () => {
      const utxos = snapshotJson(`get_address_utxos@${name}_10.snap`) as {
        address: string;
        txid: string;
        outputIndex: number;
        script: string;
        height: number;
      }[];
      expect(utxos.length).toBe(10);
      const prefix = name === "mainnet" ? "block-main" : "block-test";
      for (const u of utxos) {
        const file = `${prefix}-0-000-${String(u.height).padStart(3, "0")}.txt`;
        const block = decodeBlockHex(readHexLines("zebra", "blocks", name, file)[0]!);
        expect(displayHex(block.txids[0]!)).toBe(u.txid);
        const script = block.transactions[0]!.vout[u.outputIndex]!.scriptPubKey;
        expect(bytesToHex(script)).toBe(u.script);
        expect(addressFromScript(script, net)).toBe(u.address);
        expect(bytesToHex(scriptFromAddress(u.address, net))).toBe(u.script);
      }
    });
  }

  chainTest("every addressed output of mainnet 2222000 (Zebra getblock verbosity 2) maps both ways", () => {
    const doc = JSON.parse(readChainText("zebra", "rpc-vectors", "getblock_response_2.json"));
    let n = 0;
    for (const tx of doc.tx) {
      for (const o of tx.vout as { scriptPubKey: { hex: string; addresses?: string[] } }[]) {
        const [address] = o.scriptPubKey.addresses ?? [];
        if (!address) continue;
        expect(addressFromScript(hexToBytes(o.scriptPubKey.hex), mainnet)).toBe(address);
        expect(bytesToHex(scriptFromAddress(address, mainnet))).toBe(o.scriptPubKey.hex);
        n++;
      }
    }
    expect(n).toBeGreaterThan(40);
  });
});
