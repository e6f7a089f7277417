// Blocks: header, transactions, block hash, txids, merkle root check, coinbase height.
import { bytesEqual, displayHex, hexToBytes, isAllZero } from "./bytes.js";
import { sha256d } from "./hash.js";
import { merkleRoot } from "./merkle.js";
import { ByteReader, DecodeError } from "./reader.js";
import { readTransaction } from "./tx-decode.js";
import { writeTransaction } from "./tx-encode.js";
import type { Transaction } from "./tx-model.js";
import { computeTxid } from "./txid.js";
import { ByteWriter } from "./writer.js";

export interface BlockHeader {
  version: number;
  /** Wire order. */
  prevHash: Uint8Array;
  /** Wire order. */
  merkleRoot: Uint8Array;
  /** hashReserved before Sapling, hashFinalSaplingRoot until Heartwood, then hashLightClientRoot / hashBlockCommitments. */
  blockCommitments: Uint8Array;
  time: number;
  bits: number;
  nonce: Uint8Array;
  /** Equihash solution (without its CompactSize length). */
  solution: Uint8Array;
}

export interface Block {
  header: BlockHeader;
  transactions: Transaction[];
}

export interface DecodedBlock extends Block {
  /** Wire order (SHA256d of the serialized header). */
  hash: Uint8Array;
  /** From the coinbase (see coinbaseHeight); undefined when the coinbase has no height push. */
  height: number | undefined;
  /** Serialized size in bytes. */
  size: number;
  /** Wire order, block order. */
  txids: Uint8Array[];
  /** Each transaction's bytes (views into the decoded buffer, not copies). */
  rawTransactions: Uint8Array[];
  /** The merkle root the txids give (wire order). */
  computedMerkleRoot: Uint8Array;
  merkleRootValid: boolean;
}

export interface DecodeBlockOptions {
  /** Throw InvalidBlockError when the txids do not reproduce the header's merkle root. */
  requireValid?: boolean;
}

/** A block that decodes but is not valid (its merkle root does not match its transactions). */
export class InvalidBlockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidBlockError";
  }
}

/** Header bytes before the Equihash solution. */
export const HEADER_FIXED_SIZE = 4 + 32 + 32 + 32 + 4 + 4 + 32;

export function readBlockHeader(r: ByteReader): BlockHeader {
  r.tx = -1;
  r.at("header");
  return {
    version: r.i32("version"),
    prevHash: r.bytes(32, "prevHash"),
    merkleRoot: r.bytes(32, "merkleRoot"),
    blockCommitments: r.bytes(32, "blockCommitments"),
    time: r.u32("time"),
    bits: r.u32("bits"),
    nonce: r.bytes(32, "nonce"),
    solution: r.varBytes("solution"),
  };
}

/**
 * Decodes a whole block; every byte must belong to it (trailing bytes are a DecodeError).
 * Byte fields of the result are views into `bytes`: do not reuse that buffer while the
 * block is in use.
 */
export function decodeBlock(bytes: Uint8Array, opts: DecodeBlockOptions = {}): DecodedBlock {
  const r = new ByteReader(bytes);
  const header = readBlockHeader(r);
  const hash = sha256d(bytes.subarray(0, r.pos));
  r.at("");
  const n = r.count("transaction count", 10);
  if (n === 0) r.fail("block has no transactions (a coinbase is required)");
  const transactions = new Array<Transaction>(n);
  const rawTransactions = new Array<Uint8Array>(n);
  const txids = new Array<Uint8Array>(n);
  for (let i = 0; i < n; i++) {
    r.tx = i;
    const start = r.pos;
    const tx = readTransaction(r);
    const raw = bytes.subarray(start, r.pos);
    transactions[i] = tx;
    rawTransactions[i] = raw;
    txids[i] = computeTxid(tx, raw);
  }
  r.tx = -1;
  if (r.remaining !== 0) {
    throw new DecodeError(r.pos, `${r.remaining} trailing bytes after the last of ${n} transactions`);
  }
  const computedMerkleRoot = merkleRoot(txids);
  const merkleRootValid = bytesEqual(computedMerkleRoot, header.merkleRoot);
  const block: DecodedBlock = {
    header,
    transactions,
    hash,
    height: undefined,
    size: bytes.length,
    txids,
    rawTransactions,
    computedMerkleRoot,
    merkleRootValid,
  };
  block.height = coinbaseHeight(block);
  if (opts.requireValid && !merkleRootValid) throw merkleMismatch(block);
  return block;
}

