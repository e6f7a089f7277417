// The node behind a lightwallet server, from what the server itself reports: LightdInfo's
// zcashdSubversion is its node's user agent, "/Zebra:7.0.0/" for zebrad and
// "/MagicBean:6.2.0/" for zcashd. Ledger entries about a behaviour that depends on the
// node (a refusal zebrad makes and an indexer hides) match on it.

import type { NodeIdentity } from "../core/targets/config.js";

const AGENTS: Readonly<Record<string, string>> = { Zebra: "zebrad", MagicBean: "zcashd" };

/** The node a user agent names, or undefined for an agent this does not know. */
export function nodeFromSubversion(subversion: string | undefined): NodeIdentity | undefined {
  const m = /^\/([A-Za-z]+):(\d+\.\d+\.\d+[^/()]*)(?:\([^)]*\))?\/$/.exec(subversion ?? "");
  const implementation = m ? AGENTS[m[1]!] : undefined;
  return implementation ? { implementation, version: m![2]! } : undefined;
}
