// ZIP 244 signature digests of v5 transactions. The header, Sapling and Orchard digests
// and the transparent prevouts/sequence/outputs digests are the txid tree's own
// (codec/txid.ts); what is added here is S.2, the part a transparent signature changes.
import {
  blake2b256,
  isCoinbase,
  outputsDigest,
  personalization,
  prevoutsDigest,
  sequenceDigest,
  transparentDigest,
  transparentNode,
  ByteWriter,
  zip244Root,
  zip244SharedDigests,
  type Transaction,
} from "../codec/index.js";

export const SIGHASH_ALL = 0x01;
export const SIGHASH_NONE = 0x02;
export const SIGHASH_SINGLE = 0x03;
export const SIGHASH_ANYONECANPAY = 0x80;

/** The six hash types a v5 transparent signature may carry; any other byte is invalid. */
const VALID_HASH_TYPES = new Set([0x01, 0x02, 0x03, 0x81, 0x82, 0x83]);

const P = {
  amounts: personalization("ZTxTrAmountsHash"),
  scripts: personalization("ZTxTrScriptsHash"),
  txIn: personalization("Zcash___TxInHash"),
};

/** The output an input spends: ZIP 244 commits every input's amount and script. */
export interface SpentOutput {
  value: bigint;
  scriptPubKey: Uint8Array;
}

/**
 * The digest a signature over transparent input `index` signs. `spent[i]` is the output
 * input i spends, for every input (in order).
 */
export function transparentSighashV5(tx: Transaction, spent: readonly SpentOutput[], index: number, hashType = SIGHASH_ALL): Uint8Array {
  return sighashesV5(tx, spent)(index, hashType);
}

/** The digest Sapling and Orchard signatures sign (ZIP 244 with no transparent input selected). */
export function shieldedSighashV5(tx: Transaction, spent: readonly SpentOutput[]): Uint8Array {
  const { branchId, header, sapling, orchard } = zip244SharedDigests(tx);
  const transparent = tx.vin.length === 0 || isCoinbase(tx) ? transparentDigest(tx) : allInputs(tx, spent).sigDigest(SIGHASH_ALL, undefined);
  return zip244Root(branchId, header, transparent, sapling, orchard);
}

/**
 * Signature digests of one transaction's inputs. The digests over all inputs and outputs
 * are computed once, so signing n inputs costs O(n), not O(n²).
 */
export function sighashesV5(tx: Transaction, spent: readonly SpentOutput[]): (index: number, hashType?: number) => Uint8Array {
  if (tx.vin.length === 0 || isCoinbase(tx)) throw new RangeError("the transaction has no transparent input to sign");
  const { branchId, header, sapling, orchard } = zip244SharedDigests(tx);
  const all = allInputs(tx, spent);
  return (index, hashType = SIGHASH_ALL) => {
    if (!VALID_HASH_TYPES.has(hashType))
      throw new RangeError(`hash type 0x${hashType.toString(16)} is not valid in a v5 transaction (use 0x01-0x03, optionally with 0x80)`);
    if (!Number.isInteger(index) || index < 0 || index >= tx.vin.length)
      throw new RangeError(`input ${index} does not exist (the transaction has ${tx.vin.length})`);
    if ((hashType & 0x1f) === SIGHASH_SINGLE && index >= tx.vout.length) {
      throw new RangeError(`SIGHASH_SINGLE on input ${index} needs an output at the same index (the transaction has ${tx.vout.length})`);
    }
    return zip244Root(branchId, header, all.sigDigest(hashType, index), sapling, orchard);
  };
}

/** S.2 for a transaction with transparent inputs, over the input at `index` (or none). */
function allInputs(tx: Transaction, spent: readonly SpentOutput[]) {
  if (spent.length !== tx.vin.length) throw new RangeError(`ZIP 244 needs the spent output of every input: got ${spent.length} for ${tx.vin.length} inputs`);
  const prevouts = prevoutsDigest(tx.vin);
  const amounts = amountsDigest(spent);
  const scripts = scriptsDigest(spent);
  const sequence = sequenceDigest(tx.vin);
  const outputs = outputsDigest(tx.vout);
  const none = {
    prevouts: prevoutsDigest([]),
    amounts: amountsDigest([]),
    scripts: scriptsDigest([]),
    sequence: sequenceDigest([]),
    outputs: outputsDigest([]),
  };
  return {
    sigDigest(hashType: number, index: number | undefined): Uint8Array {
      const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
      const base = hashType & 0x1f;
      const signedOutputs = base === SIGHASH_NONE ? none.outputs : base === SIGHASH_SINGLE && index !== undefined ? outputsDigest([tx.vout[index]!]) : outputs;
      return transparentNode([
        Uint8Array.of(hashType),
        anyoneCanPay ? none.prevouts : prevouts,
        anyoneCanPay ? none.amounts : amounts,
        anyoneCanPay ? none.scripts : scripts,
        anyoneCanPay ? none.sequence : sequence,
        signedOutputs,
        txInDigest(tx, spent, index),
      ]);
    },
  };
}

function amountsDigest(spent: readonly SpentOutput[]): Uint8Array {
  const w = new ByteWriter(8 * spent.length + 1);
  for (const s of spent) w.i64(s.value);
  return blake2b256(P.amounts, w.view());
}

function scriptsDigest(spent: readonly SpentOutput[]): Uint8Array {
  const w = new ByteWriter();
  for (const s of spent) w.varBytes(s.scriptPubKey);
  return blake2b256(P.scripts, w.view());
}

/** S.2g: the signed input itself, or the empty digest when none is. */
function txInDigest(tx: Transaction, spent: readonly SpentOutput[], index: number | undefined): Uint8Array {
  if (index === undefined) return blake2b256(P.txIn);
  const input = tx.vin[index]!;
  const w = new ByteWriter(80);
  w.bytes(input.prevoutTxid).u32(input.prevoutIndex).i64(spent[index]!.value).varBytes(spent[index]!.scriptPubKey).u32(input.sequence);
  return blake2b256(P.txIn, w.view());
}
