// How a scenario moves the chain: the one interface both the fixture's node and a real
// regtest node implement (a regtest zebrad through generate, sendrawtransaction and
// invalidateblock). The engine knows nothing of the chain but what this says.

/** A block by height and display-order hash. */
export interface TipId {
  height: number;
  hash: string;
}

export interface Reorganization {
  /** Height of the last block both branches share. */
  forkPoint: number;
  /** Display-order hashes of the dropped blocks, lowest first. */
  orphaned: string[];
  /** The node's tip once the new branch is in. */
  tip: TipId;
}

export interface ChainMover {
  /** The node's tip now. */
  tip(): Promise<TipId>;
  /** Mines one block on the tip (with what the node's mempool holds); resolves once the node has it. */
  mine(): Promise<TipId>;
  /** Sends a new transaction from the node's wallet; resolves with its display-order txid once the node's mempool has it. */
  send(): Promise<string>;
  /**
   * Replaces the last `depth` blocks by `depth + 1` new ones on their parent. `include`:
   * transactions (display-order txids) of the dropped blocks to mine again in the new branch.
   */
  reorg(depth: number, include: readonly string[]): Promise<Reorganization>;
  /** Back to the chain the scenarios start from. */
  reset(): Promise<void>;
}
