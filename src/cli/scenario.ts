// `zconform scenario`: every scenario of cases/scenarios (or those named by --scenario) on
// the embedded fixture network, whose node moves its chain while each emulated build
// follows with its own timing, or with --real on a regtest zebrad that real lightwalletd
// and zainod follow (src/modes/scenario). Exit codes as `run`: 0 every check
// converged (or differs only as the ledger explains), 1 a new divergence or a build that
// never served the node's tip, 2 bad input, 3 something could not be checked.

import type { Command } from "commander";
import { loadChainProfile } from "../core/corpus/chain-profile.js";
import { loadCorpus } from "../core/corpus/load.js";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { hintFor } from "../core/io/did-you-mean.js";
import { loadScenarios } from "../core/scenario/load.js";
import { buildInfo, EXIT, interruption } from "../core/run/session.js";
import type { ScenarioRecord } from "../core/scenario/record.js";
import type { Scenario } from "../core/scenario/scenario.js";
import type { Build } from "../core/targets/config.js";
import { onInterrupt } from "./interrupt.js";
import { scenarioDocument, type ScenarioDocument, type ScenarioNetwork } from "../modes/scenario/document.js";
import { runScenariosOnRegtest } from "../modes/scenario/real.js";
import { RealServerError } from "../zcash/real/process.js";
import { regtestChainProfile } from "./regtest.js";
import { runScenariosOnFixture } from "../modes/scenario/fixture.js";
import { scenarioHtml } from "../modes/scenario/html.js";
import { scenarioLines } from "../modes/scenario/terminal.js";
import { DEFAULT_TIMING_SCALE, type ProfileName } from "../zcash/fixture/network.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import { casesOption } from "./cases-option.js";
import { guarded, InputError, loadCorpusAndLedger } from "./inputs.js";
import { startModeStream } from "./mode-reporters.js";
import { collect, profileOption } from "./options.js";
import type { Output } from "./output.js";

export interface ScenarioCommandOptions {
  cases: string;
  ledger?: string;
  scenario?: string[];
  profiles?: ProfileName[];
  timingScale?: string;
  json?: string;
  html?: string;
  quiet?: boolean;
  real?: boolean;
  keepLogs?: boolean;
}

/** The corpus's scenarios, or those `--scenario` names; an unknown id is an input error naming the nearest. */
export function selectedScenarios(cases: string, ids: readonly string[] | undefined): Scenario[] {
  const all = loadScenarios(cases, { methods: lightwalletProtocol, corpus: loadCorpus(cases, lightwalletProtocol) });
  if (all.length === 0) throw new InputError(`no scenarios in ${cases}/scenarios`);
  for (const id of ids ?? []) {
    if (!all.some((s) => s.id === id))
      throw new InputError(
        `--scenario: no scenario "${id}"${hintFor(
          id,
          all.map((s) => s.id),
        )}`,
      );
  }
  return ids ? all.filter((s) => ids.includes(s.id)) : all;
}

