// GetLatestBlock, GetBlock, GetBlockNullifiers, GetBlockRange, GetBlockRangeNullifiers
// from getblockchaininfo and getblock (zebra-jsonrpc.md §4.2; lightwallet-protocol.md
// §3.2 for the v0.5.0 semantics the reference follows).
//
// A block is `getblock <height|hash> 1` (its hash, height and `trees.*.size`), then
// `getblock <that hash> 0` (the raw bytes, decoded by src/zcash/codec). Asking by the hash the
// first call gave keeps the two consistent even if the chain reorganizes between them.
//
// - GetBlock: every pool including transparent (v0.4.1); chainMetadata = the tree sizes
//   after the block (0 for a pool getblock leaves out).
// - GetBlockRange: inclusive, descending when start > end; poolTypes filter (empty =
//   shielded); transactions left without data are dropped, survivors keep their index.
// - Nullifier variants: the shielded pools only (TRANSPARENT is dropped from the list
//   before "empty means shielded" applies). A transaction is kept when it has data in
//   the pools, then outputs, vin and vout are removed and actions keep their nullifier;
//   chainMetadata is present with every size 0 (src/zcash/codec's nullifiersOnly).

import { create } from "@bufbuild/protobuf";
import { CompactBlockSchema, type CompactBlock } from "../gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, PoolType, type BlockID, type BlockRange } from "../gen/walletrpc/service_pb.js";
import {
  ALL_POOL_TYPES,
  compactBlock,
  decodeBlock,
  displayHex,
  nullifiersOnly,
  resolvePoolTypes,
  reverseBytes,
  type DecodedBlock,
  type TreeSizes,
} from "../codec/index.js";
import { protocolIn } from "../../core/corpus/protocol-version.js";
import { inOrder, type Derivation } from "./context.js";
import { field, hex, obj, optionalUint, str, uint } from "./node.js";
import { invalidArgument, OracleFault, Underivable } from "./status.js";

interface FetchedBlock {
  height: number;
  block: DecodedBlock;
  sizes: TreeSizes;
}

/** One block by height (decimal text) or display-hex hash. */
export async function fetchBlock(d: Derivation, ref: string): Promise<FetchedBlock> {
  const what = `getblock ${ref} 1`;
  const info = obj(await d.node.call("getblock", [ref, 1]), what);
  const hash = str(field(info, "hash", what)).toLowerCase();
  const height = uint(field(info, "height", what));
  const trees = info.trees === undefined || info.trees === null ? {} : obj(info.trees, `${what}.trees`);
  const size = (pool: string) => {
    const t = trees[pool];
    return t === undefined || t === null ? 0 : (optionalUint(field(obj(t, `${what}.trees.${pool}`), "size", `${what}.trees.${pool}`)) ?? 0);
  };
  const raw = hex({ v: await d.node.call("getblock", [hash, 0]), what: `getblock ${hash} 0` });
  let block: DecodedBlock;
  try {
    block = decodeBlock(raw);
  } catch (e) {
    throw new Underivable(`block ${height} (${hash}) does not decode: ${(e as Error).message}`);
  }
  if (displayHex(block.hash) !== hash) {
    throw new OracleFault("protocol", `getblock ${hash} 0 returned block ${displayHex(block.hash)}`);
  }
  checkTxids(info.tx, block, `getblock ${hash} 1`);
  return { height, block, sizes: { sapling: size("sapling"), orchard: size("orchard"), ironwood: size("ironwood") } };
}

/**
 * lightwalletd takes a block's txids from `getblock <hash> 1`'s `tx` list, while the oracle
 * computes them from the raw bytes: when the two disagree, either the node or zconform's
 * txid code is wrong, and no answer derived from this block can be vouched for.
 */
export function checkTxids(listed: unknown, block: DecodedBlock, what: string): void {
  if (listed === undefined) return;
  if (!Array.isArray(listed)) throw new OracleFault("protocol", `${what}: tx is not a list`);
  if (listed.length !== block.txids.length) {
    throw new OracleFault("protocol", `${what} lists ${listed.length} transactions; the raw block has ${block.txids.length}`);
  }
  listed.forEach((entry, i) => {
    const id = typeof entry === "string" ? entry : str(field(obj(entry, `${what}.tx[${i}]`), "txid", `${what}.tx[${i}]`));
    const computed = displayHex(block.txids[i]!);
    if (id.toLowerCase() !== computed) {
      throw new OracleFault("protocol", `${what}.tx[${i}] is ${id}; the raw transaction's txid is ${computed}`);
    }
  });
}

