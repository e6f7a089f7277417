// Transaction decoding (v1–v5). Every field is a view into the input bytes.
import { ByteReader } from "./reader.js";
import {
  SIZES,
  VERSION_GROUP_IDS,
  joinSplitProofSize,
  type JoinSplit,
  type OrchardAction,
  type OrchardBundle,
  type SaplingBundle,
  type SaplingOutput,
  type SaplingSpend,
  type SproutBundle,
  type Transaction,
  type TxIn,
  type TxOut,
} from "./tx-model.js";

/** Decodes one transaction that must span `bytes` exactly. */
export function decodeTransaction(bytes: Uint8Array): Transaction {
  const r = new ByteReader(bytes);
  const tx = readTransaction(r);
  if (r.remaining !== 0) r.fail(`${r.remaining} trailing bytes after the transaction`);
  return tx;
}

/** Reads one transaction at the reader's position; r.tx (set by the caller) labels errors. */
/**
 * The transaction at the start of `bytes` and its length, ignoring what follows: a
 * node's deserializer reads one transaction from a stream and does not look past it.
 */
export function decodeTransactionPrefix(bytes: Uint8Array): { tx: Transaction; length: number } {
  const r = new ByteReader(bytes);
  const tx = readTransaction(r);
  return { tx, length: r.pos };
}

export function readTransaction(r: ByteReader): Transaction {
  r.at("header");
  const headerAt = r.pos;
  const header = r.u32("header");
  const overwintered = header >>> 31 === 1;
  const version = header & 0x7fffffff;
  if (!overwintered) {
    if (version < 1 || version > 2) r.fail(`${r.describe("")} version ${version} without the overwintered flag is not a valid transaction version`, headerAt);
  } else if (version >= 6) {
    r.fail(`${r.describe("")} version ${version} is not supported (v6 transactions are out of scope)`, headerAt);
  } else if (version < 3) {
    r.fail(`${r.describe("")} overwintered version ${version} is invalid (must be 3, 4 or 5)`, headerAt);
  }

  let versionGroupId: number | undefined;
  if (overwintered) {
    const at = r.pos;
    versionGroupId = r.u32("versionGroupId");
    const expected = VERSION_GROUP_IDS[version]!;
    if (versionGroupId !== expected) {
      r.fail(`${r.describe("versionGroupId")} is 0x${hex32(versionGroupId)}, expected 0x${hex32(expected)} for v${version}`, at);
    }
  }

  if (version === 5) return readV5Rest(r, versionGroupId!);

  const vin = readInputs(r);
  const vout = readOutputs(r);
  r.at("");
  const lockTime = r.u32("lockTime");
  const tx: Transaction = { overwintered, version, versionGroupId, lockTime, vin, vout };
  if (version >= 3) tx.expiryHeight = r.u32("expiryHeight");

  let spends: SaplingSpend[] = [];
  let outputs: SaplingOutput[] = [];
  let valueBalance = 0n;
  if (version === 4) {
    r.at("sapling");
    valueBalance = r.i64("valueBalance");
    const nSpends = r.count("nSpends", SIZES.saplingSpendV4);
    spends = new Array<SaplingSpend>(nSpends);
    for (let i = 0; i < nSpends; i++) {
      r.at("sapling.spends", i);
      spends[i] = {
        cv: r.bytes(32, "cv"),
        anchor: r.bytes(32, "anchor"),
        nullifier: r.bytes(32, "nullifier"),
        rk: r.bytes(32, "rk"),
        zkproof: r.bytes(SIZES.groth16Proof, "zkproof"),
        spendAuthSig: r.bytes(64, "spendAuthSig"),
      };
    }
    r.at("sapling");
    const nOutputs = r.count("nOutputs", SIZES.saplingOutputV4);
    outputs = new Array<SaplingOutput>(nOutputs);
    for (let i = 0; i < nOutputs; i++) {
      r.at("sapling.outputs", i);
      outputs[i] = {
        cv: r.bytes(32, "cv"),
        cmu: r.bytes(32, "cmu"),
        ephemeralKey: r.bytes(32, "ephemeralKey"),
        encCiphertext: r.bytes(SIZES.saplingEncCiphertext, "encCiphertext"),
        outCiphertext: r.bytes(SIZES.outCiphertext, "outCiphertext"),
        zkproof: r.bytes(SIZES.groth16Proof, "zkproof"),
      };
    }
  }

  if (version >= 2) tx.sprout = readSprout(r, version);

  if (version === 4) {
    let bindingSig: Uint8Array | undefined;
    if (spends.length + outputs.length > 0) bindingSig = r.at("sapling").bytes(64, "bindingSig");
    if (spends.length + outputs.length > 0 || valueBalance !== 0n) tx.sapling = { valueBalance, spends, outputs, bindingSig };
  }
  return tx;
}

