// The plain-data transaction model (v1–v5). It holds every serialized field, so that
// encodeTransaction(decodeTransaction(bytes)) reproduces the bytes exactly and fixture
// chains can be synthesized from it. Hash-like fields are in wire order. Field layouts:
// Zcash protocol specification §7.1 (transaction encoding) and ZIP 225 (v5).

export interface TxIn {
  /** Wire-order txid of the spent output (32 zero bytes in a coinbase). */
  prevoutTxid: Uint8Array;
  /** Output index (0xffffffff in a coinbase). */
  prevoutIndex: number;
  scriptSig: Uint8Array;
  sequence: number;
}

export interface TxOut {
  /** Zatoshi; serialized as a signed 64-bit integer. */
  value: bigint;
  scriptPubKey: Uint8Array;
}

export interface JoinSplit {
  vpubOld: bigint;
  vpubNew: bigint;
  anchor: Uint8Array;
  nullifiers: [Uint8Array, Uint8Array];
  commitments: [Uint8Array, Uint8Array];
  ephemeralKey: Uint8Array;
  randomSeed: Uint8Array;
  macs: [Uint8Array, Uint8Array];
  /** BCTV14 (296 bytes) in v2/v3, Groth16 (192 bytes) in v4. */
  proof: Uint8Array;
  ciphertexts: [Uint8Array, Uint8Array];
}

/** Present only when the transaction has at least one JoinSplit. */
export interface SproutBundle {
  joinSplits: JoinSplit[];
  joinSplitPubKey: Uint8Array;
  joinSplitSig: Uint8Array;
}

export interface SaplingSpend {
  cv: Uint8Array;
  /** Per spend in v4; v5 serializes one anchor shared by all spends (each spend holds it). */
  anchor: Uint8Array;
  nullifier: Uint8Array;
  rk: Uint8Array;
  zkproof: Uint8Array;
  spendAuthSig: Uint8Array;
}

export interface SaplingOutput {
  cv: Uint8Array;
  cmu: Uint8Array;
  ephemeralKey: Uint8Array;
  encCiphertext: Uint8Array;
  outCiphertext: Uint8Array;
  zkproof: Uint8Array;
}

/**
 * Absent when the transaction has no Sapling spends or outputs and (v4) a zero value
 * balance. A v4 transaction always serializes valueBalance, so an empty bundle with a
 * non-zero balance is kept to stay byte exact; v5 cannot express that and rejects it.
 */
export interface SaplingBundle {
  valueBalance: bigint;
  spends: SaplingSpend[];
  outputs: SaplingOutput[];
  /** Present iff there is at least one spend or output. */
  bindingSig: Uint8Array | undefined;
}

export interface OrchardAction {
  cv: Uint8Array;
  nullifier: Uint8Array;
  rk: Uint8Array;
  cmx: Uint8Array;
  ephemeralKey: Uint8Array;
  encCiphertext: Uint8Array;
  outCiphertext: Uint8Array;
  /** Serialized in a separate array after the proof; kept with its action here. */
  spendAuthSig: Uint8Array;
}

/** Present only when the transaction has at least one action. */
export interface OrchardBundle {
  actions: OrchardAction[];
  flags: number;
  valueBalance: bigint;
  anchor: Uint8Array;
  /** The aggregated Halo 2 proof (without its CompactSize length). */
  proof: Uint8Array;
  bindingSig: Uint8Array;
}

export interface Transaction {
  overwintered: boolean;
  /** 1–5 (the header without the overwintered bit). */
  version: number;
  /** v3+ only. */
  versionGroupId?: number | undefined;
  /** v5 only: the branch id the transaction commits to (also personalizes its txid). */
  consensusBranchId?: number | undefined;
  lockTime: number;
  /** v3+ only. */
  expiryHeight?: number | undefined;
  vin: TxIn[];
  vout: TxOut[];
  /** v2–v4 only. */
  sprout?: SproutBundle | undefined;
  /** v4–v5 only. */
  sapling?: SaplingBundle | undefined;
  /** v5 only. */
  orchard?: OrchardBundle | undefined;
}

export const OVERWINTER_VERSION_GROUP_ID = 0x03c48270;
export const SAPLING_VERSION_GROUP_ID = 0x892f2085;
export const NU5_VERSION_GROUP_ID = 0x26a7270a;

/** Version group id each overwintered version must carry. */
export const VERSION_GROUP_IDS: Readonly<Record<number, number>> = {
  3: OVERWINTER_VERSION_GROUP_ID,
  4: SAPLING_VERSION_GROUP_ID,
  5: NU5_VERSION_GROUP_ID,
};

export const SIZES = {
  hash: 32,
  bctv14Proof: 296,
  groth16Proof: 192,
  sproutCiphertext: 601,
  saplingEncCiphertext: 580,
  outCiphertext: 80,
  signature: 64,
  /** v4 spend: cv, anchor, nullifier, rk, proof, sig. */
  saplingSpendV4: 32 * 4 + 192 + 64,
  /** v4 output: cv, cmu, epk, enc, out, proof. */
  saplingOutputV4: 32 * 3 + 580 + 80 + 192,
  /** v5 spend without proof/sig/anchor: cv, nullifier, rk. */
  saplingSpendV5: 32 * 3,
  /** v5 output without proof. */
  saplingOutputV5: 32 * 3 + 580 + 80,
  orchardAction: 32 * 5 + 580 + 80,
  /** Smallest possible JoinSplit (Groth16 proof). */
  joinSplitMin: 8 + 8 + 32 + 64 + 64 + 32 + 32 + 64 + 192 + 2 * 601,
  txInMin: 32 + 4 + 1 + 4,
  txOutMin: 8 + 1,
} as const;

/** Bytes of a compact ciphertext prefix (ZIP 307). */
export const COMPACT_CIPHERTEXT_SIZE = 52;

const NULL_TXID = new Uint8Array(32);

/** A coinbase has exactly one input spending the null outpoint. */
export function isCoinbase(tx: Transaction): boolean {
  if (tx.vin.length !== 1) return false;
  const input = tx.vin[0]!;
  if (input.prevoutIndex !== 0xffffffff) return false;
  for (let i = 0; i < 32; i++) if (input.prevoutTxid[i] !== NULL_TXID[i]) return false;
  return true;
}

/** The proof length JoinSplits of this version carry. */
export function joinSplitProofSize(version: number): number {
  return version >= 4 ? SIZES.groth16Proof : SIZES.bctv14Proof;
}
