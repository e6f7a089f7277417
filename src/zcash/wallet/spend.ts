// A signed v5 transaction spending P2PKH outputs of one key to P2PKH/P2SH addresses,
// paying the ZIP 317 conventional fee, with change back to the key (or a given address).
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  BRANCH_IDS,
  branchIdHex,
  bytesEqual,
  computeTxid,
  displayHex,
  encodeTransaction,
  NU5_VERSION_GROUP_ID,
  scriptFromAddress,
  UPGRADE_NAMES,
  wireFromDisplay,
  type Transaction,
  type TxIn,
  type TxOut,
  type Upgrade,
} from "../codec/index.js";
import { conventionalFee, dustThreshold } from "./fee.js";
import type { WalletKey } from "./keys.js";
import { SIGHASH_ALL, sighashesV5, type SpentOutput } from "./sighash.js";

/** A transparent output to spend, as getaddressutxos describes it. */
export interface Utxo {
  /** Display-order (JSON-RPC) hex txid of the transaction holding the output. */
  txid: string;
  index: number;
  /** Zatoshi. */
  value: bigint;
  scriptPubKey: Uint8Array;
}

export interface Payment {
  address: string;
  /** Zatoshi. */
  value: bigint;
}

export interface SpendRequest {
  /** Every one of these is spent; each must pay `key`'s P2PKH script. */
  utxos: readonly Utxo[];
  key: WalletKey;
  outputs: readonly Payment[];
  /** Where change goes; the key's own address when absent. */
  changeAddress?: string | undefined;
  /** The branch id of the block the transaction is meant for (getblockchaininfo consensus.nextblock). */
  branchId: number;
  /** The last height the transaction may be mined at (ZIP 203); 0 means no expiry. */
  expiryHeight: number;
}

export interface BuiltSpend {
  /** The serialized transaction, ready for sendrawtransaction. */
  raw: Uint8Array;
  /** Display-order hex txid, as sendrawtransaction answers it. */
  txid: string;
  tx: Transaction;
  /** Zatoshi paid to miners: the conventional fee, plus any change too small to relay. */
  fee: bigint;
  /** Zatoshi returned as change (0 when there is no change output). */
  change: bigint;
}

const FINAL_SEQUENCE = 0xffffffff;
const PRE_V5_UPGRADES: readonly Upgrade[] = ["overwinter", "sapling", "blossom", "heartwood", "canopy"];
// Above this, ZIP 203 reads an expiry height as invalid.
const MAX_EXPIRY_HEIGHT = 499_999_999;
// A signature's DER encoding is at most 72 bytes; with the hash type byte and the 33-byte
// key, each pushed with a one-byte length, a P2PKH scriptSig is at most 108 bytes.
const MAX_P2PKH_SCRIPTSIG = 1 + 73 + 1 + 33;

export function buildTransparentSpend(request: SpendRequest): BuiltSpend {
  const { utxos, key, outputs, branchId, expiryHeight } = request;
  checkRequest(request);
  const payTo = outputs.map((o): TxOut => ({ value: o.value, scriptPubKey: scriptFromAddress(o.address, key.network) }));
  for (const [i, out] of payTo.entries()) {
    const dust = dustThreshold(out);
    if (out.value < dust) throw new RangeError(`output ${i} pays ${out.value} zat to ${outputs[i]!.address}, below the ${dust} zat a node relays`);
  }
  const changeScript = request.changeAddress === undefined ? key.scriptPubKey : scriptFromAddress(request.changeAddress, key.network);
  const vin: TxIn[] = utxos.map((u) => ({
    prevoutTxid: wireFromDisplay(u.txid),
    prevoutIndex: u.index,
    scriptSig: new Uint8Array(0),
    sequence: FINAL_SEQUENCE,
  }));
  const spent: SpentOutput[] = utxos.map((u) => ({ value: u.value, scriptPubKey: u.scriptPubKey }));
  const unsigned = (vout: TxOut[]): Transaction => ({
    overwintered: true,
    version: 5,
    versionGroupId: NU5_VERSION_GROUP_ID,
    consensusBranchId: branchId >>> 0,
    lockTime: 0,
    expiryHeight,
    vin: vin.map((i) => ({ ...i })),
    vout,
  });
  const sign = (tx: Transaction) => signInputs(tx, spent, key);

  const available = utxos.reduce((n, u) => n + u.value, 0n) - payTo.reduce((n, o) => n + o.value, 0n);
  const withChange = settleChange(available, payTo, changeScript, unsigned, sign);
  if (withChange) return finish(withChange.tx, withChange.fee, withChange.change);

  const tx = sign(unsigned(payTo));
  const fee = conventionalFee(tx);
  if (available < fee) {
    const have = utxos.reduce((n, u) => n + u.value, 0n);
    throw new RangeError(`the UTXOs hold ${have} zat; the outputs need ${have - available} zat plus a fee of ${fee} zat (ZIP 317): add UTXOs or pay less`);
  }
  return finish(tx, available, 0n);
}

