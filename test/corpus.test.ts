// The corpus as a whole: which cases exist, that they plan on every chain, that the
// fixture chain profile is the fixture's own anchors, that the real chain profiles hold
// only facts the chain data vouches for, and the safety rules (nothing broadcastable outside the regtest fixture, no
// INTERNAL/UNKNOWN accepted as a correct answer, error texts declared volatile).
import { describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { CompactTxStreamer } from "../src/zcash/gen/walletrpc/service_pb.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import type { Case } from "../src/core/corpus/case.js";
import { anchorsUsed, resolveAnchors, type Anchors } from "../src/core/corpus/anchors.js";
import { listChainProfiles, loadChainProfile, withDynamic, type ChainProfile } from "../src/core/corpus/chain-profile.js";
import { planCases } from "../src/core/run/plan.js";
import { grpcCodeOf } from "../src/core/canon/grpc-status.js";
import { parseVolatile } from "../src/core/canon/volatile.js";
import { JSONRPC_METHODS } from "../src/zcash/jsonrpc-methods.js";
import { chainAnchors, syntheticChain } from "../src/zcash/fixture/chain/index.js";
import { parseFrontier, SUBTREE_LEAVES } from "../src/zcash/fixture/chain/frontier.js";
import {
  addressFromScript,
  concatBytes,
  decodeBlock,
  decodeTransaction,
  decodeTransparentAddress,
  displayHex,
  encodeTransparentAddress,
  hexToBytes,
  isCoinbase,
  mainnet,
  sha256d,
  testnet,
  UPGRADES,
  type DecodedBlock,
  type NetworkParams,
  type Transaction,
} from "../src/zcash/codec/index.js";
import { chainPath, chainTest, readChainText, readHexLines } from "./chain-data.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const CASES = "cases";
const corpus = loadCorpus(CASES, lightwalletProtocol);
const grpcCases = corpus.filter((c) => c.transport === "grpc");
const rpcCases = corpus.filter((c) => c.transport === "jsonrpc");
const fixture = loadChainProfile(CASES, "fixture");

const RPC_NAMES = CompactTxStreamer.methods.map((m) => m.name);
const ZAINO_ONLY = new Set(JSONRPC_METHODS.filter((m) => m.zainoOnly).map((m) => m.name));
/** What a build sets about itself in LightdInfo; the oracle cannot vouch for it. */
const LIGHTD_BUILD_FIELDS = ["vendor", "version", "gitCommit", "branch", "buildDate", "buildUser", "donationAddress", "lightwalletProtocolVersion"];

const byMethod = (cases: readonly Case[]) => {
  const m = new Map<string, Case[]>();
  for (const c of cases) m.set(c.method, [...(m.get(c.method) ?? []), c]);
  return m;
};
const isInvalid = (c: Case) => c.tags.includes("invalid");

describe("corpus contents", () => {
  test("278 gRPC cases over exactly the 20 rpcs of CompactTxStreamer", () => {
    expect(RPC_NAMES).toHaveLength(20);
    expect(grpcCases).toHaveLength(278);
    expect([...byMethod(grpcCases).keys()].sort()).toEqual([...RPC_NAMES].sort());
  });

  test("every rpc has at least 6 cases and at least one invalid one", () => {
    const thin = [...byMethod(grpcCases)].filter(([, cs]) => cs.length < 6 || !cs.some(isInvalid)).map(([m]) => m);
    expect(thin).toEqual([]);
  });

  test("cases for all 29 JSON-RPC methods, each with a valid and an invalid case", () => {
    const methods = byMethod(rpcCases);
    expect([...methods.keys()].sort()).toEqual(JSONRPC_METHODS.map((m) => m.name).sort());
    expect(methods.size).toBe(29);
    const lacking = [...methods].filter(([, cs]) => !cs.some(isInvalid) || !cs.some((c) => !isInvalid(c))).map(([m]) => m);
    expect(lacking).toEqual([]);
  });

  test("Zaino-only JSON-RPC methods have no oracle and ask builds to agree; the others use the oracle", () => {
    const wrong = rpcCases.filter((c) => (ZAINO_ONLY.has(c.method) ? c.expect.kind !== "agree" : c.expect.kind !== "oracle"));
    expect(wrong.map((c) => c.id)).toEqual([]);
  });

  test("every declared volatile path parses", () => {
    const bad: string[] = [];
    for (const c of corpus) {
      try {
        parseVolatile(c.volatile);
      } catch (e) {
        bad.push(`${c.id}: ${(e as Error).message}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("GetLightdInfo cases anchored to the oracle leave the build's own fields out", () => {
    for (const c of grpcCases.filter((x) => x.method === "GetLightdInfo" && x.expect.kind === "oracle")) {
      expect(c.volatile).toEqual(expect.arrayContaining(LIGHTD_BUILD_FIELDS));
    }
  });

  test("mempool streams are compared as multisets", () => {
    const ordered = grpcCases.filter((c) => (c.method === "GetMempoolTx" || c.method === "GetMempoolStream") && !c.unordered);
    expect(ordered.map((c) => c.id)).toEqual([]);
  });

  test("Ping cases never claim an oracle answer (builds differ legitimately)", () => {
    expect(grpcCases.filter((c) => c.method === "Ping" && c.expect.kind === "oracle").map((c) => c.id)).toEqual([]);
  });
});

describe("error expectations", () => {
  const errorCases = corpus.filter((c) => c.expect.kind === "error");

  test("gRPC error cases name real status codes, never OK, INTERNAL or UNKNOWN", () => {
    const bad: string[] = [];
    for (const c of errorCases.filter((x) => x.transport === "grpc")) {
      if (c.expect.kind !== "error") continue;
      for (const code of c.expect.codes) {
        const n = grpcCodeOf(code);
        if (n === undefined || n === 0 || n === 2 || n === 13) bad.push(`${c.id}: ${String(code)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("JSON-RPC error cases never accept an internal error (-32603)", () => {
    const bad = errorCases.filter((c) => c.transport === "jsonrpc" && c.expect.kind === "error" && c.expect.codes.some((x) => Number(x) === -32603));
    expect(bad.map((c) => c.id)).toEqual([]);
  });

  test("every gRPC error case declares its free-text status message volatile", () => {
    const missing = errorCases.filter((c) => c.transport === "grpc" && !c.volatile.includes("status.message"));
    expect(missing.map((c) => c.id)).toEqual([]);
  });
});

describe("safety: nothing in the corpus can be broadcast outside the regtest fixture", () => {
  const anchors = fixture.anchors;

  test("no SendTransaction request decodes as a transaction, but the one success case planned on the fixture alone", () => {
    const sends = grpcCases.filter((c) => c.method === "SendTransaction");
    expect(sends.length).toBeGreaterThan(0);
    const decodable: string[] = [];
    for (const c of sends) {
      expect(anchorsUsed(c.request)).toEqual([]);
      const { data } = resolveAnchors(c.request, anchors) as { data?: string };
      const bytes = new Uint8Array(Buffer.from(data ?? "", "base64"));
      try {
        decodeTransaction(bytes);
        decodable.push(c.id);
        expect([c.id, c.chains]).toEqual([c.id, ["fixture"]]);
        expect(c.tags).toContain("broadcast");
      } catch {
        // garbage, as the safety rule wants
      }
    }
    expect(decodable).toEqual(["SendTransaction/valid-transaction-regtest"]);
  });

  test("the broadcast guard refuses the success case on every chain but a regtest one that allows it", () => {
    const c = grpcCases.find((x) => x.id === "SendTransaction/valid-transaction-regtest")!;
    const [pc] = planCases([c], anchors, "fixture", lightwalletProtocol);
    expect(lightwalletProtocol.sendsTransaction(pc!)).toBe(true);
    for (const name of ["testnet", "mainnet"]) {
      const p = loadChainProfile(CASES, name);
      const [other] = planCases([c], withDynamic(p, { tip: { height: 1, hash: "00".repeat(32) } }), name, lightwalletProtocol);
      expect(other!.skipped).toBe("only for chains fixture");
    }
  });

  test("no sendrawtransaction parameter decodes as a transaction", () => {
    const sends = rpcCases.filter((c) => c.method === "sendrawtransaction");
    expect(sends.length).toBeGreaterThan(0);
    for (const c of sends) {
      expect(anchorsUsed(c.request)).toEqual([]);
      const hex = (c.request as unknown[])[0];
      if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) continue; // not even hex
      expect(() => decodeTransaction(hexToBytes(hex))).toThrow();
    }
  });
});

describe("chain profiles", () => {
  test("fixture.yaml holds exactly the anchors of the fixture's synthetic chain", () => {
    expect(fixture.network).toBe("regtest");
    expect(fixture.dynamic).toEqual({});
    expect(fixture.anchors).toEqual(chainAnchors(syntheticChain()));
  });

  // A case may be declared for other chains (a probe only the regtest chain's mempool can
  // make); every other case runs in the demo.
  const onFixture = corpus.filter((c) => c.chains === undefined || c.chains.includes("fixture"));

  test("every anchor the corpus uses exists on the fixture, but for cases declared for other chains", () => {
    const used = new Set(onFixture.flatMap((c) => anchorsUsed(c.request)));
    expect([...used].filter((a) => !(a in fixture.anchors))).toEqual([]);
  });

  test("every case plans on the fixture chain and none is skipped, but those declared for other chains", () => {
    const planned = planCases(corpus, fixture.anchors, "fixture", lightwalletProtocol);
    expect(planned).toHaveLength(corpus.length);
    expect(planned.filter((p) => p.skipped).map((p) => `${p.case.id}: ${p.skipped}`)).toEqual(
      corpus.filter((c) => !onFixture.includes(c)).map((c) => `${c.id}: only for chains ${c.chains!.join(", ")}`),
    );
    expect(corpus.length - onFixture.length).toBeLessThanOrEqual(2);
  });

  test("every chain profile loads, is named after its file, and plans the corpus", () => {
    const names = listChainProfiles(CASES);
    expect(names).toEqual(expect.arrayContaining(["fixture", "mainnet", "testnet"]));
    for (const name of names) {
      const p = loadChainProfile(CASES, name);
      expect(p.name).toBe(name);
      const anchors = withDynamic(p, { tip: { height: 1_000_000_000, hash: "00".repeat(32) } });
      const planned = planCases(corpus, anchors, name, lightwalletProtocol);
      for (const s of planned.filter((x) => x.skipped)) expect(s.skipped).toMatch(/has no anchor|only for chains/);
    }
  });

  test("live chains resolve their tip and a mempool transaction through the oracle, and name only anchors the corpus knows", () => {
    for (const name of ["mainnet", "testnet"]) {
      const p = loadChainProfile(CASES, name);
      expect(p.dynamic).toEqual({ tip: "tip_height", tip_hash: "tip_hash", txid_mempool: "mempool_txid" });
      expect(p.anchors).not.toHaveProperty("tip");
      expect(p.anchors).not.toHaveProperty("txid_mempool");
      const unknown = Object.keys(p.anchors).filter((a) => !(a in fixture.anchors) && !/^nu6(_\d)?_activation(_hash)?$/.test(a));
      expect(unknown).toEqual([]);
    }
    for (const name of ["mainnet", "testnet"]) {
      const p = loadChainProfile(CASES, name);
      expect([name, typeof p.frozenAt, typeof p.frozenHash]).toEqual([name, "number", "string"]);
    }
  });
});

// ── the real profiles against ../shared/chain-data ─────────────────────────────────

interface ChainFacts {
  blocks: Map<number, DecodedBlock>;
  /** Height → display-order block hash, from blocks, checkpoints and sdk tree states. */
  hashes: Map<number, string>;
}

function setOnce(m: Map<number, string>, height: number, hash: string): void {
  const had = m.get(height);
  if (had !== undefined && had !== hash) throw new Error(`chain data disagrees on block ${height}: ${had} vs ${hash}`);
  m.set(height, hash);
}

function chainFacts(network: "mainnet" | "testnet"): ChainFacts {
  const blocks = new Map<number, DecodedBlock>();
  const dir = chainPath("zebra", "blocks", network);
  for (const f of readdirSync(dir)) {
    const m = /^block-(?:main|test)-(\d)-(\d{3})-(\d{3})\.(txt|bin)$/.exec(f);
    if (!m) continue; // e.g. the deliberately broken "-bad" copy
    const height = Number(m[1]! + m[2]! + m[3]!);
    const bytes = m[4] === "bin" ? new Uint8Array(readFileSync(`${dir}/${f}`)) : hexToBytes(readHexLines("zebra", "blocks", network, f)[0]!);
    blocks.set(height, decodeBlock(bytes));
  }
  if (network === "testnet") {
    const lwd = JSON.parse(readChainText("lightwalletd", "testnet-289460-289465.compact_blocks.json")) as { block: number; full: string }[];
    for (const e of lwd) blocks.set(e.block, decodeBlock(hexToBytes(e.full)));
  }
  const hashes = new Map<number, string>();
  for (const [h, b] of blocks) setOnce(hashes, h, displayHex(b.hash));
  const checkpoints = readChainText("zebra", "checkpoints", network === "mainnet" ? "main-checkpoints.txt" : "test-checkpoints.txt");
  for (const line of checkpoints.split("\n")) {
    const [h, hash] = line.trim().split(/\s+/);
    if (h && hash) setOnce(hashes, Number(h), hash);
  }
  const sdkDir = chainPath("wallet-sdk-checkpoints", network);
  for (const f of readdirSync(sdkDir)) {
    const j = JSON.parse(readFileSync(`${sdkDir}/${f}`, "utf8")) as { height: string; hash: string };
    setOnce(hashes, Number(j.height), j.hash);
  }
  return { blocks, hashes };
}

const saplingOutputs = (tx: Transaction) => tx.sapling?.outputs.length ?? 0;
const saplingSpends = (tx: Transaction) => tx.sapling?.spends.length ?? 0;
const orchardActions = (tx: Transaction) => tx.orchard?.actions.length ?? 0;
const joinSplits = (tx: Transaction) => tx.sprout?.joinSplits.length ?? 0;
const transparentSpend = (tx: Transaction) => !isCoinbase(tx) && tx.vin.length > 0;

const BLOCK_PROPERTIES: Record<string, (b: DecodedBlock) => boolean> = {
  block_with_sapling_outputs: (b) => b.transactions.some((t) => saplingOutputs(t) > 0),
  block_with_sapling_spends: (b) => b.transactions.some((t) => saplingSpends(t) > 0),
  block_with_orchard_actions: (b) => b.transactions.some((t) => orchardActions(t) > 0),
  block_with_joinsplits: (b) => b.transactions.some((t) => joinSplits(t) > 0),
  block_with_transparent_spends: (b) => b.transactions.some(transparentSpend),
  block_coinbase_only: (b) => b.transactions.length === 1,
  block_many_txs: (b) => b.transactions.length > 1,
};

const TX_PROPERTIES: Record<string, (t: Transaction) => boolean> = {
  txid_coinbase: (t) => isCoinbase(t),
  txid_transparent: (t) => transparentSpend(t) && t.vout.length > 0 && joinSplits(t) + saplingOutputs(t) + saplingSpends(t) + orchardActions(t) === 0,
  txid_sprout: (t) => joinSplits(t) > 0,
  txid_sapling_v4: (t) => t.version === 4 && saplingOutputs(t) + saplingSpends(t) > 0,
  txid_sapling_v5: (t) => t.version === 5 && saplingOutputs(t) + saplingSpends(t) > 0,
  txid_orchard_v5: (t) => orchardActions(t) > 0,
};

/** Script pushes, enough to read a P2PKH scriptSig (signature, public key). */
function pushes(script: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < script.length; ) {
    const op = script[i++]!;
    let n: number;
    if (op >= 1 && op <= 75) n = op;
    else if (op === 76) n = script[i++]!;
    else if (op === 77) {
      n = script[i]! | (script[i + 1]! << 8);
      i += 2;
    } else continue;
    out.push(script.subarray(i, i + n));
    i += n;
  }
  return out;
}

/** Addresses whose key signed a P2PKH input in these blocks. */
function spendingAddresses(blocks: Iterable<DecodedBlock>, network: NetworkParams): Set<string> {
  const out = new Set<string>();
  for (const b of blocks) {
    for (const tx of b.transactions) {
      if (isCoinbase(tx)) continue;
      for (const input of tx.vin) {
        const p = pushes(input.scriptSig);
        const key = p[1];
        if (p.length !== 2 || !key || (key.length !== 33 && key.length !== 65)) continue;
        out.add(encodeTransparentAddress({ kind: "p2pkh", hash: ripemd160(sha256(key)) }, network));
      }
    }
  }
  return out;
}

function outputAddresses(blocks: Iterable<DecodedBlock>, network: NetworkParams): Set<string> {
  const out = new Set<string>();
  for (const b of blocks)
    for (const tx of b.transactions)
      for (const o of tx.vout) {
        const a = addressFromScript(o.scriptPubKey, network);
        if (a) out.add(a);
      }
  return out;
}

describe.each(["mainnet", "testnet"] as const)("the %s profile holds only facts from the chain data", (name) => {
  const network = name === "mainnet" ? mainnet : testnet;
  const other = name === "mainnet" ? testnet : mainnet;
  let facts: ChainFacts | undefined;
  const load = (): { p: ChainProfile; a: Anchors; f: ChainFacts } => {
    facts ??= chainFacts(name);
    const p = loadChainProfile(CASES, name);
    return { p, a: p.anchors, f: facts };
  };

  chainTest("activation heights are the network's", () => {
    const { p, a } = load();
    expect(p.network).toBe(name);
    for (const u of UPGRADES) expect(a[`${u}_activation`]).toBe(network.activationHeights[u]);
    expect(a.pre_sapling).toBe(network.activationHeights.sapling! - 1);
    expect(a.genesis).toBe(0);
  });

  chainTest("every block hash is the chain data's hash at that height", () => {
    const { a, f } = load();
    const hashAnchors = Object.keys(a).filter((k) => k.endsWith("_hash"));
    expect(hashAnchors.length).toBeGreaterThan(10);
    for (const k of hashAnchors) {
      const height = a[k.slice(0, -"_hash".length)];
      expect(typeof height).toBe("number");
      expect([k, f.hashes.get(height as number)]).toEqual([k, a[k]]);
    }
  });

  chainTest("every block anchor names a block the chain data holds, with the property it promises", () => {
    const { a, f } = load();
    for (const [k, has] of Object.entries(BLOCK_PROPERTIES)) {
      const b = f.blocks.get(a[k] as number);
      expect([k, b !== undefined && has(b)]).toEqual([k, true]);
    }
  });

  chainTest("every txid is in the block at its height, and is the kind of transaction it promises", () => {
    const { a, f } = load();
    for (const [k, is] of Object.entries(TX_PROPERTIES)) {
      const b = f.blocks.get(a[`${k}_height`] as number);
      const i = b ? b.txids.findIndex((t) => displayHex(t) === a[k]) : -1;
      expect([k, i >= 0 && is(b!.transactions[i]!)]).toEqual([k, true]);
    }
  });

  chainTest("the frozen block and the subtree counts are the newest sdk tree state's", () => {
    const { p, a } = load();
    const newest = readdirSync(chainPath("wallet-sdk-checkpoints", name))
      .map((f) => Number(f.slice(0, -".json".length)))
      .sort((x, y) => y - x)[0]!;
    const sdk = JSON.parse(readChainText("wallet-sdk-checkpoints", name, `${newest}.json`)) as { hash: string; saplingTree: string; orchardTree: string };
    expect([p.frozenAt, p.frozenHash]).toEqual([newest, sdk.hash]);
    expect(a.sapling_subtrees).toBe(Math.floor(parseFrontier(sdk.saplingTree).size / SUBTREE_LEAVES));
    expect(a.orchard_subtrees).toBe(Math.floor(parseFrontier(sdk.orchardTree).size / SUBTREE_LEAVES));
  });

  chainTest("the address with unspent outputs is the one Zebra's RPC snapshot lists", () => {
    const { a } = load();
    const snap = readChainText("zebra", "rpc-snapshots", `get_address_utxos@${name}_10.snap`);
    const utxos = JSON.parse(snap.slice(snap.indexOf("---", 3) + 3)) as { address: string; satoshis: number }[];
    expect(utxos.length).toBeGreaterThan(0);
    expect(utxos.filter((u) => u.address === a.taddr_with_utxos && u.satoshis > 0)).toHaveLength(utxos.length);
  });

  chainTest("addresses: the P2SH one is paid and the spent one has signed in real blocks; the unused ones are derived", () => {
    const { a, f } = load();
    const blocks = [...f.blocks.values()];
    expect(decodeTransparentAddress(a.taddr_p2sh as string, network).kind).toBe("p2sh");
    expect(outputAddresses(blocks, network).has(a.taddr_p2sh as string)).toBe(true);
    expect(spendingAddresses(blocks, network).has(a.taddr_spent as string)).toBe(true);
    const hash = sha256d(concatBytes(new TextEncoder().encode("zconform unused address"), Uint8Array.of(0))).subarray(0, 20);
    expect(a.taddr_unused).toBe(encodeTransparentAddress({ kind: "p2pkh", hash }, network));
    expect(a.taddr_other_network).toBe(encodeTransparentAddress({ kind: "p2pkh", hash }, other));
    expect(outputAddresses(blocks, network).has(a.taddr_unused as string)).toBe(false);
  });
});
