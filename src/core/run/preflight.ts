// The preflight's verdict on a run before its first case: when no build answers, or the
// servers are on another chain than the profile says, the cases would mean nothing, so
// the run stops (exit 2) unless --force says to go on. What the servers are asked is the
// protocol's (Protocol.startFacts); this is only the stop.

import type { Preflight } from "../results/events.js";

/** Raised when the preflight found a reason to stop and --force was not given. */
export class PreflightError extends Error {
  constructor(readonly preflight: Preflight) {
    super(`preflight: ${preflight.problems.join("\n  ")}\n  (check the config's endpoints and chain, or pass --force to run anyway)`);
  }
}
