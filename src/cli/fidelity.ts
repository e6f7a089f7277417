// `zconform fidelity`: the whole corpus through the real servers installed on this machine
// and the emulated profiles that reproduce them, on the fixture chain; prints per rpc how
// many cases the emulation answers byte for byte like the real server, and every
// difference with the ledger entries that explain it. Exit 0 when every difference is
// explained, 1 when any is not, 2 when no real server is installed or the inputs are bad.
// With --scenarios: the scenarios of <cases>/scenarios on the fixture (the emulated
// profiles standing for the installed real servers, timing scale 1) and on real zebrad
// regtest, compared per check and build (src/modes/fidelity/scenarios.ts); exit codes as
// above, and 3 when a side could not run or check everything.

import { join } from "node:path";
import { existsSync } from "node:fs";
import { lightwalletProtocol } from "../zcash/protocol.js";
import { loadCorpus } from "../core/corpus/load.js";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { loadLedger } from "../core/ledger/quirk.js";
import { renderFidelity } from "../modes/fidelity/fidelity.js";
import { runFidelity, type FidelityRun } from "../modes/fidelity/run.js";
import { describePin } from "../zcash/real/pins.js";
import { RealServerError } from "../zcash/real/process.js";
import { VERSION } from "../version.js";
import { guarded, InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { selectCases, type CaseFilter } from "./select.js";
import type { Command } from "commander";
import { collect, corpusOptions } from "./options.js";
import { loadChainProfile } from "../core/corpus/chain-profile.js";
import { EXIT } from "../core/run/session.js";
import { selectedScenarios } from "./scenario.js";
import type { ScenarioDocument } from "../modes/scenario/document.js";
import { renderScenarioFidelity, scenarioFidelities, type ScenarioFidelity } from "../modes/fidelity/scenarios.js";
import { runScenarioFidelity, standIns } from "../modes/fidelity/scenarios-run.js";
import { loadCorpusAndLedger } from "./inputs.js";
import { regtestChainProfile } from "./regtest.js";

export const FIDELITY_SCHEMA_VERSION = 1;
export const SCENARIO_FIDELITY_SCHEMA_VERSION = 1;

export interface FidelityOptions extends CaseFilter {
  cases: string;
  ledger?: string;
  json?: string;
  scenarios?: boolean;
  scenario?: string[];
}

/** The JSON twin (schemas/fidelity.schema.json). */
export function fidelityJson(run: FidelityRun): unknown {
  return {
    schemaVersion: FIDELITY_SCHEMA_VERSION,
    tool: { name: "zconform", version: VERSION },
    chain: "fixture",
    servers: run.servers.map((s) => ({ name: s.name, pin: describePin(s.pin), ingestMs: Math.round(s.ingestMs) })),
    notes: run.notes,
    fidelities: run.fidelities,
  };
}

/** The JSON twin of --scenarios (schemas/scenario-fidelity.schema.json). */
export function scenarioFidelityJson(
  run: { startedAt: Date; emulated: ScenarioDocument; real: ScenarioDocument; fidelities: ScenarioFidelity[] },
  exitCode: number,
): unknown {
  const sum = (k: keyof ScenarioFidelity["totals"]) => run.fidelities.reduce((n, f) => n + f.totals[k], 0);
  const side = (d: ScenarioDocument) => ({ chain: d.chain, network: d.network, exitCode: d.exitCode, builds: d.builds.map((b) => b.name), summary: d.summary });
  return {
    kind: "scenario-fidelity",
    schemaVersion: SCENARIO_FIDELITY_SCHEMA_VERSION,
    tool: { name: "zconform", version: VERSION },
    startedAt: run.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    exitCode,
    scenarios: run.real.scenarios.map((s) => s.id),
    emulated: side(run.emulated),
    real: side(run.real),
    fidelities: run.fidelities,
    totals: { checks: sum("checks"), faithful: sum("faithful"), differ: sum("differ"), explained: sum("explained"), unexplained: sum("unexplained") },
  };
}

async function scenarioFidelityCommand(o: FidelityOptions, out: Output): Promise<number> {
  const inputs = await guarded(out, () => {
    const { ledger } = loadCorpusAndLedger({ cases: o.cases, ...(o.ledger ? { ledger: o.ledger } : {}) });
    const regtest = loadChainProfile(o.cases, "regtest");
    return {
      ledger,
      scenarios: selectedScenarios(o.cases, o.scenario),
      fixtureChain: loadChainProfile(o.cases, "fixture"),
      regtestChain: { name: regtest.name, resolve: (anchors: Record<string, number | string>) => regtestChainProfile(regtest, anchors) },
    };
  });
  if (typeof inputs === "number") return inputs;
  const profiles = standIns();
  if (profiles.length === 0) {
    out.stderr("real zebrad is not installed: scenarios on real servers need it (npm run real:install -- --only zebrad)");
    return EXIT.usage;
  }
  const startedAt = new Date();
  let sides: { emulated: ScenarioDocument; real: ScenarioDocument };
  try {
    sides = await runScenarioFidelity({ ...inputs, progress: (line) => out.stderr(line) }, profiles);
  } catch (e) {
    if (!(e instanceof RealServerError)) throw e;
    out.stderr(e.message);
    return EXIT.unchecked;
  }
  const fidelities = scenarioFidelities(sides.emulated, sides.real, inputs.ledger);
  for (const f of fidelities) {
    out.stdout("");
    for (const line of renderScenarioFidelity(f)) out.stdout(line);
  }
  const incomplete = [sides.emulated, sides.real].filter((d) => d.exitCode === EXIT.unchecked);
  for (const d of incomplete)
    out.stderr(
      `the ${d.network.kind} run could not check everything: ${d.summary.stopped} scenarios stopped, ${d.summary.outcomes.unchecked} checks unchecked`,
    );
  const exitCode = incomplete.length > 0 ? EXIT.unchecked : fidelities.some((f) => f.totals.unexplained > 0) ? EXIT.findings : EXIT.ok;
  if (o.json) writeFileAtomic(o.json, `${JSON.stringify(scenarioFidelityJson({ startedAt, ...sides, fidelities }, exitCode), null, 2)}\n`);
  return exitCode;
}

export async function fidelityCommand(o: FidelityOptions, out: Output): Promise<number> {
  if (o.scenarios || o.scenario) return scenarioFidelityCommand(o, out);
  const inputs = await guarded(out, () => {
    const ledgerPath = o.ledger ?? join(o.cases, "quirks.yaml");
    if (!existsSync(ledgerPath)) throw new InputError(`ledger file not found: ${ledgerPath}`);
    return {
      cases: selectCases(loadCorpus(o.cases, lightwalletProtocol), o),
      ledger: loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }),
    };
  });
  if (typeof inputs === "number") return inputs;
  out.stderr("Starting the fixture network and the real servers installed on this machine…");
  let run: FidelityRun;
  try {
    run = await runFidelity(inputs);
  } catch (e) {
    if (!(e instanceof RealServerError)) throw e;
    out.stderr(e.message);
    return 1;
  }
  for (const note of run.notes) out.stderr(note);
  if (run.fidelities.length === 0) {
    out.stderr("no real server is installed: nothing to compare (npm run real:install -- --only lightwalletd)");
    return 2;
  }
  for (const s of run.servers) out.stdout(`${s.name}: pinned ${describePin(s.pin)}; ingested the chain to its tip in ${(s.ingestMs / 1000).toFixed(1)} s`);
  for (const f of run.fidelities) {
    out.stdout("");
    for (const line of renderFidelity(f)) out.stdout(line);
  }
  if (o.json) writeFileAtomic(o.json, `${JSON.stringify(fidelityJson(run), null, 2)}\n`);
  return run.fidelities.some((f) => f.totals.unexplained > 0) ? 1 : 0;
}

/** Declares `zconform fidelity` on the program. */
export function registerFidelity(program: Command, io: Output): void {
  corpusOptions(
    program
      .command("fidelity")
      .description(
        "on the fixture chain, run the corpus through each real server installed on this machine (real-servers.yaml) and the emulated profile " +
          "that reproduces it; print per rpc the cases where both agree byte for byte, and every difference with the ledger entries that explain it;\n" +
          "exit 0 when every difference is explained, 1 when any is not, 2 when no real server is installed;\n" +
          "with --scenarios, the scenarios on the fixture's emulated profiles and on real zebrad regtest with the real servers, compared per check (3: a side could not run)",
      ),
  )
    .option("--json <file>", "write the fidelity table as JSON (schemas/fidelity.schema.json; with --scenarios schemas/scenario-fidelity.schema.json)")
    .option(
      "--scenarios",
      "compare over the scenarios of <cases>/scenarios: each real build's outcome and quirks per check against its emulation's at timing scale 1, and tip following side by side",
    )
    .option("--scenario <id>", "only these scenarios; repeatable", collect)
    .action(async (opts: FidelityOptions) => {
      process.exitCode = await fidelityCommand(opts, io);
    });
}
