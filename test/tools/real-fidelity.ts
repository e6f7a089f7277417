// One fidelity run over the whole shipped corpus, as the real-server suites make it: the
// terminal lines and the event stream are kept for the assertions on report headers.
import { join } from "node:path";
import { Chalk } from "chalk";
import { loadCorpus } from "../../src/core/corpus/load.js";
import { loadLedger } from "../../src/core/ledger/quirk.js";
import { terminalReporter } from "../../src/core/report/terminal.js";
import type { RunEvent } from "../../src/core/results/events.js";
import { runFidelity, type FidelityRun } from "../../src/modes/fidelity/run.js";
import { lightwalletProtocol } from "../../src/zcash/protocol.js";
import { REPO } from "./cli.js";

export const CASES = join(REPO, "cases");

export interface RecordedFidelityRun {
  run: FidelityRun;
  terminal: string[];
  events: RunEvent[];
}

export async function recordedFidelityRun(o: { goldenRoot?: string } = {}): Promise<RecordedFidelityRun> {
  const terminal: string[] = [];
  const events: RunEvent[] = [];
  const run = await runFidelity({
    cases: loadCorpus(CASES, lightwalletProtocol),
    ledger: loadLedger(join(CASES, "quirks.yaml")),
    ...o,
    reporters: [
      terminalReporter({ write: (l) => terminal.push(l), chalk: new Chalk({ level: 0 }) }),
      { onEvent: (e) => events.push(e), finish: async () => {} },
    ],
  });
  return { run, terminal, events };
}
