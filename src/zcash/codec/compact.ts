// Compact blocks (lightwallet protocol v0.5.0, compact_formats.proto) derived from a
// decoded block, following lightwalletd's derivation (spec/zebra-jsonrpc.md §4.2 and
// spec/lightwallet-protocol.md §3.2). Byte fields are in wire order. Sprout data never
// appears; v6 (Ironwood) is not decoded, so ironwoodActions stay empty.
import { create } from "@bufbuild/protobuf";
import {
  ChainMetadataSchema,
  CompactBlockSchema,
  CompactOrchardActionSchema,
  CompactSaplingOutputSchema,
  CompactSaplingSpendSchema,
  CompactTxInSchema,
  CompactTxSchema,
  TxOutSchema,
  type ChainMetadata,
  type CompactBlock,
  type CompactTx,
} from "../gen/walletrpc/compact_formats_pb.js";
import { PoolType } from "../gen/walletrpc/service_pb.js";
import type { DecodedBlock } from "./block.js";
import { COMPACT_CIPHERTEXT_SIZE, isCoinbase, type Transaction } from "./tx-model.js";

/** What an empty or absent poolTypes means: shielded pools only. */
export const DEFAULT_POOL_TYPES: ReadonlySet<PoolType> = new Set([PoolType.SAPLING, PoolType.ORCHARD, PoolType.IRONWOOD]);

export const ALL_POOL_TYPES: ReadonlySet<PoolType> = new Set([PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD, PoolType.IRONWOOD]);

/** Note commitment tree sizes after the block; a missing pool counts as 0. */
export interface TreeSizes {
  sapling?: number;
  orchard?: number;
  ironwood?: number;
}

export interface CompactOptions {
  /** Pools to include; empty or absent = DEFAULT_POOL_TYPES. TRANSPARENT adds vin/vout. */
  poolTypes?: Iterable<PoolType>;
  /** Tree sizes for chainMetadata; chainMetadata is left unset when absent. */
  chainMetadata?: TreeSizes;
  /** Height to use instead of the one from the coinbase (required when that is undefined). */
  height?: number;
  /**
   * Keep transactions that end up with no data in the requested pools (as index + txid
   * shells). Default false: they are dropped, survivors keep their block index.
   */
  keepEmpty?: boolean;
}

/** The requested pools as a set; throws on POOL_TYPE_INVALID or unknown numbers. */
export function resolvePoolTypes(poolTypes?: Iterable<PoolType>): ReadonlySet<PoolType> {
  const set = new Set<PoolType>();
  for (const p of poolTypes ?? []) {
    if (!ALL_POOL_TYPES.has(p)) throw new RangeError(`invalid pool type ${p}`);
    set.add(p);
  }
  return set.size === 0 ? DEFAULT_POOL_TYPES : set;
}

function blockHeight(block: DecodedBlock, opts: CompactOptions): bigint {
  const h = opts.height ?? block.height;
  if (h === undefined) throw new RangeError("the block's height is unknown (its coinbase has no height push); pass opts.height");
  return BigInt(h);
}

function chainMetadata(sizes: TreeSizes): ChainMetadata {
  return create(ChainMetadataSchema, {
    saplingCommitmentTreeSize: sizes.sapling ?? 0,
    orchardCommitmentTreeSize: sizes.orchard ?? 0,
    ironwoodCommitmentTreeSize: sizes.ironwood ?? 0,
  });
}

/**
 * One transaction's compact form with the given pools. The coinbase never gets `vin`
 * (its null outpoint is not a real input); its `vout` is included with TRANSPARENT.
 */
export function compactTx(tx: Transaction, txid: Uint8Array, index: number, pools: ReadonlySet<PoolType>): CompactTx {
  const ctx = create(CompactTxSchema, { index: BigInt(index), txid, fee: 0 });
  if (pools.has(PoolType.SAPLING) && tx.sapling) {
    ctx.spends = tx.sapling.spends.map((s) => create(CompactSaplingSpendSchema, { nf: s.nullifier }));
    ctx.outputs = tx.sapling.outputs.map((o) =>
      create(CompactSaplingOutputSchema, {
        cmu: o.cmu,
        ephemeralKey: o.ephemeralKey,
        ciphertext: o.encCiphertext.subarray(0, COMPACT_CIPHERTEXT_SIZE),
      }),
    );
  }
  if (pools.has(PoolType.ORCHARD) && tx.orchard) {
    ctx.actions = tx.orchard.actions.map((a) =>
      create(CompactOrchardActionSchema, {
        nullifier: a.nullifier,
        cmx: a.cmx,
        ephemeralKey: a.ephemeralKey,
        ciphertext: a.encCiphertext.subarray(0, COMPACT_CIPHERTEXT_SIZE),
      }),
    );
  }
  if (pools.has(PoolType.TRANSPARENT)) {
    if (!isCoinbase(tx)) {
      ctx.vin = tx.vin.map((i) => create(CompactTxInSchema, { prevoutTxid: i.prevoutTxid, prevoutIndex: i.prevoutIndex }));
    }
    ctx.vout = tx.vout.map((o) => create(TxOutSchema, { value: BigInt.asUintN(64, o.value), scriptPubKey: o.scriptPubKey }));
  }
  return ctx;
}

/** Whether a compact transaction carries anything in the pools it was made for; servers drop those that do not. */
export function hasData(c: CompactTx): boolean {
  return c.spends.length + c.outputs.length + c.actions.length + c.vin.length + c.vout.length + c.ironwoodActions.length > 0;
}

/** The CompactBlock GetBlock / GetBlockRange would send for this block. */
export function compactBlock(block: DecodedBlock, opts: CompactOptions = {}): CompactBlock {
  const pools = resolvePoolTypes(opts.poolTypes);
  const vtx: CompactTx[] = [];
  for (let i = 0; i < block.transactions.length; i++) {
    const c = compactTx(block.transactions[i]!, block.txids[i]!, i, pools);
    if (opts.keepEmpty || hasData(c)) vtx.push(c);
  }
  const cb = create(CompactBlockSchema, {
    height: blockHeight(block, opts),
    hash: block.hash,
    prevHash: block.header.prevHash,
    time: block.header.time,
    vtx,
  });
  if (opts.chainMetadata) cb.chainMetadata = chainMetadata(opts.chainMetadata);
  return cb;
}

/**
 * The nullifier-only form (GetBlockNullifiers / GetBlockRangeNullifiers, v0.5.0) of the
 * compact block GetBlockRange would send with the same pools: every transaction it keeps
 * stays, as an index + txid shell when its only shielded data were outputs; outputs, vin
 * and vout are removed, actions keep their nullifier, and chainMetadata is present with
 * every size 0 (the two bytes 42 00 on the wire). Changes `cb` in place.
 */
export function nullifiersOnly(cb: CompactBlock): CompactBlock {
  const nullifierOnly = (a: { nullifier: Uint8Array }) => create(CompactOrchardActionSchema, { nullifier: a.nullifier });
  for (const tx of cb.vtx) {
    tx.outputs = [];
    tx.vin = [];
    tx.vout = [];
    tx.actions = tx.actions.map(nullifierOnly);
    tx.ironwoodActions = tx.ironwoodActions.map(nullifierOnly);
  }
  cb.chainMetadata = create(ChainMetadataSchema, {});
  return cb;
}
