// One scenario-fidelity run: the scenarios on the fixture with the emulated profiles that
// stand for the real servers installed here (zebrad-builtin for zebrad, the nearest
// profile for each lightwalletd and zainod), at timing scale 1 so their timings are the
// real ones, then the same scenarios on real zebrad regtest with those real servers; both
// as scenario reports, compared by scenarios.ts.

import type { Anchors } from "../../core/corpus/anchors.js";
import type { ChainProfile } from "../../core/corpus/chain-profile.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import { buildInfo } from "../../core/run/session.js";
import type { Scenario } from "../../core/scenario/scenario.js";
import type { ProfileName } from "../../zcash/fixture/network.js";
import { isInstalled, loadPins, type Pin } from "../../zcash/real/pins.js";
import { scenarioDocument, type ScenarioDocument } from "../scenario/document.js";
import { runScenariosOnFixture } from "../scenario/fixture.js";
import { runScenariosOnRegtest } from "../scenario/real.js";
import { profileFor } from "./run.js";

export interface ScenarioFidelityRunOptions {
  scenarios: readonly Scenario[];
  ledger: readonly Quirk[];
  fixtureChain: ChainProfile;
  /** The regtest chain profile's name and how it takes the anchors of the chain zebrad mined. */
  regtestChain: { name: string; resolve: (anchors: Anchors) => ChainProfile };
  progress?: (line: string) => void;
}

/** The emulated profiles standing for the installed real servers; none when zebrad, which every real run needs, is not installed. */
export function standIns(pins: readonly Pin[] = loadPins()): ProfileName[] {
  const installed = pins.filter((p) => isInstalled(p));
  if (!installed.some((p) => p.name === "zebrad")) return [];
  const profiles = installed.flatMap((p) => (p.name === "zebrad" ? ["zebrad-builtin" as const] : (profileFor(p) ?? [])));
  return [...new Set(profiles)];
}

async function timed<T extends { records: { durationMs: number }[] }>(run: () => Promise<T>): Promise<T & { startedAt: Date; durationMs: number }> {
  const startedAt = new Date();
  const t0 = performance.now();
  const r = await run();
  return { ...r, startedAt, durationMs: performance.now() - t0 };
}

export async function runScenarioFidelity(
  o: ScenarioFidelityRunOptions,
  profiles: readonly ProfileName[],
): Promise<{ emulated: ScenarioDocument; real: ScenarioDocument }> {
  const common = { scenarios: o.scenarios, ledger: o.ledger };
  o.progress?.(`Scenarios on the fixture with ${profiles.join(", ")} at timing scale 1…`);
  const f = await timed(() => runScenariosOnFixture({ ...common, chain: o.fixtureChain, profiles, timingScale: 1 }));
  const emulated = scenarioDocument({
    startedAt: f.startedAt,
    chain: o.fixtureChain.name,
    builds: f.builds.map((b) => buildInfo(b, b.protocolVersion)),
    network: { kind: "fixture", timingScale: f.timingScale },
    oracle: f.oracle,
    records: f.records,
    durationMs: f.durationMs,
  });
  const r = await timed(() => runScenariosOnRegtest({ ...common, chain: o.regtestChain.resolve, ...(o.progress ? { progress: o.progress } : {}) }));
  const real = scenarioDocument({
    startedAt: r.startedAt,
    chain: o.regtestChain.name,
    builds: r.builds.map((b) => buildInfo(b, b.protocolVersion)),
    network: { kind: "regtest", node: r.node, notes: r.notes },
    oracle: r.oracle,
    records: r.records,
    durationMs: r.durationMs,
  });
  return { emulated, real };
}
