// ZIP 317 conventional fees and the dust threshold a relaying node applies to outputs.
// Constants are ZIP 317's (marginal fee, grace actions, standard P2PKH input and output
// sizes); the dust rule is zcashd's, as Zebra's mempool applies it (transparent.rs is_dust).
import type { Transaction, TxIn, TxOut } from "../codec/index.js";

export const MARGINAL_FEE = 5_000n;
export const GRACE_ACTIONS = 2;
export const P2PKH_STANDARD_INPUT_SIZE = 150;
export const P2PKH_STANDARD_OUTPUT_SIZE = 34;

function compactSizeLength(n: number): number {
  return n < 0xfd ? 1 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
}

/** Serialized bytes of a transparent input: outpoint, scriptSig with its length, sequence. */
export function inputSize(input: TxIn): number {
  return 32 + 4 + compactSizeLength(input.scriptSig.length) + input.scriptSig.length + 4;
}

/** Serialized bytes of a transparent output: value and scriptPubKey with its length. */
export function outputSize(output: TxOut): number {
  return 8 + compactSizeLength(output.scriptPubKey.length) + output.scriptPubKey.length;
}

/** ZIP 317 logical actions, before the grace floor. */
export function logicalActions(tx: Transaction): number {
  const inBytes = tx.vin.reduce((n, i) => n + inputSize(i), 0);
  const outBytes = tx.vout.reduce((n, o) => n + outputSize(o), 0);
  const transparent = Math.max(Math.ceil(inBytes / P2PKH_STANDARD_INPUT_SIZE), Math.ceil(outBytes / P2PKH_STANDARD_OUTPUT_SIZE));
  const sapling = Math.max(tx.sapling?.spends.length ?? 0, tx.sapling?.outputs.length ?? 0);
  return transparent + 2 * (tx.sprout?.joinSplits.length ?? 0) + sapling + (tx.orchard?.actions.length ?? 0);
}

/** ZIP 317 conventional fee: marginal_fee × max(grace_actions, logical_actions), in zatoshi. */
export function conventionalFee(tx: Transaction): bigint {
  return MARGINAL_FEE * BigInt(Math.max(GRACE_ACTIONS, logicalActions(tx)));
}

/** The smallest value a relayed output may carry: 3 × floor(100 × (size + 148) / 1000) zatoshi. */
export function dustThreshold(output: TxOut): bigint {
  return 3n * ((100n * BigInt(outputSize(output) + 148)) / 1000n);
}
