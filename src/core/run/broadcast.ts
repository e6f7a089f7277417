// The broadcast guard. A case that would hand a server a valid transaction could put it
// on a real network, and a checker must not spend anyone's money or leak a transaction
// that was never meant to be mined. Such a case is only sent when the run allows it,
// which the command line permits only for a regtest chain with --allow-broadcast;
// otherwise it becomes a skipped result that says why. Which requests carry a valid
// transaction is the protocol's to say (Protocol.sendsTransaction).

import type { PlannedCase } from "./plan.js";
import type { Protocol } from "./protocol.js";

export const BROADCAST_REFUSED =
  "not sent: the request holds a valid transaction, and sending it could broadcast it " +
  "(only a run against a regtest chain with --allow-broadcast sends it)";

/** Why the case must not be sent, or undefined when it broadcasts nothing. */
export function broadcastRisk(pc: PlannedCase, protocol: Pick<Protocol, "sendsTransaction">): string | undefined {
  return protocol.sendsTransaction(pc) ? BROADCAST_REFUSED : undefined;
}
