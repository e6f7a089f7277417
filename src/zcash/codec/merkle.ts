// The block header's hashMerkleRoot: Bitcoin's tree of SHA256d over wire-order txids,
// duplicating the last node of every odd-length level.
import { sha256d } from "./hash.js";

export function merkleRoot(txids: readonly Uint8Array[]): Uint8Array {
  if (txids.length === 0) throw new RangeError("merkle root of an empty transaction list is undefined");
  let level = txids.slice();
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      const right = level[i + 1] ?? left;
      next.push(sha256d(left, right));
    }
    level = next;
  }
  return level[0]!;
}
