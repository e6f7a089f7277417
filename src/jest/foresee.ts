// Which cases the run will not send, known before it starts. jest wants every test
// declared before anything runs, and only a test declared as skipped is drawn as skipped:
// a case declared for another chain, one whose anchor the chain lacks, one that would
// broadcast a valid transaction the run may not send is each a skipped test, never a
// pass. What only the run can tell (a live mempool found empty, the chain of a config a
// factory builds when no `chain` is given) is left to it, and such a case, not sent,
// fails its test (index.ts).

import { anchorsUsed } from "../core/corpus/anchors.js";
import type { Case } from "../core/corpus/case.js";
import { frozenAnchors, loadChainProfile, unlearntAnchors, type ChainProfile } from "../core/corpus/chain-profile.js";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { broadcastRisk } from "../core/run/broadcast.js";
import { planCase } from "../core/run/plan.js";
import { chainAnchors } from "../zcash/fixture/chain/anchors.js";
import { loadRealChain } from "../zcash/fixture/chain/real.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface Foresight {
  /** The chain profile the run plans with; undefined while a config factory has not run. */
  chain?: ChainProfile;
  /** Whether the run sends cases that carry a valid transaction. */
  allowBroadcast: boolean;
  /** Whether the run has an oracle (a live mempool's transaction is learnt from it); undefined while unknown. */
  oracle?: boolean;
}

/**
 * The fixture network's chain, as the run will plan with it: the synthetic chain's anchors
 * are the shipped fixture.yaml (test/corpus.test.ts keeps them equal, and building the
 * chain takes seconds), a chain file's are read from its blocks. Only the synthetic
 * regtest chain accepts transactions, so only there is a valid one sent.
 */
export function fixtureForesight(chainFile: string | undefined): Foresight {
  if (chainFile === undefined) {
    const chain = loadChainProfile(SHIPPED_CASES, "fixture");
    return { chain, allowBroadcast: chain.network === "regtest", oracle: true };
  }
  const model = loadRealChain(chainFile);
  return { chain: { name: "fixture", network: model.network.name, anchors: chainAnchors(model), dynamic: {} }, allowBroadcast: false, oracle: true };
}

/** Why the run will not send `c`, or undefined when it will, or when only the run can tell. */
export function notSentReason(c: Case, f: Foresight): string | undefined {
  if (!f.chain) {
    // Before the chain is known, only a request that names no anchor can be planned.
    if (f.allowBroadcast || anchorsUsed(c.request).length > 0) return undefined;
    return broadcastRisk(planCase({ ...c, chains: undefined }, {}, "", lightwalletProtocol), lightwalletProtocol);
  }
  const chain = f.chain;
  const anchors = frozenAnchors(chain, { mempool: f.oracle !== false });
  const forChain = c.chains === undefined || c.chains.includes(chain.name);
  // A dynamic anchor with no value to plan with (a tip the profile has no frozen block
  // for) is learnt at the run's start, or not: only without an oracle is a live mempool's
  // transaction surely missing.
  const learntAtStart = anchorsUsed(c.request).some(
    (a) => a in chain.dynamic && !(a in anchors) && !(chain.dynamic[a] === "mempool_txid" && f.oracle === false),
  );
  if (forChain && learntAtStart) return undefined;
  const planned = planCase(c, anchors, chain.name, lightwalletProtocol, unlearntAnchors(chain, {}));
  return planned.skipped ?? (f.allowBroadcast ? undefined : broadcastRisk(planned, lightwalletProtocol));
}
