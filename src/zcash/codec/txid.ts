// Transaction ids: SHA256d of the bytes for v1–v4, the ZIP-244 digest tree for v5, and
// the ZIP-244 authorizing-data digest. All results are in wire (internal) order.
import { blake2b } from "@noble/hashes/blake2.js";
import { sha256d, personalization } from "./hash.js";
import { ByteWriter } from "./writer.js";
import { encodeTransaction } from "./tx-encode.js";
import { COMPACT_CIPHERTEXT_SIZE, type Transaction, type TxIn, type TxOut } from "./tx-model.js";

const P = {
  headers: personalization("ZTxIdHeadersHash"),
  transparent: personalization("ZTxIdTranspaHash"),
  prevouts: personalization("ZTxIdPrevoutHash"),
  sequence: personalization("ZTxIdSequencHash"),
  outputs: personalization("ZTxIdOutputsHash"),
  sapling: personalization("ZTxIdSaplingHash"),
  sSpends: personalization("ZTxIdSSpendsHash"),
  sSpendsCompact: personalization("ZTxIdSSpendCHash"),
  sSpendsNoncompact: personalization("ZTxIdSSpendNHash"),
  sOutputs: personalization("ZTxIdSOutputHash"),
  sOutputsCompact: personalization("ZTxIdSOutC__Hash"),
  sOutputsMemos: personalization("ZTxIdSOutM__Hash"),
  sOutputsNoncompact: personalization("ZTxIdSOutN__Hash"),
  orchard: personalization("ZTxIdOrchardHash"),
  orchardCompact: personalization("ZTxIdOrcActCHash"),
  orchardMemos: personalization("ZTxIdOrcActMHash"),
  orchardNoncompact: personalization("ZTxIdOrcActNHash"),
  authTransparent: personalization("ZTxAuthTransHash"),
  authSapling: personalization("ZTxAuthSapliHash"),
  authOrchard: personalization("ZTxAuthOrchaHash"),
  authDataNode: personalization("ZcashAuthDatHash"),
};

const MEMO_END = 564; // end of the 512-byte memo inside the 580-byte note ciphertext

/**
 * Input for one BLAKE2b-256 digest. Fields are gathered in a buffer and hashed with a
 * single update: the hash's per-call overhead, not its byte rate, dominates for the many
 * small fields (8-byte values, 1-byte lengths) these digests cover.
 */
class Digest {
  private readonly w = new ByteWriter(256);
  constructor(private readonly personal: Uint8Array) {}
  bytes(b: Uint8Array): this {
    this.w.bytes(b);
    return this;
  }
  u8(v: number): this {
    this.w.u8(v);
    return this;
  }
  u32(v: number): this {
    this.w.u32(v);
    return this;
  }
  i64(v: bigint): this {
    this.w.i64(v);
    return this;
  }
  varBytes(b: Uint8Array): this {
    this.w.varBytes(b);
    return this;
  }
  finish(): Uint8Array {
    return this.w.length === 0 ? emptyDigest(this.personal) : blake2b(this.w.view(), { dkLen: 32, personalization: this.personal });
  }
}

// BLAKE2b-256(P, []) recurs in almost every txid (absent bundles), so it is computed once per personalization.
const emptyDigests = new Map<Uint8Array, Uint8Array>();
function emptyDigest(personal: Uint8Array): Uint8Array {
  let d = emptyDigests.get(personal);
  if (!d) {
    d = blake2b(new Uint8Array(0), { dkLen: 32, personalization: personal });
    emptyDigests.set(personal, d);
  }
  return d.slice();
}

const digest = (p: Uint8Array) => new Digest(p);

/** A 16-byte personalization: a 12-byte ASCII prefix and the little-endian consensus branch id. */
export function branchPersonalization(prefix: string, branchId: number): Uint8Array {
  const p = new Uint8Array(16);
  p.set(new TextEncoder().encode(prefix), 0);
  new DataView(p.buffer).setUint32(12, branchId >>> 0, true);
  return p;
}

/** The txid in wire order. `raw` (the tx's own bytes) saves re-encoding v1–v4 transactions. */
export function computeTxid(tx: Transaction, raw?: Uint8Array): Uint8Array {
  if (tx.version >= 5) return zip244Txid(tx);
  return sha256d(raw ?? encodeTransaction(tx));
}

