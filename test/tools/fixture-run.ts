// A real run against the embedded fixture network, narrowed to a few methods so report
// tests stay fast, with the events kept for the reporters under test. It wires the whole
// program (the fixture's inputs and case selection of the CLI, the Zcash protocol, the
// session), so it lives with the tests rather than in the core whose reporters it feeds.

import { inputsFromFixture } from "../../src/cli/inputs.js";
import { selectCases, type CaseFilter } from "../../src/cli/select.js";
import type { Quirk } from "../../src/core/ledger/quirk.js";
import type { Reporter, RunEvent } from "../../src/core/results/events.js";
import { runSession, type SessionResult } from "../../src/core/run/session.js";
import type { RunConfig } from "../../src/core/targets/config.js";
import type { ProfileName } from "../../src/zcash/fixture/network.js";
import { lightwalletProtocol } from "../../src/zcash/protocol.js";

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
      config: inputs.config,
      cases: selectCases(inputs.cases, o.filter ?? {}),
      chain: inputs.chain,
      ledger: inputs.ledger,
      reporters: [keep, ...(o.reporters ?? [])],
      protocol: lightwalletProtocol,
      allowStale: true,
      ...(o.collect !== undefined ? { collect: o.collect } : {}),
    });
    return { events, session, config: inputs.config, ledger: inputs.ledger };
  } finally {
    await inputs.network?.close();
  }
}
