// Test helper: a real run against the embedded fixture network, narrowed to a few
// methods so report tests stay fast, with the events kept for the reporters under test.

import { inputsFromFixture } from "../../cli/inputs.js";
import type { CaseFilter } from "../../cli/select.js";
import type { ProfileName } from "../../zcash/fixture/network.js";
import type { Reporter, RunEvent } from "../results/events.js";
import { runSession, type SessionResult } from "../run/session.js";
import type { RunConfig } from "../targets/config.js";
import type { Quirk } from "../ledger/quirk.js";
import { selectCases } from "../../cli/select.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

export interface FixtureRun {
  events: RunEvent[];
  session: SessionResult;
  config: RunConfig;
  ledger: Quirk[];
}

/** `collect`: as the session's option (false: the session hands back no results, only the events have them). */
export async function fixtureRun(o: { profiles?: ProfileName[]; filter?: CaseFilter; reporters?: Reporter[]; collect?: boolean } = {}): Promise<FixtureRun> {
  const silent = { stdout: () => {}, stderr: () => {} };
  const inputs = await inputsFromFixture({ cases: "cases", ...(o.profiles ? { profiles: o.profiles } : {}) }, silent);
  const events: RunEvent[] = [];
  const keep: Reporter = { onEvent: (e) => void events.push(e), finish: async () => {} };
  try {
    const session = await runSession({
      config: inputs.config, cases: selectCases(inputs.cases, o.filter ?? {}), chain: inputs.chain, ledger: inputs.ledger,
      reporters: [keep, ...(o.reporters ?? [])], protocol: lightwalletProtocol, allowStale: true, ...(o.collect !== undefined ? { collect: o.collect } : {}),
    });
    return { events, session, config: inputs.config, ledger: inputs.ledger };
  } finally {
    await inputs.network?.close();
  }
}
