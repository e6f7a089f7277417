// Choosing spendable outputs from a getaddressutxos answer. Zebra's answer does not say
// which outputs come from a coinbase, so every output is held to the coinbase maturity
// rule unless the caller names its transaction as an ordinary one (e.g. one it sent).
import { hexToBytes, HexError } from "../codec/index.js";
import type { Utxo } from "./spend.js";

/**
 * "A transaction MUST NOT spend a transparent output of a coinbase transaction from a
 * block less than 100 blocks prior to the spend" (protocol spec §7.1.2; Zebra's
 * MIN_TRANSPARENT_COINBASE_MATURITY).
 */
export const COINBASE_MATURITY = 100;

/** The first block height at which a coinbase output created at `createdHeight` may be spent. */
export function coinbaseSpendableAt(createdHeight: number): number {
  return createdHeight + COINBASE_MATURITY;
}

/** Whether a transaction sent now (mined at earliest at tip + 1, the height a node's mempool checks) may spend it. */
export function isCoinbaseMature(createdHeight: number, tipHeight: number): boolean {
  return tipHeight + 1 >= coinbaseSpendableAt(createdHeight);
}

export interface AddressUtxo extends Utxo {
  address: string;
  /** Height of the block that created the output. */
  height: number;
}

export interface MatureUtxoOptions {
  /** Display-hex txids known not to be coinbases; their outputs are spendable at once. */
  nonCoinbaseTxids?: Iterable<string> | undefined;
}

/**
 * The outputs of a getaddressutxos answer (the plain array, or Zebra's `chainInfo: true`
 * object with `utxos`) that a transaction sent at `tipHeight` may spend, in answer order.
 */
export function matureUtxos(json: unknown, tipHeight: number, options: MatureUtxoOptions = {}): AddressUtxo[] {
  if (!Number.isInteger(tipHeight) || tipHeight < 0) throw new RangeError(`tipHeight must be a non-negative integer, got ${tipHeight}`);
  const ordinary = new Set([...(options.nonCoinbaseTxids ?? [])].map((t) => t.toLowerCase()));
  return parseAddressUtxos(json).filter((u) => ordinary.has(u.txid) || isCoinbaseMature(u.height, tipHeight));
}

/** Every entry of a getaddressutxos answer, checked field by field. */
export function parseAddressUtxos(json: unknown): AddressUtxo[] {
  const list = Array.isArray(json) ? json : isObject(json) && Array.isArray(json.utxos) ? json.utxos : undefined;
  if (!list) throw new TypeError("a getaddressutxos answer is an array of UTXOs, or an object with a `utxos` array (chainInfo: true)");
  return list.map((entry: unknown, i: number): AddressUtxo => {
    const where = `getaddressutxos entry ${i}`;
    if (!isObject(entry)) throw new TypeError(`${where} is not an object`);
    const { address, txid, outputIndex, script, satoshis, height } = entry;
    if (typeof address !== "string") throw new TypeError(`${where}: address must be a string`);
    if (typeof txid !== "string" || !/^[0-9a-fA-F]{64}$/.test(txid)) throw new TypeError(`${where}: txid must be 64 hex digits`);
    if (!isCount(outputIndex, 0xffffffff)) throw new TypeError(`${where}: outputIndex must be a 32-bit non-negative integer`);
    if (!isCount(satoshis, Number.MAX_SAFE_INTEGER)) throw new TypeError(`${where}: satoshis must be a non-negative integer`);
    if (!isCount(height, 0xffffffff)) throw new TypeError(`${where}: height must be a non-negative integer`);
    if (typeof script !== "string") throw new TypeError(`${where}: script must be a hex string`);
    let scriptPubKey: Uint8Array;
    try {
      scriptPubKey = hexToBytes(script);
    } catch (e) {
      if (e instanceof HexError) throw new TypeError(`${where}: script is not hex (${e.message})`);
      throw e;
    }
    return { address, txid: txid.toLowerCase(), index: outputIndex, value: BigInt(satoshis), scriptPubKey, height };
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isCount(v: unknown, max: number): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max;
}
