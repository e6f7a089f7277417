// Transaction encoding (v1–v5), the exact inverse of tx-decode. Fixed-size fields are
// length-checked so that a synthesized transaction cannot silently shift the layout.
import { bytesEqual } from "./bytes.js";
import { ByteWriter } from "./writer.js";
import {
  SIZES,
  VERSION_GROUP_IDS,
  joinSplitProofSize,
  type JoinSplit,
  type SaplingBundle,
  type SaplingOutput,
  type SaplingSpend,
  type Transaction,
} from "./tx-model.js";

export function encodeTransaction(tx: Transaction): Uint8Array {
  const w = new ByteWriter(estimateSize(tx));
  writeTransaction(w, tx);
  return w.finish();
}

export function writeTransaction(w: ByteWriter, tx: Transaction): void {
  const { version, overwintered } = tx;
  if (!Number.isInteger(version) || version < 1 || version > 5) throw new RangeError(`cannot encode transaction version ${version} (supported: 1-5)`);
  if (overwintered !== version >= 3) throw new RangeError(`v${version} must ${version >= 3 ? "" : "not "}have the overwintered flag`);
  w.u32(((overwintered ? 0x80000000 : 0) | version) >>> 0);
  // An absent group id means the standard one for the version (convenient when synthesizing).
  if (overwintered) w.u32(tx.versionGroupId ?? VERSION_GROUP_IDS[version]!);

  if (version === 5) {
    w.u32(required(tx.consensusBranchId, "consensusBranchId", version));
    w.u32(tx.lockTime);
    w.u32(required(tx.expiryHeight, "expiryHeight", version));
    writeTransparent(w, tx);
    writeSaplingV5(w, tx.sapling);
    writeOrchard(w, tx);
    return;
  }

  if (tx.orchard) throw new RangeError(`v${version} transactions cannot carry an Orchard bundle`);
  if (tx.sapling && version < 4) throw new RangeError(`v${version} transactions cannot carry a Sapling bundle`);
  if (tx.sprout && version < 2) throw new RangeError("v1 transactions cannot carry JoinSplits");
  writeTransparent(w, tx);
  w.u32(tx.lockTime);
  if (version >= 3) w.u32(required(tx.expiryHeight, "expiryHeight", version));

  const sapling = tx.sapling;
  if (version === 4) {
    w.i64(sapling?.valueBalance ?? 0n);
    w.compactSize(sapling?.spends.length ?? 0);
    for (const s of sapling?.spends ?? []) writeSaplingSpendV4(w, s).fixed(s.spendAuthSig, 64, "spendAuthSig");
    w.compactSize(sapling?.outputs.length ?? 0);
    for (const o of sapling?.outputs ?? []) writeSaplingOutputV4(w, o);
  }

  if (version >= 2) {
    const sprout = tx.sprout;
    w.compactSize(sprout?.joinSplits.length ?? 0);
    if (sprout && sprout.joinSplits.length > 0) {
      for (const js of sprout.joinSplits) writeJoinSplit(w, js, version);
      w.fixed(sprout.joinSplitPubKey, 32, "joinSplitPubKey").fixed(sprout.joinSplitSig, 64, "joinSplitSig");
    }
  }

  if (version === 4 && sapling && sapling.spends.length + sapling.outputs.length > 0) {
    w.fixed(need(sapling.bindingSig, "Sapling bindingSig"), 64, "Sapling bindingSig");
  }
}

function writeTransparent(w: ByteWriter, tx: Transaction): void {
  w.compactSize(tx.vin.length);
  for (const i of tx.vin) w.fixed(i.prevoutTxid, 32, "prevout txid").u32(i.prevoutIndex).varBytes(i.scriptSig).u32(i.sequence);
  w.compactSize(tx.vout.length);
  for (const o of tx.vout) w.i64(o.value).varBytes(o.scriptPubKey);
}

/** One JoinSplit description as v2–v4 serialize it (also what ZIP 143/243 sighashes cover). */
export function writeJoinSplit(w: ByteWriter, js: JoinSplit, version: number): ByteWriter {
  w.u64(js.vpubOld).u64(js.vpubNew).fixed(js.anchor, 32, "joinsplit anchor");
  for (const x of js.nullifiers) w.fixed(x, 32, "joinsplit nullifier");
  for (const x of js.commitments) w.fixed(x, 32, "joinsplit commitment");
  w.fixed(js.ephemeralKey, 32, "joinsplit ephemeralKey").fixed(js.randomSeed, 32, "joinsplit randomSeed");
  for (const x of js.macs) w.fixed(x, 32, "joinsplit mac");
  w.fixed(js.proof, joinSplitProofSize(version), `v${version} joinsplit proof`);
  for (const x of js.ciphertexts) w.fixed(x, SIZES.sproutCiphertext, "joinsplit ciphertext");
  return w;
}