function readInputs(r: ByteReader): TxIn[] {
  r.at("");
  const n = r.count("vin count", SIZES.txInMin);
  const vin = new Array<TxIn>(n);
  for (let i = 0; i < n; i++) {
    r.at("vin", i);
    vin[i] = {
      prevoutTxid: r.bytes(32, "prevout.txid"),
      prevoutIndex: r.u32("prevout.index"),
      scriptSig: r.varBytes("scriptSig"),
      sequence: r.u32("sequence"),
    };
  }
  return vin;
}

function readOutputs(r: ByteReader): TxOut[] {
  r.at("");
  const n = r.count("vout count", SIZES.txOutMin);
  const vout = new Array<TxOut>(n);
  for (let i = 0; i < n; i++) {
    r.at("vout", i);
    vout[i] = { value: r.i64("value"), scriptPubKey: r.varBytes("scriptPubKey") };
  }
  return vout;
}

function readSprout(r: ByteReader, version: number): SproutBundle | undefined {
  r.at("");
  const proofSize = joinSplitProofSize(version);
  const n = r.count("nJoinSplit", SIZES.joinSplitMin);
  if (n === 0) return undefined;
  const joinSplits = new Array<JoinSplit>(n);
  for (let i = 0; i < n; i++) {
    r.at("joinSplits", i);
    joinSplits[i] = {
      vpubOld: r.u64("vpubOld"),
      vpubNew: r.u64("vpubNew"),
      anchor: r.bytes(32, "anchor"),
      nullifiers: [r.bytes(32, "nullifiers[0]"), r.bytes(32, "nullifiers[1]")],
      commitments: [r.bytes(32, "commitments[0]"), r.bytes(32, "commitments[1]")],
      ephemeralKey: r.bytes(32, "ephemeralKey"),
      randomSeed: r.bytes(32, "randomSeed"),
      macs: [r.bytes(32, "macs[0]"), r.bytes(32, "macs[1]")],
      proof: r.bytes(proofSize, "proof"),
      ciphertexts: [r.bytes(SIZES.sproutCiphertext, "ciphertexts[0]"), r.bytes(SIZES.sproutCiphertext, "ciphertexts[1]")],
    };
  }
  r.at("");
  return { joinSplits, joinSplitPubKey: r.bytes(32, "joinSplitPubKey"), joinSplitSig: r.bytes(64, "joinSplitSig") };
}

function readV5Rest(r: ByteReader, versionGroupId: number): Transaction {
  r.at("");
  const consensusBranchId = r.u32("consensusBranchId");
  const lockTime = r.u32("lockTime");
  const expiryHeight = r.u32("expiryHeight");
  const vin = readInputs(r);
  const vout = readOutputs(r);
  const tx: Transaction = { overwintered: true, version: 5, versionGroupId, consensusBranchId, lockTime, expiryHeight, vin, vout };
  tx.sapling = readSaplingV5(r);
  tx.orchard = readOrchard(r);
  return tx;
}

