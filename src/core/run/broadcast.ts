// The broadcast guard. A case that would hand a server a valid transaction could put it
// on a real network, and a checker must not spend anyone's money or leak a transaction
// that was never meant to be mined. Such a case is only sent when the run allows it,
// which the command line permits only for a regtest chain with --allow-broadcast, and
// only when every server says itself that its chain is regtest: a chain profile is only
// what the config claims. Otherwise the case becomes a skipped result that says why.
// Which requests carry a valid transaction, and how a server names its chain, are the
// protocol's to say (Protocol.sendsTransaction, Protocol.serverChains).

import type { PlannedCase } from "./plan.js";
import type { Protocol } from "./protocol.js";

export const BROADCAST_REFUSED =
  "not sent: the request holds a valid transaction, and sending it could broadcast it " +
  "(only a run against a regtest chain with --allow-broadcast sends it)";

const REGTEST = "regtest";

/** Why the case must not be sent, or undefined when it broadcasts nothing. */
export function broadcastRisk(pc: PlannedCase, protocol: Pick<Protocol, "sendsTransaction">): string | undefined {
  return protocol.sendsTransaction(pc) ? BROADCAST_REFUSED : undefined;
}

/**
 * Why the servers forbid broadcasting, or undefined when every one of them says its chain
 * is regtest. `chains` maps each server (e.g. "zaino (getblockchaininfo.chain)") to the
 * name it gave, undefined when it would not say.
 */
export function serversForbidBroadcast(chains: ReadonlyMap<string, string | undefined>): string | undefined {
  const wrong = [...chains].flatMap(([who, name]) => (name === REGTEST ? [] : [`${who} says ${name === undefined ? "nothing" : JSON.stringify(name)}`]));
  return wrong.length === 0 ? undefined : `${BROADCAST_REFUSED}; --allow-broadcast needs every server to say regtest: ${wrong.join(", ")}`;
}