/** decodeBlock on hex text (surrounding whitespace ignored). */
export function decodeBlockHex(hex: string, opts: DecodeBlockOptions = {}): DecodedBlock {
  return decodeBlock(hexToBytes(hex.trim()), opts);
}

/** Throws InvalidBlockError unless the block's txids reproduce its merkle root. */
export function assertMerkleRoot(block: DecodedBlock): void {
  if (!block.merkleRootValid) throw merkleMismatch(block);
}

function merkleMismatch(block: DecodedBlock): InvalidBlockError {
  const where = block.height === undefined ? `block ${displayHex(block.hash)}` : `block at height ${block.height}`;
  return new InvalidBlockError(
    `${where}: merkle root mismatch: header has ${displayHex(block.header.merkleRoot)}, ` +
      `the ${block.txids.length} txids give ${displayHex(block.computedMerkleRoot)}`,
  );
}

export function writeBlockHeader(w: ByteWriter, h: BlockHeader): void {
  w.i32(h.version)
    .fixed(h.prevHash, 32, "prevHash")
    .fixed(h.merkleRoot, 32, "merkleRoot")
    .fixed(h.blockCommitments, 32, "blockCommitments")
    .u32(h.time)
    .u32(h.bits)
    .fixed(h.nonce, 32, "nonce")
    .varBytes(h.solution);
}

export function encodeBlockHeader(h: BlockHeader): Uint8Array {
  const w = new ByteWriter(HEADER_FIXED_SIZE + 3 + h.solution.length);
  writeBlockHeader(w, h);
  return w.finish();
}

/** Wire-order block hash of a header. */
export function blockHash(header: BlockHeader): Uint8Array {
  return sha256d(encodeBlockHeader(header));
}

/** Serializes a block exactly as given (the merkle root is not recomputed; see merkleRoot/computeTxid). */
export function encodeBlock(block: Block): Uint8Array {
  const w = new ByteWriter(2048);
  writeBlockHeader(w, block.header);
  w.compactSize(block.transactions.length);
  for (const tx of block.transactions) writeTransaction(w, tx);
  return w.finish();
}

/**
 * Height from the coinbase scriptSig (BIP 34 as Zcash applies it: OP_1..OP_16 for heights
 * 1–16, e.g. "5100" at mainnet 1; a minimal little-endian push from 17 on, e.g. "011100").
 * The genesis block predates the rule: its scriptSig starts with a push of nBits, so a
 * block whose prevHash is all zeros is given height 0. Any other block without a height
 * push gives undefined; callers that know the height from context should use that.
 */
export function coinbaseHeight(block: Block): number | undefined {
  if (isAllZero(block.header.prevHash)) return 0;
  const coinbase = block.transactions[0];
  const script = coinbase?.vin[0]?.scriptSig;
  return script ? heightFromScript(script) : undefined;
}

/** The number a script's first opcode pushes when it is a BIP-34 style height, else undefined. */
export function heightFromScript(script: Uint8Array): number | undefined {
  const op = script[0];
  if (op === undefined) return undefined;
  if (op === 0x00) return 0;
  if (op >= 0x51 && op <= 0x60) return op - 0x50;
  if (op >= 0x01 && op <= 0x04) {
    if (script.length < 1 + op) return undefined;
    const last = script[op]!;
    if (last & 0x80) return undefined; // negative script number
    let v = 0;
    for (let i = op; i >= 1; i--) v = v * 256 + script[i]!;
    return v;
  }
  return undefined;
}

/** Encodes a height the way heightFromScript reads it (for synthesizing coinbases). */
export function heightPush(height: number): Uint8Array {
  if (!Number.isInteger(height) || height < 0 || height > 0x7fffffff) throw new RangeError(`height out of range: ${height}`);
  if (height === 0) return Uint8Array.of(0x00);
  if (height <= 16) return Uint8Array.of(0x50 + height);
  const bytes: number[] = [];
  for (let v = height; v > 0; v = Math.floor(v / 256)) bytes.push(v & 0xff);
  if (bytes[bytes.length - 1]! & 0x80) bytes.push(0);
  return Uint8Array.of(bytes.length, ...bytes);
}