function readSaplingV5(r: ByteReader): SaplingBundle | undefined {
  r.at("sapling");
  const nSpends = r.count("nSpends", SIZES.saplingSpendV5);
  const cvs = new Array<Uint8Array>(nSpends);
  const nullifiers = new Array<Uint8Array>(nSpends);
  const rks = new Array<Uint8Array>(nSpends);
  for (let i = 0; i < nSpends; i++) {
    r.at("sapling.spends", i);
    cvs[i] = r.bytes(32, "cv");
    nullifiers[i] = r.bytes(32, "nullifier");
    rks[i] = r.bytes(32, "rk");
  }
  r.at("sapling");
  const nOutputs = r.count("nOutputs", SIZES.saplingOutputV5);
  const outputs = new Array<SaplingOutput>(nOutputs);
  for (let i = 0; i < nOutputs; i++) {
    r.at("sapling.outputs", i);
    outputs[i] = {
      cv: r.bytes(32, "cv"),
      cmu: r.bytes(32, "cmu"),
      ephemeralKey: r.bytes(32, "ephemeralKey"),
      encCiphertext: r.bytes(SIZES.saplingEncCiphertext, "encCiphertext"),
      outCiphertext: r.bytes(SIZES.outCiphertext, "outCiphertext"),
      zkproof: EMPTY, // filled from the proofs array below
    };
  }
  if (nSpends + nOutputs === 0) return undefined;
  r.at("sapling");
  const valueBalance = r.i64("valueBalance");
  const anchor = nSpends > 0 ? r.bytes(32, "anchor") : EMPTY;
  const proofs = new Array<Uint8Array>(nSpends);
  for (let i = 0; i < nSpends; i++) proofs[i] = r.at("sapling.spendProofs", i).bytes(SIZES.groth16Proof, "");
  const spends = new Array<SaplingSpend>(nSpends);
  for (let i = 0; i < nSpends; i++) {
    const spendAuthSig = r.at("sapling.spendAuthSigs", i).bytes(64, "");
    spends[i] = { cv: cvs[i]!, anchor, nullifier: nullifiers[i]!, rk: rks[i]!, zkproof: proofs[i]!, spendAuthSig };
  }
  for (let i = 0; i < nOutputs; i++) outputs[i]!.zkproof = r.at("sapling.outputProofs", i).bytes(SIZES.groth16Proof, "");
  const bindingSig = r.at("sapling").bytes(64, "bindingSig");
  return { valueBalance, spends, outputs, bindingSig };
}

function readOrchard(r: ByteReader): OrchardBundle | undefined {
  r.at("orchard");
  const n = r.count("nActions", SIZES.orchardAction);
  if (n === 0) return undefined;
  const actions = new Array<OrchardAction>(n);
  for (let i = 0; i < n; i++) {
    r.at("orchard.actions", i);
    actions[i] = {
      cv: r.bytes(32, "cv"),
      nullifier: r.bytes(32, "nullifier"),
      rk: r.bytes(32, "rk"),
      cmx: r.bytes(32, "cmx"),
      ephemeralKey: r.bytes(32, "ephemeralKey"),
      encCiphertext: r.bytes(SIZES.saplingEncCiphertext, "encCiphertext"),
      outCiphertext: r.bytes(SIZES.outCiphertext, "outCiphertext"),
      spendAuthSig: EMPTY,
    };
  }
  r.at("orchard");
  const flags = r.u8("flags");
  const valueBalance = r.i64("valueBalance");
  const anchor = r.bytes(32, "anchor");
  const proof = r.varBytes("proof");
  for (let i = 0; i < n; i++) actions[i]!.spendAuthSig = r.at("orchard.spendAuthSigs", i).bytes(64, "");
  const bindingSig = r.at("orchard").bytes(64, "bindingSig");
  return { actions, flags, valueBalance, anchor, proof, bindingSig };
}

const EMPTY = new Uint8Array(0);

function hex32(v: number): string {
  return (v >>> 0).toString(16).padStart(8, "0");
}
