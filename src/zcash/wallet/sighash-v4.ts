// Signature digests of v3 (ZIP 143) and v4 (ZIP 243) transactions: one BLAKE2b-256 over
// the header fields and digests of each part, the input being signed appended last.
// v5 digests differ in structure (ZIP 244, sighash.ts).
import {
  blake2b256,
  branchPersonalization,
  ByteWriter,
  personalization,
  writeJoinSplit,
  writeSaplingOutputV4,
  writeSaplingSpendV4,
  type Transaction,
} from "../codec/index.js";
import { SIGHASH_ANYONECANPAY, SIGHASH_NONE, SIGHASH_SINGLE } from "./sighash.js";

const P = {
  prevouts: personalization("ZcashPrevoutHash"),
  sequence: personalization("ZcashSequencHash"),
  outputs: personalization("ZcashOutputsHash"),
  joinSplits: personalization("ZcashJSplitsHash"),
  spends: personalization("ZcashSSpendsHash"),
  outputsSapling: personalization("ZcashSOutputHash"),
};

const ZERO = new Uint8Array(32);

/** The transparent input a signature covers, with the script and value it spends. */
export interface SignedInputV4 {
  index: number;
  /** The script the signature checks (the spent scriptPubKey for P2PKH). */
  scriptCode: Uint8Array;
  /** Zatoshi of the spent output. */
  amount: bigint;
}

/**
 * The digest of a v3 or v4 transaction under `branchId`; without `input`, the digest
 * JoinSplit and Sapling signatures sign.
 */
export function sighashV4(tx: Transaction, branchId: number, input: SignedInputV4 | undefined, hashType: number): Uint8Array {
  if (tx.version !== 3 && tx.version !== 4) throw new RangeError(`ZIP 143/243 digests are for v3 and v4 transactions, got v${tx.version}`);
  if (input && (!Number.isInteger(input.index) || input.index < 0 || input.index >= tx.vin.length)) {
    throw new RangeError(`input ${input.index} does not exist (the transaction has ${tx.vin.length})`);
  }
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const base = hashType & 0x1f;
  const w = new ByteWriter(256);
  w.u32((0x80000000 | tx.version) >>> 0).u32(tx.versionGroupId ?? 0);
  w.bytes(
    anyoneCanPay
      ? ZERO
      : hashOf(P.prevouts, (h) => {
          for (const i of tx.vin) h.bytes(i.prevoutTxid).u32(i.prevoutIndex);
        }),
  );
  w.bytes(
    anyoneCanPay || base === SIGHASH_SINGLE || base === SIGHASH_NONE
      ? ZERO
      : hashOf(P.sequence, (h) => {
          for (const i of tx.vin) h.u32(i.sequence);
        }),
  );
  // All outputs are hashed even when there are none; NONE, and SINGLE without a matching output, sign zeros.
  const outputs =
    base !== SIGHASH_SINGLE && base !== SIGHASH_NONE
      ? tx.vout
      : base === SIGHASH_SINGLE && input && input.index < tx.vout.length
        ? [tx.vout[input.index]!]
        : undefined;
  w.bytes(
    outputs === undefined
      ? ZERO
      : hashOf(P.outputs, (h) => {
          for (const o of outputs) h.i64(o.value).varBytes(o.scriptPubKey);
        }),
  );
  const sprout = tx.sprout;
  w.bytes(
    !sprout || sprout.joinSplits.length === 0
      ? ZERO
      : hashOf(P.joinSplits, (h) => {
          for (const js of sprout.joinSplits) writeJoinSplit(h, js, tx.version);
          h.bytes(sprout.joinSplitPubKey);
        }),
  );
  if (tx.version === 4) {
    const spends = tx.sapling?.spends ?? [];
    const saplingOutputs = tx.sapling?.outputs ?? [];
    w.bytes(
      spends.length === 0
        ? ZERO
        : hashOf(P.spends, (h) => {
            for (const s of spends) writeSaplingSpendV4(h, s);
          }),
    );
    w.bytes(
      saplingOutputs.length === 0
        ? ZERO
        : hashOf(P.outputsSapling, (h) => {
            for (const o of saplingOutputs) writeSaplingOutputV4(h, o);
          }),
    );
  }
  w.u32(tx.lockTime).u32(tx.expiryHeight ?? 0);
  if (tx.version === 4) w.i64(tx.sapling?.valueBalance ?? 0n);
  w.u32(hashType);
  if (input) {
    const i = tx.vin[input.index]!;
    w.bytes(i.prevoutTxid).u32(i.prevoutIndex).varBytes(input.scriptCode).i64(input.amount).u32(i.sequence);
  }
  return blake2b256(branchPersonalization("ZcashSigHash", branchId), w.view());
}

function hashOf(personal: Uint8Array, fill: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter(256);
  fill(w);
  return blake2b256(personal, w.view());
}
