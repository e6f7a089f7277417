// ZIP 244 signature digests of v5 transactions. The header, Sapling and Orchard digests
// and the transparent prevouts/sequence/outputs digests are the txid tree's own
// (codec/txid.ts); what is added here is S.2, the part a transparent signature changes.
import {
  blake2b256, isCoinbase, outputsDigest, personalization, prevoutsDigest, sequenceDigest,
  transparentDigest, transparentNode, ByteWriter, zip244Root, zip244SharedDigests, type Transaction,
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
  if (!VALID_HASH_TYPES.has(hashType)) throw new RangeError(`hash type 0x${hashType.toString(16)} is not valid in a v5 transaction (use 0x01-0x03, optionally with 0x80)`);
  if (!Number.isInteger(index) || index < 0 || index >= tx.vin.length) throw new RangeError(`input ${index} does not exist (the transaction has ${tx.vin.length})`);
  if (isCoinbase(tx)) throw new RangeError("a coinbase input is not signed");
  if ((hashType & 0x1f) === SIGHASH_SINGLE && index >= tx.vout.length) {
    throw new RangeError(`SIGHASH_SINGLE on input ${index} needs an output at the same index (the transaction has ${tx.vout.length})`);
  }
  const { branchId, header, sapling, orchard } = zip244SharedDigests(tx);
  return zip244Root(branchId, header, transparentSigDigest(tx, spent, { index, hashType }), sapling, orchard);
}

/** The digest Sapling and Orchard signatures sign (ZIP 244 with no transparent input selected). */
export function shieldedSighashV5(tx: Transaction, spent: readonly SpentOutput[]): Uint8Array {
  const { branchId, header, sapling, orchard } = zip244SharedDigests(tx);
  return zip244Root(branchId, header, transparentSigDigest(tx, spent, undefined), sapling, orchard);
}

function transparentSigDigest(tx: Transaction, spent: readonly SpentOutput[], input: { index: number; hashType: number } | undefined): Uint8Array {
  if (tx.vin.length === 0 || isCoinbase(tx)) return transparentDigest(tx);
  if (spent.length !== tx.vin.length) throw new RangeError(`ZIP 244 needs the spent output of every input: got ${spent.length} for ${tx.vin.length} inputs`);
  const hashType = input?.hashType ?? SIGHASH_ALL;
  const anyoneCanPay = (hashType & SIGHASH_ANYONECANPAY) !== 0;
  const base = hashType & 0x1f;

  let outputs: Uint8Array;
  if (base === SIGHASH_NONE) outputs = outputsDigest([]);
  else if (base === SIGHASH_SINGLE) outputs = outputsDigest(input ? [tx.vout[input.index]!] : []);
  else outputs = outputsDigest(tx.vout);

  return transparentNode([
    Uint8Array.of(hashType),
    prevoutsDigest(anyoneCanPay ? [] : tx.vin),
    amountsDigest(anyoneCanPay ? [] : spent),
    scriptsDigest(anyoneCanPay ? [] : spent),
    sequenceDigest(anyoneCanPay ? [] : tx.vin),
    outputs,
    txInDigest(tx, spent, input?.index),
  ]);
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
