// The replacement branch of a darkside reorganization, made from the run's own real blocks:
// the top `depth` blocks are replaced by blocks at the same heights that carry only their
// coinbase (a competing branch that did not mine the other transactions, so what the
// orphaned blocks held disappears: transactions, nullifiers, note commitments), with the
// merkle root recomputed, the nonce changed (so a block whose only transaction was its
// coinbase gets a new hash too) and each block linked to the one before it.
//
// Linking matters: lightwalletd v0.5.4's ApplyStaged rewrites every active block's
// prevHash to the hash of the block before it (common/darkside.go setPrevhash), so a
// branch that did not link itself would be served with other hashes than its staged
// bytes give. Linked here, that rewrite changes nothing, and every expected hash is
// computable from the staged bytes alone. Darkside checks neither proof of work nor the
// merkle root; zconform's own decoder checks the merkle root.

import { ByteWriter, decodeBlock, merkleRoot, writeBlockHeader, type DecodedBlock } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";

export interface ReorgBranch {
  /** The lowest replaced height: the first block that differs. */
  forkHeight: number;
  /** The replacement blocks, lowest first, as staged. */
  staged: Uint8Array[];
  /** The same blocks decoded (hash and txids as zconform computes them). */
  blocks: DecodedBlock[];
  /** The whole chain after the reorganization: the kept blocks, then the branch. */
  chain: Uint8Array[];
}

/**
 * Replaces the top `depth` blocks of `current` (the chain lightwalletd serves now) with
 * coinbase-only blocks built from the same heights of `original` (the run's real blocks).
 * `salt` goes into the nonce, so two branches at one height never share a hash.
 */
export function reorgBranch(original: ChainModel, current: readonly Uint8Array[], depth: number, salt: number): ReorgBranch {
  if (current.length !== original.blocks.length) throw new RangeError(`the chain served has ${current.length} blocks, the run ${original.blocks.length}`);
  if (!Number.isInteger(salt) || salt < 1 || salt > 255) throw new RangeError(`salt ${salt}: 1 to 255`);
  if (!Number.isInteger(depth) || depth < 1 || depth >= original.blocks.length) {
    throw new RangeError(`a reorganization of depth ${depth} needs at least ${depth + 1} blocks; ${original.label} has ${original.blocks.length}`);
  }
  const keep = original.blocks.length - depth;
  let prev = decodeBlock(current[keep - 1]!).hash;
  const staged: Uint8Array[] = [];
  const blocks: DecodedBlock[] = [];
  for (const real of original.blocks.slice(keep)) {
    const b = real.block;
    const nonce = Uint8Array.from(b.header.nonce);
    nonce[0] = (nonce[0]! + salt) & 0xff;
    const header = { ...b.header, prevHash: prev, merkleRoot: merkleRoot([b.txids[0]!]), nonce };
    const w = new ByteWriter(2048);
    writeBlockHeader(w, header);
    w.compactSize(1).bytes(b.rawTransactions[0]!);
    const raw = w.finish();
    const decoded = decodeBlock(raw, { requireValid: true });
    if (decoded.height !== real.height) throw new Error(`the replacement of block ${real.height} states height ${decoded.height}`);
    staged.push(raw);
    blocks.push(decoded);
    prev = decoded.hash;
  }
  return { forkHeight: original.blocks[keep]!.height, staged, blocks, chain: [...current.slice(0, keep), ...staged] };
}
