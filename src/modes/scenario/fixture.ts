// Scenarios on the embedded fixture network: its node's chain moves (the fixture mover),
// every profile follows with its own timing, and the node's JSON-RPC is the oracle.

import type { Build } from "../../core/targets/config.js";
import { fixtureDeadlineMs } from "../../zcash/fixture/deadline.js";
import { DEFAULT_TIMING_SCALE, startFixtureNetwork, type FixtureWrappers, type ProfileName } from "../../zcash/fixture/network.js";
import { fixtureMover } from "../../zcash/scenario/fixture-mover.js";
import type { ScenarioRecord } from "../../core/scenario/record.js";
import { runScenariosOn, type ScenarioRunOptions } from "./run.js";

export interface FixtureScenarioOptions extends ScenarioRunOptions {
  profiles?: readonly ProfileName[];
  timingScale?: number;
  /** Wrappers around profiles' servers (a test makes a build that does not follow this way). */
  wrap?: FixtureWrappers;
}

export interface FixtureScenarioRun {
  builds: Build[];
  timingScale: number;
  /** The oracle's endpoint, as reports show it. */
  oracle: string;
  records: ScenarioRecord[];
}

export async function runScenariosOnFixture(o: FixtureScenarioOptions): Promise<FixtureScenarioRun> {
  const timingScale = o.timingScale ?? DEFAULT_TIMING_SCALE;
  const net = await startFixtureNetwork({ ...(o.profiles ? { profiles: o.profiles } : {}), ...(o.wrap ? { wrap: o.wrap } : {}), moving: { timingScale } });
  try {
    const builds = net.builds({ deadlineMs: await fixtureDeadlineMs(net) });
    const oracle = { url: net.jsonrpc, auth: { kind: "cookie" as const, cookieFile: net.cookie } };
    const records = await runScenariosOn({ builds, oracle, mover: fixtureMover(net.moving!) }, o);
    return { builds, timingScale, oracle: net.jsonrpc, records };
  } finally {
    await net.close();
  }
}
