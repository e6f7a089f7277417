// `zconform fidelity`: the whole corpus through the real servers installed on this machine
// and the emulated profiles that reproduce them, on the fixture chain; prints per rpc how
// many cases the emulation answers byte for byte like the real server, and every
// difference with the ledger entries that explain it. Exit 0 when every difference is
// explained, 1 when any is not, 2 when no real server is installed or the inputs are bad.

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

export const FIDELITY_SCHEMA_VERSION = 1;

export interface FidelityOptions extends CaseFilter {
  cases: string;
  ledger?: string;
  json?: string;
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

export async function fidelityCommand(o: FidelityOptions, out: Output): Promise<number> {
  const inputs = await guarded(out, () => {
    const ledgerPath = o.ledger ?? join(o.cases, "quirks.yaml");
    if (!existsSync(ledgerPath)) throw new InputError(`ledger file not found: ${ledgerPath}`);
    return { cases: selectCases(loadCorpus(o.cases, lightwalletProtocol), o), ledger: loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) };
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