export async function getLatestBlock(d: Derivation): Promise<void> {
  // One call gives height and hash together, so they name the same block.
  const info = obj(await d.node.call("getblockchaininfo"), "getblockchaininfo");
  const height = uint(field(info, "blocks", "getblockchaininfo"));
  const best = info.bestblockhash !== undefined ? info.bestblockhash : await d.node.call("getbestblockhash");
  const hash = reverseBytes(hex({ v: best, what: "bestblockhash" }));
  d.emit(BlockIDSchema, create(BlockIDSchema, { height: BigInt(height), hash }));
}

/** The getblock argument a BlockID names, after the checks a spec-correct server makes. */
function blockRef(rpc: "GetBlock" | "GetBlockNullifiers", id: BlockID): string {
  if (id.hash.length > 0) {
    if (id.hash.length !== 32) throw invalidArgument(`${rpc}: block hash has invalid length: ${id.hash.length}`);
    return displayHex(id.hash);
  }
  if (id.height === 0n) {
    throw invalidArgument(rpc === "GetBlock" ? "GetBlock: request for unspecified identifier" : "GetBlockNullifiers: must specify a block height");
  }
  return id.height.toString();
}

function fullBlock(b: FetchedBlock, pools: Iterable<PoolType>): CompactBlock {
  return compactBlock(b.block, { poolTypes: pools, chainMetadata: b.sizes, height: b.height });
}

function nullifierBlock(b: FetchedBlock, pools: Iterable<PoolType>): CompactBlock {
  return nullifiersOnly(compactBlock(b.block, { poolTypes: pools, height: b.height }));
}

/**
 * GetBlock carries every pool, transparent included, whatever protocol version a build
 * speaks: v0.4.1's service.proto states it above `rpc GetBlock`, and its CHANGELOG calls
 * that "Document GetBlock transparent data behavior" (documented, not changed). v0.4.0's
 * protos say nothing about GetBlock's pools; their "Sapling and Orchard by default" is
 * BlockRange.poolTypes' rule (zcash/lightwallet-protocol tags v0.4.0 and v0.4.1).
 */
export async function getBlock(d: Derivation, id: BlockID): Promise<void> {
  const b = await fetchBlock(d, blockRef("GetBlock", id));
  d.emit(CompactBlockSchema, fullBlock(b, ALL_POOL_TYPES));
}

export function protocolBefore(protocol: string | undefined, version: string): boolean {
  return protocolIn(protocol, `<${version}`) === true;
}

export async function getBlockNullifiers(d: Derivation, id: BlockID): Promise<void> {
  const b = await fetchBlock(d, blockRef("GetBlockNullifiers", id));
  d.emit(CompactBlockSchema, nullifierBlock(b, []));
}

/** The requested pools; 0 or a number outside the enum is INVALID_ARGUMENT. */
export function requestedPools(what: string, poolTypes: readonly PoolType[]): ReadonlySet<PoolType> {
  try {
    return resolvePoolTypes(poolTypes);
  } catch (e) {
    if (e instanceof RangeError) throw invalidArgument(`${what}invalid pool type requested`);
    throw e;
  }
}

/** start, start ± 1, …, end: inclusive both ways. */
function* heights(start: bigint, end: bigint): Generator<bigint> {
  const step = start <= end ? 1n : -1n;
  for (let h = start; ; h += step) {
    yield h;
    if (h === end) return;
  }
}

/** GetBlockRange (nullifiers = false) and GetBlockRangeNullifiers (true). */
export async function getBlockRange(d: Derivation, r: BlockRange, nullifiers: boolean): Promise<void> {
  const rpc = d.rpc;
  // Presence decides "unset": {height: 0} is the genesis block.
  if (!r.start || !r.end) throw invalidArgument(`${rpc}: must specify start and end heights`);
  const listed = nullifiers ? r.poolTypes.filter((p) => p !== PoolType.TRANSPARENT) : r.poolTypes;
  const pools = requestedPools(`${rpc}: `, listed);
  // A height past the tip fails when reached: an ascending range streams up to the tip
  // first, a descending one starting above the tip fails before any block.
  for await (const b of inOrder(heights(r.start.height, r.end.height), (h) => fetchBlock(d, h.toString()))) {
    d.emit(CompactBlockSchema, nullifiers ? nullifierBlock(b, pools) : fullBlock(b, pools));
  }
}