/**
 * The fee depends on the signed size, and the signatures on the fee (through the change
 * value): start from the largest scriptSigs, sign, and re-sign with the fee the signed
 * transaction calls for until the two agree. Undefined when change would be dust.
 */
function settleChange(
  available: bigint,
  payTo: TxOut[],
  changeScript: Uint8Array,
  unsigned: (vout: TxOut[]) => Transaction,
  sign: (tx: Transaction) => Transaction,
): { tx: Transaction; fee: bigint; change: bigint } | undefined {
  const withChange = (change: bigint) => [...payTo, { value: change, scriptPubKey: changeScript }];
  const estimate = unsigned(withChange(0n));
  for (const i of estimate.vin) i.scriptSig = new Uint8Array(MAX_P2PKH_SCRIPTSIG);
  let fee = conventionalFee(estimate);
  let highest = fee;
  for (let round = 0; round < 4; round++) {
    const change = available - fee;
    const vout = withChange(change);
    if (change < dustThreshold(vout[vout.length - 1]!)) return undefined;
    const tx = sign(unsigned(vout));
    const needed = conventionalFee(tx);
    if (needed === fee) return { tx, fee, change };
    if (needed > highest) highest = needed;
    fee = needed;
  }
  // Signature lengths kept moving the fee across a size boundary: pay the most it asked.
  const change = available - highest;
  const vout = withChange(change);
  if (change < dustThreshold(vout[vout.length - 1]!)) return undefined;
  return { tx: sign(unsigned(vout)), fee: highest, change };
}

function finish(tx: Transaction, fee: bigint, change: bigint): BuiltSpend {
  const raw = encodeTransaction(tx);
  return { raw, txid: displayHex(computeTxid(tx, raw)), tx, fee, change };
}

/** Signs every input with SIGHASH_ALL: scriptSig = <DER signature ‖ 0x01> <compressed key>. */
function signInputs(tx: Transaction, spent: readonly SpentOutput[], key: WalletKey): Transaction {
  const sighash = sighashesV5(tx, spent);
  const scriptSigs = tx.vin.map((_, index) => {
    const digest = sighash(index, SIGHASH_ALL);
    const der = secp256k1.sign(digest, key.secretKey, { prehash: false, lowS: true, format: "der" });
    return Uint8Array.of(der.length + 1, ...der, SIGHASH_ALL, key.publicKey.length, ...key.publicKey);
  });
  return { ...tx, vin: tx.vin.map((input, i) => ({ ...input, scriptSig: scriptSigs[i]! })) };
}

function checkRequest({ utxos, key, outputs, branchId, expiryHeight }: SpendRequest): void {
  if (utxos.length === 0) throw new RangeError("nothing to spend: pass at least one UTXO (see matureUtxos)");
  if (!Number.isInteger(branchId) || branchId < 0 || branchId > 0xffffffff)
    throw new RangeError(`branchId must be a 32-bit consensus branch id, got ${branchId}`);
  const before = PRE_V5_UPGRADES.find((u) => BRANCH_IDS[u] === branchId);
  if (branchId === 0 || before) {
    throw new RangeError(
      `branch id ${branchIdHex(branchId)} is ${before ? UPGRADE_NAMES[before] : "Sprout"}, where v5 transactions are invalid: the chain needs NU5 active at the next block (on a Zebra regtest, set NU5 and later under [network.testnet_parameters.activation_heights])`,
    );
  }
  if (!Number.isInteger(expiryHeight) || expiryHeight < 0 || expiryHeight > MAX_EXPIRY_HEIGHT) {
    throw new RangeError(`expiryHeight must be an integer from 0 to ${MAX_EXPIRY_HEIGHT}, got ${expiryHeight}`);
  }
  const seen = new Set<string>();
  for (const u of utxos) {
    const outpoint = `${u.txid}:${u.index}`;
    if (seen.has(outpoint)) throw new RangeError(`UTXO ${outpoint} is listed twice`);
    seen.add(outpoint);
    if (!/^[0-9a-fA-F]{64}$/.test(u.txid)) throw new RangeError(`UTXO txid ${JSON.stringify(u.txid)} is not 64 hex digits`);
    if (!Number.isInteger(u.index) || u.index < 0 || u.index > 0xffffffff) throw new RangeError(`UTXO ${outpoint}: index must be a 32-bit output index`);
    if (u.value <= 0n) throw new RangeError(`UTXO ${outpoint} has value ${u.value}; it must be positive`);
    if (!bytesEqual(u.scriptPubKey, key.scriptPubKey))
      throw new RangeError(`UTXO ${outpoint} is not paid to ${key.address} (the key labelled ${JSON.stringify(key.label)}), so it cannot sign for it`);
  }
  for (const [i, o] of outputs.entries()) {
    if (o.value <= 0n) throw new RangeError(`output ${i} to ${o.address} has value ${o.value}; it must be positive`);
  }
}