/** A v4 Sapling spend without its spendAuthSig (the part ZIP 243's hashShieldedSpends covers). */
export function writeSaplingSpendV4(w: ByteWriter, s: SaplingSpend): ByteWriter {
  return w
    .fixed(s.cv, 32, "spend cv")
    .fixed(s.anchor, 32, "spend anchor")
    .fixed(s.nullifier, 32, "spend nullifier")
    .fixed(s.rk, 32, "spend rk")
    .fixed(s.zkproof, SIZES.groth16Proof, "spend zkproof");
}

/** A v4 Sapling output description, proof included. */
export function writeSaplingOutputV4(w: ByteWriter, o: SaplingOutput): ByteWriter {
  writeOutputBody(w, o);
  return w.fixed(o.zkproof, SIZES.groth16Proof, "output zkproof");
}

function writeOutputBody(w: ByteWriter, o: SaplingOutput): void {
  w.fixed(o.cv, 32, "output cv")
    .fixed(o.cmu, 32, "output cmu")
    .fixed(o.ephemeralKey, 32, "output ephemeralKey")
    .fixed(o.encCiphertext, SIZES.saplingEncCiphertext, "output encCiphertext")
    .fixed(o.outCiphertext, SIZES.outCiphertext, "output outCiphertext");
}

function writeSaplingV5(w: ByteWriter, sapling: SaplingBundle | undefined): void {
  const spends = sapling?.spends ?? [];
  const outputs = sapling?.outputs ?? [];
  if (sapling && spends.length + outputs.length === 0 && sapling.valueBalance !== 0n) {
    throw new RangeError("a v5 Sapling bundle without spends or outputs cannot carry a value balance");
  }
  w.compactSize(spends.length);
  for (const s of spends) w.fixed(s.cv, 32, "spend cv").fixed(s.nullifier, 32, "spend nullifier").fixed(s.rk, 32, "spend rk");
  w.compactSize(outputs.length);
  for (const o of outputs) writeOutputBody(w, o);
  if (!sapling || spends.length + outputs.length === 0) return;
  w.i64(sapling.valueBalance);
  if (spends.length > 0) {
    const anchor = spends[0]!.anchor;
    for (const s of spends) {
      if (!bytesEqual(s.anchor, anchor)) throw new RangeError("v5 Sapling spends must all share one anchor");
    }
    w.fixed(anchor, 32, "Sapling anchor");
  }
  for (const s of spends) w.fixed(s.zkproof, SIZES.groth16Proof, "spend zkproof");
  for (const s of spends) w.fixed(s.spendAuthSig, 64, "spendAuthSig");
  for (const o of outputs) w.fixed(o.zkproof, SIZES.groth16Proof, "output zkproof");
  w.fixed(need(sapling.bindingSig, "Sapling bindingSig"), 64, "Sapling bindingSig");
}

function writeOrchard(w: ByteWriter, tx: Transaction): void {
  const orchard = tx.orchard;
  if (!orchard || orchard.actions.length === 0) {
    w.compactSize(0);
    return;
  }
  w.compactSize(orchard.actions.length);
  for (const a of orchard.actions) {
    w.fixed(a.cv, 32, "action cv")
      .fixed(a.nullifier, 32, "action nullifier")
      .fixed(a.rk, 32, "action rk")
      .fixed(a.cmx, 32, "action cmx")
      .fixed(a.ephemeralKey, 32, "action ephemeralKey")
      .fixed(a.encCiphertext, SIZES.saplingEncCiphertext, "action encCiphertext")
      .fixed(a.outCiphertext, SIZES.outCiphertext, "action outCiphertext");
  }
  w.u8(orchard.flags).i64(orchard.valueBalance).fixed(orchard.anchor, 32, "Orchard anchor").varBytes(orchard.proof);
  for (const a of orchard.actions) w.fixed(a.spendAuthSig, 64, "action spendAuthSig");
  w.fixed(orchard.bindingSig, 64, "Orchard bindingSig");
}

function required<T>(v: T | undefined, name: string, version: number): T {
  if (v === undefined) throw new RangeError(`v${version} transactions need ${name}`);
  return v;
}

function need<T>(v: T | undefined, name: string): T {
  if (v === undefined) throw new RangeError(`${name} is required when the bundle has spends or outputs`);
  return v;
}

/** A capacity hint so the writer rarely grows. */
function estimateSize(tx: Transaction): number {
  let n = 64;
  for (const i of tx.vin) n += 45 + i.scriptSig.length;
  for (const o of tx.vout) n += 17 + o.scriptPubKey.length;
  n += (tx.sprout?.joinSplits.length ?? 0) * 1802 + 96;
  n += (tx.sapling?.spends.length ?? 0) * 384 + (tx.sapling?.outputs.length ?? 0) * 948 + 80;
  n += (tx.orchard?.actions.length ?? 0) * 884 + (tx.orchard?.proof.length ?? 0) + 120;
  return n;
}
