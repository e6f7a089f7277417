// GetTreeState, GetLatestTreeState and GetSubtreeRoots from z_gettreestate,
// z_getsubtreesbyindex and getblockhash (zebra-jsonrpc.md §2.5, §4.1, §4.2).
//
// - TreeState: network = getblockchaininfo.chain; hash, height, time as the node says;
//   each tree = its `commitments.finalState`, "" when absent (before the pool's
//   activation: the v0.5.0 answer, where lightwalletd errors). A BlockID is looked up by
//   its 32-byte LE hash when it has one (sent to the node in display order), else by
//   height; a hash of another length, or neither, is INVALID_ARGUMENT.
// - GetLatestTreeState: the tree state at the best block's hash, so that a block arriving
//   between the two calls cannot mix two tips.
// - SubtreeRoot: rootHash = the node's `root` hex decoded as is; completingBlockHeight =
//   `end_height`; completingBlockHash = getblockhash(end_height) hex decoded as is, i.e.
//   in display order (the byte order every server sends, §3.1).
//   startIndex past 65535 is INVALID_ARGUMENT (subtree indexes are 16-bit in every node
//   API, and every implementation rejects it); maxEntries past 65535 is no cap (Zebra clamps).

import { create } from "@bufbuild/protobuf";
import { ShieldedProtocol, SubtreeRootSchema, TreeStateSchema, type BlockID, type GetSubtreeRootsArg } from "../gen/walletrpc/service_pb.js";
import { displayHex } from "../codec/index.js";
import type { Derivation } from "./context.js";
import { arr, field, hex, obj, str, uint } from "./node.js";
import { invalidArgument, NodeError, nodeRejection, type BlockRefKind } from "./status.js";

export const MAX_SUBTREE_INDEX = 0xffff;

const POOL_NAMES: Readonly<Record<number, string>> = {
  [ShieldedProtocol.sapling]: "sapling",
  [ShieldedProtocol.orchard]: "orchard",
  [ShieldedProtocol.ironwood]: "ironwood",
};

function finalState(state: Record<string, unknown>, pool: string, what: string): string {
  const p = state[pool];
  if (p === undefined || p === null) return "";
  const commitments = obj(p, `${what}.${pool}`).commitments;
  if (commitments === undefined || commitments === null) return "";
  const s = obj(commitments, `${what}.${pool}.commitments`).finalState;
  return s === undefined || s === null ? "" : str({ v: s, what: `${what}.${pool}.commitments.finalState` });
}

async function treeState(d: Derivation, ref: string, kind: BlockRefKind): Promise<void> {
  const what = `z_gettreestate ${ref}`;
  let state: Record<string, unknown>;
  try {
    state = obj(await d.node.call("z_gettreestate", [ref]), what);
  } catch (e) {
    // The node's -8 "not in the main chain" means "not found" for a hash, "not yet" for a height.
    if (e instanceof NodeError) throw nodeRejection(d.rpc, e, kind);
    throw e;
  }
  d.emit(
    TreeStateSchema,
    create(TreeStateSchema, {
      network: await d.node.chain(),
      height: BigInt(uint(field(state, "height", what))),
      hash: str(field(state, "hash", what)),
      time: uint(field(state, "time", what)),
      saplingTree: finalState(state, "sapling", what),
      orchardTree: finalState(state, "orchard", what),
      ironwoodTree: finalState(state, "ironwood", what),
    }),
  );
}

export async function getTreeState(d: Derivation, id: BlockID): Promise<void> {
  if (id.hash.length === 32) return treeState(d, displayHex(id.hash), "hash");
  if (id.hash.length > 0) throw invalidArgument(`GetTreeState: block hash has invalid length: ${id.hash.length}`);
  if (id.height === 0n) throw invalidArgument("GetTreeState: must specify a block height or ID (hash)");
  return treeState(d, id.height.toString(), "height");
}

export async function getLatestTreeState(d: Derivation): Promise<void> {
  const best = str({ v: await d.node.call("getbestblockhash"), what: "getbestblockhash" });
  return treeState(d, best, "hash");
}

export async function getSubtreeRoots(d: Derivation, arg: GetSubtreeRootsArg): Promise<void> {
  const pool = POOL_NAMES[arg.shieldedProtocol];
  if (pool === undefined) throw invalidArgument("unrecognized shielded protocol");
  if (arg.startIndex > MAX_SUBTREE_INDEX) throw invalidArgument("GetSubtreeRoots: start index must fit in 16 bits");
  const limited = arg.maxEntries > 0 && arg.maxEntries <= MAX_SUBTREE_INDEX;
  const what = `z_getsubtreesbyindex ${pool} ${arg.startIndex}`;
  const answer = obj(await d.node.call("z_getsubtreesbyindex", limited ? [pool, arg.startIndex, arg.maxEntries] : [pool, arg.startIndex]), what);
  let subtrees = arr(field(answer, "subtrees", what).v, `${what}.subtrees`);
  if (arg.maxEntries > 0) subtrees = subtrees.slice(0, arg.maxEntries);
  for (const [i, s] of subtrees.entries()) {
    const w = `${what}.subtrees[${i}]`;
    const o = obj(s, w);
    const endHeight = uint(field(o, "end_height", w));
    const blockHash = hex({ v: await d.node.call("getblockhash", [endHeight]), what: `getblockhash ${endHeight}` });
    d.emit(
      SubtreeRootSchema,
      create(SubtreeRootSchema, {
        rootHash: hex(field(o, "root", w)),
        completingBlockHash: blockHash,
        completingBlockHeight: BigInt(endHeight),
      }),
    );
  }
}