function v5BranchId(tx: Transaction): number {
  if (tx.version !== 5 || tx.consensusBranchId === undefined)
    throw new RangeError(`ZIP-244 digests need a v5 transaction with a consensusBranchId (got v${tx.version})`);
  return tx.consensusBranchId;
}

/** ZIP 244 txid_digest (T) of a v5 transaction. */
export function zip244Txid(tx: Transaction): Uint8Array {
  const { branchId, header, sapling, orchard } = zip244SharedDigests(tx);
  return zip244Root(branchId, header, transparentDigest(tx), sapling, orchard);
}

/**
 * The digests ZIP 244's signature digest (S.1, S.3, S.4) takes unchanged from the txid
 * tree, with the branch id that personalizes both roots.
 */
export function zip244SharedDigests(tx: Transaction): { branchId: number; header: Uint8Array; sapling: Uint8Array; orchard: Uint8Array } {
  const branchId = v5BranchId(tx);
  return { branchId, header: headerDigest(tx, branchId), sapling: saplingDigest(tx), orchard: orchardDigest(tx) };
}

/** The root of a ZIP 244 digest tree: the txid (T) or a signature digest (S). */
export function zip244Root(branchId: number, header: Uint8Array, transparent: Uint8Array, sapling: Uint8Array, orchard: Uint8Array): Uint8Array {
  return digest(branchPersonalization("ZcashTxHash_", branchId)).bytes(header).bytes(transparent).bytes(sapling).bytes(orchard).finish();
}

function headerDigest(tx: Transaction, branchId: number): Uint8Array {
  return digest(P.headers)
    .u32(0x80000000 | tx.version)
    .u32(tx.versionGroupId ?? 0)
    .u32(branchId)
    .u32(tx.lockTime)
    .u32(tx.expiryHeight ?? 0)
    .finish();
}

/** T.2 transparent_digest; also S.2 when the transaction has no transparent input to sign. */
export function transparentDigest(tx: Transaction): Uint8Array {
  if (tx.vin.length + tx.vout.length === 0) return transparentNode([]);
  return transparentNode([prevoutsDigest(tx.vin), sequenceDigest(tx.vin), outputsDigest(tx.vout)]);
}

/** BLAKE2b-256 personalized "ZTxIdTranspaHash" over `parts` (T.2, and S.2 for signatures). */
export function transparentNode(parts: readonly Uint8Array[]): Uint8Array {
  const d = digest(P.transparent);
  for (const p of parts) d.bytes(p);
  return d.finish();
}

/** T.2a prevouts_digest; with no inputs, the empty digest a signature over one input alone uses. */
export function prevoutsDigest(vin: readonly TxIn[]): Uint8Array {
  const d = digest(P.prevouts);
  for (const i of vin) d.bytes(i.prevoutTxid).u32(i.prevoutIndex);
  return d.finish();
}

/** T.2b sequence_digest (empty for no inputs, as above). */
export function sequenceDigest(vin: readonly TxIn[]): Uint8Array {
  const d = digest(P.sequence);
  for (const i of vin) d.u32(i.sequence);
  return d.finish();
}

/** T.2c outputs_digest over `vout` (empty, one output or all, as the signature's hash type asks). */
export function outputsDigest(vout: readonly TxOut[]): Uint8Array {
  const d = digest(P.outputs);
  for (const o of vout) d.i64(o.value).varBytes(o.scriptPubKey);
  return d.finish();
}