export async function scenarioCommand(o: ScenarioCommandOptions, out: Output): Promise<number> {
  const prepared = await guarded(out, () => {
    const { ledger } = loadCorpusAndLedger({ cases: o.cases, ...(o.ledger ? { ledger: o.ledger } : {}) });
    const scenarios = selectedScenarios(o.cases, o.scenario);
    if (o.real && (o.profiles !== undefined || o.timingScale !== undefined))
      throw new InputError("--real runs real servers in real time: drop --profile and --timing-scale");
    const timingScale = o.timingScale === undefined ? DEFAULT_TIMING_SCALE : Number(o.timingScale);
    if (!(timingScale > 0)) throw new InputError(`--timing-scale must be a number above 0, got ${JSON.stringify(o.timingScale)}`);
    return {
      ledger,
      timingScale,
      chain: loadChainProfile(o.cases, o.real ? "regtest" : "fixture"),
      scenarios,
    };
  });
  if (typeof prepared === "number") return prepared;
  const startedAt = new Date();
  const t0 = performance.now();
  const interrupt = onInterrupt(out);
  const onScenario = o.quiet
    ? undefined
    : (r: ScenarioRecord) =>
        out.stderr(`scenario ${r.id}: ${r.steps.length} steps in ${(r.durationMs / 1000).toFixed(1)} s${r.error ? `, stopped: ${r.error}` : ""}`);
  const common = { scenarios: prepared.scenarios, ledger: prepared.ledger, signal: interrupt.signal, ...(onScenario ? { onScenario } : {}) };
  let run: { builds: Build[]; oracle: string; records: ScenarioRecord[]; network: ScenarioNetwork };
  try {
    if (o.real) {
      const real = await runScenariosOnRegtest({
        ...common,
        chain: (anchors) => regtestChainProfile(prepared.chain, anchors),
        ...(o.keepLogs ? { keepLogs: true } : {}),
        progress: (line) => {
          if (!o.quiet) out.stderr(line);
        },
      });
      run = { ...real, network: { kind: "regtest", node: real.node, notes: real.notes } };
    } else {
      const fixture = await runScenariosOnFixture({
        ...common,
        chain: prepared.chain,
        timingScale: prepared.timingScale,
        ...(o.profiles ? { profiles: o.profiles } : {}),
      });
      run = { ...fixture, network: { kind: "fixture", timingScale: fixture.timingScale } };
    }
  } catch (e) {
    // zebrad that does not start or mine leaves every scenario unchecked; its log says why.
    if (!(e instanceof RealServerError)) throw e;
    out.stderr(e.message);
    return EXIT.unchecked;
  } finally {
    interrupt.dispose();
  }
  const interrupted = interruption(interrupt.signal);
  const builds = run.builds.map((b) => buildInfo(b, b.protocolVersion));
  const stream = startModeStream<ScenarioDocument>(
    o,
    scenarioLines,
    out,
    { builds: run.builds },
    { kind: "scenario", startedAt, chain: prepared.chain.name, builds },
  );
  const doc = scenarioDocument({
    startedAt,
    chain: prepared.chain.name,
    builds,
    network: run.network,
    oracle: run.oracle,
    records: run.records,
    durationMs: performance.now() - t0,
    ...(interrupted ? { interrupted } : {}),
  });
  stream.emit({ type: "mode-end", document: doc });
  try {
    await stream.finish();
    if (o.html) writeFileAtomic(o.html, scenarioHtml(doc));
  } catch (e) {
    out.stderr(`report not written: ${(e as Error).message}`);
    return 2;
  }
  return doc.exitCode;
}

/** Declares `zconform scenario` on the program. */
export function registerScenario(program: Command, io: Output): void {
  program
    .command("scenario")
    .description(
      "move the fixture network's chain as the corpus's scenarios (<cases>/scenarios) say (mine, send, reorganize, hold streams open) and check after each step " +
        "that every emulated build converges on the oracle in time; tip following per build",
    )
    .addHelpText(
      "after",
      "\nExit codes: 0 every check converged or differs only as the ledger explains; 1 a new divergence, or a build that never " +
        "served the node's tip; 2 bad scenario, corpus, ledger or command line; 3 a build or the oracle could not be checked",
    )
    .addOption(casesOption("corpus folder: scenarios/, the corpus cases they name, chains/fixture.yaml and the default ledger"))
    .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
    .option("--scenario <id>", "only these scenarios; repeatable", collect)
    .addOption(profileOption("only these profiles of the fixture network"))
    .option("--timing-scale <x>", `the emulated builds' timings times this factor (default ${DEFAULT_TIMING_SCALE}: a 2 s poll takes 200 ms)`)
    .option("--json <file>", "write the scenario report (JSON, schemas/scenario.schema.json) to this file")
    .option(
      "--real",
      "instead of the fixture: zebrad mines a regtest chain and moves it (generate, invalidateblock), zebrad's own gRPC and every " +
        "installed real lightwalletd and zainod of real-servers.yaml follow it, zebrad's JSON-RPC is the oracle (npm run real:install installs them)",
    )
    .option("--keep-logs", "keep the real servers' temporary folders (their logs) after the run")
    .option("--html <file>", "write the timelines as one HTML page to this file")
    .option("-q, --quiet", "no terminal report")
    .action(async (opts) => {
      process.exitCode = await scenarioCommand({ ...opts, ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
    });
}
