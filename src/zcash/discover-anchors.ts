// A regtest chain's anchors, read from the chain its node serves when a run starts: every
// block (`getblock <h> 0`) and every transaction waiting in the mempool, decoded into a
// chain model, from which the anchors follow as they do for the fixture's own chain
// (which block holds Orchard actions, which address has UTXOs, the genesis hash, …).
// Whoever mined the chain, a run against it plans the cases its blocks can answer. Only
// small chains are read whole: a chain above MAX_DISCOVERED_BLOCKS is refused, saying so.

import { hexToBytes } from "./codec/bytes.js";
import { regtestWith, UPGRADES, type Upgrade } from "./codec/network.js";
import { chainAnchors } from "./fixture/chain/anchors.js";
import { chainFromBlocks } from "./fixture/chain/from-blocks.js";

/** The most blocks a run reads to find its anchors (a regtest chain is hundreds). */
export const MAX_DISCOVERED_BLOCKS = 20_000;

/** One JSON-RPC call: its `result`, or a thrown Error saying why there is none. */
export type Rpc = (method: string, params: unknown[]) => Promise<unknown>;

const READS_IN_FLIGHT = 8;

function activationHeights(anchors: Readonly<Record<string, number | string>>): Partial<Record<Upgrade, number>> {
  const out: Partial<Record<Upgrade, number>> = {};
  for (const u of UPGRADES) {
    const h = anchors[`${u}_activation`];
    if (typeof h === "number") out[u] = h;
  }
  return out;
}

async function rawBlocks(rpc: Rpc, tip: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = new Array(tip + 1);
  let next = 0;
  const worker = async () => {
    while (next <= tip) {
      const h = next++;
      const hex = await rpc("getblock", [String(h), 0]);
      if (typeof hex !== "string") throw new Error(`getblock ${h} 0 answered no hex string`);
      out[h] = hexToBytes(hex);
    }
  };
  await Promise.all(Array.from({ length: READS_IN_FLIGHT }, worker));
  return out;
}

/** The mempool's transactions, least txid first, so that two runs over one mempool agree. */
async function mempool(rpc: Rpc): Promise<Uint8Array[]> {
  const ids = await rpc("getrawmempool", []);
  if (!Array.isArray(ids)) throw new Error("getrawmempool answered no list");
  const raws: Uint8Array[] = [];
  for (const id of ids.filter((t): t is string => typeof t === "string").sort()) {
    // A transaction mined or evicted since the list was read is simply not there.
    const hex = await rpc("getrawtransaction", [id, 0]).catch(() => undefined);
    if (typeof hex === "string") raws.push(hexToBytes(hex));
  }
  return raws;
}

/**
 * The anchors of the chain behind `rpc`, with the profile's own (`known`: the activation
 * heights the chain was made with, addresses no block names) kept over what the blocks
 * say. A pool with no completed subtree has no last subtree to ask for: its count is left
 * out, so the cases naming it are skipped saying why.
 */
export async function discoverAnchors(
  rpc: Rpc,
  known: Readonly<Record<string, number | string>>,
): Promise<{ anchors: Record<string, number | string> } | { failure: string }> {
  try {
    const tip = await rpc("getblockcount", []);
    if (typeof tip !== "number" || !Number.isInteger(tip) || tip < 0) return { failure: "getblockcount answered no height" };
    if (tip + 1 > MAX_DISCOVERED_BLOCKS) {
      return {
        failure: `the chain has ${tip + 1} blocks; anchors are read from chains of at most ${MAX_DISCOVERED_BLOCKS} (use a profile with fixed anchors)`,
      };
    }
    const network = regtestWith(activationHeights(known));
    const model = chainFromBlocks(await rawBlocks(rpc, tip), { network, label: "the oracle's chain", trees: {}, mempool: await mempool(rpc) });
    const found = Object.entries(chainAnchors(model)).filter(([k, v]) => !(k.endsWith("_subtrees") && v === 0));
    return { anchors: { ...Object.fromEntries(found), ...known } };
  } catch (e) {
    return { failure: `reading the chain's anchors from the oracle: ${(e as Error).message}` };
  }
}