function saplingDigest(tx: Transaction): Uint8Array {
  const s = tx.sapling;
  if (!s || s.spends.length + s.outputs.length === 0) return digest(P.sapling).finish();
  let spends: Uint8Array;
  if (s.spends.length === 0) {
    spends = digest(P.sSpends).finish();
  } else {
    const compact = digest(P.sSpendsCompact);
    const noncompact = digest(P.sSpendsNoncompact);
    for (const sp of s.spends) {
      compact.bytes(sp.nullifier);
      noncompact.bytes(sp.cv).bytes(sp.anchor).bytes(sp.rk);
    }
    spends = digest(P.sSpends).bytes(compact.finish()).bytes(noncompact.finish()).finish();
  }
  let outputs: Uint8Array;
  if (s.outputs.length === 0) {
    outputs = digest(P.sOutputs).finish();
  } else {
    const compact = digest(P.sOutputsCompact);
    const memos = digest(P.sOutputsMemos);
    const noncompact = digest(P.sOutputsNoncompact);
    for (const o of s.outputs) {
      compact.bytes(o.cmu).bytes(o.ephemeralKey).bytes(o.encCiphertext.subarray(0, COMPACT_CIPHERTEXT_SIZE));
      memos.bytes(o.encCiphertext.subarray(COMPACT_CIPHERTEXT_SIZE, MEMO_END));
      noncompact.bytes(o.cv).bytes(o.encCiphertext.subarray(MEMO_END)).bytes(o.outCiphertext);
    }
    outputs = digest(P.sOutputs).bytes(compact.finish()).bytes(memos.finish()).bytes(noncompact.finish()).finish();
  }
  return digest(P.sapling).bytes(spends).bytes(outputs).i64(s.valueBalance).finish();
}

function orchardDigest(tx: Transaction): Uint8Array {
  const o = tx.orchard;
  if (!o || o.actions.length === 0) return digest(P.orchard).finish();
  const compact = digest(P.orchardCompact);
  const memos = digest(P.orchardMemos);
  const noncompact = digest(P.orchardNoncompact);
  for (const a of o.actions) {
    compact.bytes(a.nullifier).bytes(a.cmx).bytes(a.ephemeralKey).bytes(a.encCiphertext.subarray(0, COMPACT_CIPHERTEXT_SIZE));
    memos.bytes(a.encCiphertext.subarray(COMPACT_CIPHERTEXT_SIZE, MEMO_END));
    noncompact.bytes(a.cv).bytes(a.rk).bytes(a.encCiphertext.subarray(MEMO_END)).bytes(a.outCiphertext);
  }
  return digest(P.orchard).bytes(compact.finish()).bytes(memos.finish()).bytes(noncompact.finish()).u8(o.flags).i64(o.valueBalance).bytes(o.anchor).finish();
}

/** Placeholder ZIP 244 uses as the auth commitment of pre-v5 transactions. */
export const PRE_V5_AUTH_DIGEST: Uint8Array = new Uint8Array(32).fill(0xff);

/** ZIP 244 auth_digest (A) of a v5 transaction; 32 bytes of 0xff for earlier versions. */
export function authDigest(tx: Transaction): Uint8Array {
  if (tx.version < 5) return PRE_V5_AUTH_DIGEST.slice();
  const branchId = v5BranchId(tx);
  const scripts = digest(P.authTransparent);
  for (const i of tx.vin) scripts.varBytes(i.scriptSig);
  const sapling = digest(P.authSapling);
  const s = tx.sapling;
  if (s && s.spends.length + s.outputs.length > 0) {
    for (const sp of s.spends) sapling.bytes(sp.zkproof);
    for (const sp of s.spends) sapling.bytes(sp.spendAuthSig);
    for (const o of s.outputs) sapling.bytes(o.zkproof);
    if (s.bindingSig) sapling.bytes(s.bindingSig);
  }
  const orchard = digest(P.authOrchard);
  const o = tx.orchard;
  if (o && o.actions.length > 0) {
    orchard.bytes(o.proof);
    for (const a of o.actions) orchard.bytes(a.spendAuthSig);
    orchard.bytes(o.bindingSig);
  }
  return digest(branchPersonalization("ZTxAuthHash_", branchId)).bytes(scripts.finish()).bytes(sapling.finish()).bytes(orchard.finish()).finish();
}

/**
 * hashAuthDataRoot (ZIP 244): a binary tree over the auth digests, padded with zero
 * leaves to a power of two, inner nodes BLAKE2b-256 personalized "ZcashAuthDatHash".
 */
export function authDataRoot(authDigests: Uint8Array[]): Uint8Array {
  if (authDigests.length === 0) throw new RangeError("authDataRoot needs at least one transaction");
  let width = 1;
  while (width < authDigests.length) width *= 2;
  let level: Uint8Array[] = [];
  for (let i = 0; i < width; i++) level.push(authDigests[i] ?? new Uint8Array(32));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(
        digest(P.authDataNode)
          .bytes(level[i]!)
          .bytes(level[i + 1]!)
          .finish(),
      );
    level = next;
  }
  return level[0]!;
}
