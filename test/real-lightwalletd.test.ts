// Real lightwalletd (the version pinned in real-servers.yaml) against the fixture's
// Zebra-style JSON-RPC, through the whole corpus beside the emulated `lightwalletd`
// profile: it must ingest the chain to the tip, and every difference between the real
// server and its emulation must be explained by the ledger. Without the binary the suite
// is skipped locally and fails under CI=true (.ci/run installs it).

import { beforeAll, describe, expect } from "@jest/globals";
import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fidelityJson } from "../src/cli/fidelity.js";
import type { RunEvent } from "../src/core/results/events.js";
import type { FidelityRun } from "../src/modes/fidelity/run.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { recordedFidelityRun } from "./tools/real-fidelity.js";
import { realGate } from "./tools/real-gate.js";

const GOLDEN = join(import.meta.dirname, "..", "golden");
const { pin, installed, realTest } = realGate("lightwalletd");

describe(`real lightwalletd ${pin.version} against the fixture`, () => {
  let run: FidelityRun;
  let terminal: string[] = [];
  let events: RunEvent[] = [];
  const name = realBuildName(pin);

  beforeAll(async () => {
    if (!installed) return;
    ({ run, terminal, events } = await recordedFidelityRun({ goldenRoot: GOLDEN }));
  }, 900_000); // a whole fidelity run: minutes on a busy two-core machine, where every call keeps its own deadline

  realTest("ingests the fixture chain to its tip", () => {
    const s = run.servers.find((x) => x.name === name);
    expect(s).toBeDefined();
    expect(s!.ingestMs).toBeGreaterThan(0);
  });

  realTest("the report header names the real build's pinned version, in the terminal and in the JSON events", () => {
    expect(terminal.find((l) => l.startsWith(`  ${name}:`))).toContain(
      `REAL, pinned lightwalletd ${pin.version} (go github.com/zcash/lightwalletd), real-servers.yaml`,
    );
    const start = events.find((e) => e.type === "run-start");
    const build = start?.type === "run-start" ? start.builds.find((b) => b.name === name) : undefined;
    expect(build).toMatchObject({
      implementation: "lightwalletd",
      version: pin.version,
      emulated: false,
      pin: `lightwalletd ${pin.version} (go github.com/zcash/lightwalletd), real-servers.yaml`,
    });
  });

  realTest("answers every case of the corpus that the emulated profile answers", () => {
    const f = run.fidelities.find((x) => x.pair.real === name)!;
    expect(f.pair.emulated).toBe("lightwalletd");
    const grpcCases = run.session.results.filter((r) => r.transport === "grpc" && !r.skipped).length;
    expect(f.totals.cases).toBe(grpcCases);
    expect(f.totals.agree).toBeGreaterThan(0);
  });

  realTest("every difference from the emulated lightwalletd profile is explained by the ledger", () => {
    const f = run.fidelities.find((x) => x.pair.real === name)!;
    const unexplained = f.differences
      .filter((d) => d.explainedBy === null)
      .map(
        (d) =>
          `${d.caseId}: emulated ${d.emulated.status} "${d.emulated.message}" (${d.emulated.messages}), real ${d.real.status} "${d.real.message}" (${d.real.messages})`,
      );
    expect(unexplained).toEqual([]);
  });

  realTest("answers what golden/fixture/lightwalletd-<version> recorded (drift when the pin or the fixture changes)", () => {
    const drift = run.session.results.flatMap((r) => (r.drift ?? []).filter((d) => d.build === name).map((d) => ({ caseId: r.caseId, status: d.status })));
    expect(drift.filter((d) => d.status === "unchanged").length).toBeGreaterThan(0);
    expect(drift.filter((d) => d.status === "changed").map((d) => d.caseId)).toEqual([]);
  });

  realTest("the JSON twin of the fidelity table follows schemas/fidelity.schema.json", () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, "..", "schemas", "fidelity.schema.json"), "utf8")) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(JSON.parse(JSON.stringify(fidelityJson(run))))).toBe(true);
  });

  realTest("every divergence of the real build from the oracle and the other builds is in the ledger", () => {
    const fresh = run.session.results.flatMap((r) =>
      r.divergences.filter((d) => d.build === name && d.quirk === null).map((d) => `${d.caseId} ${d.kind} ${d.path}`),
    );
    expect(fresh).toEqual([]);
  });
});
