// GetMempoolTx's exclude list (lightwallet-protocol §3.2): each entry is a suffix of a
// transaction's txid in wire (LE) byte order. An entry matching exactly one transaction
// excludes it; one matching several (or the empty entry, which matches all) excludes none.

/** Most exclude entries a request may carry. */
export const MAX_EXCLUDE_ENTRIES = 20_000;

function endsWith(txid: Uint8Array, suffix: Uint8Array): boolean {
  if (suffix.length > txid.length) return false;
  const off = txid.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (txid[off + i] !== suffix[i]) return false;
  return true;
}

/** The transactions no entry excludes, in their order. */
export function excludeBySuffix<T extends { txid: Uint8Array }>(txs: readonly T[], suffixes: readonly Uint8Array[]): T[] {
  const excluded = new Set<T>();
  for (const s of suffixes) {
    if (s.length === 0) continue;
    const matches = txs.filter((t) => endsWith(t.txid, s));
    if (matches.length === 1) excluded.add(matches[0]!);
  }
  return txs.filter((t) => !excluded.has(t));
}
