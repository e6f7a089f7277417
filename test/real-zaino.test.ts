// Real zainod (the first zainod version pinned in real-servers.yaml) against the fixture's
// Zebra-style JSON-RPC, through the whole corpus (gRPC, and JSON-RPC through zainod's own
// JSON-RPC server) beside the emulated Zaino profile of the nearest version. Without the binary the suite is skipped, under CI=true too: a cargo
// build of zainod takes over an hour on two cores, longer than CI can wait, so CI runs it
// only where the machine already has it (npm run real:install -- --only zainod).

import { beforeAll, describe, expect } from "@jest/globals";
import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fidelityJson } from "../src/cli/fidelity.js";
import type { RunEvent } from "../src/core/results/events.js";
import { profileFor, type FidelityRun } from "../src/modes/fidelity/run.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { recordedFidelityRun } from "./tools/real-fidelity.js";
import { realGate } from "./tools/real-gate.js";

const { pin, installed, realTest } = realGate("zainod");

describe(`real zainod ${pin.version} against the fixture`, () => {
  let run: FidelityRun;
  let terminal: string[] = [];
  let events: RunEvent[] = [];
  const name = realBuildName(pin);

  beforeAll(async () => {
    if (!installed) return;
    ({ run, terminal, events } = await recordedFidelityRun({ goldenRoot: join(import.meta.dirname, "..", "golden") }));
  }, 300_000);

  realTest("ingests the fixture chain to its tip", () => {
    const s = run.servers.find((x) => x.name === name);
    expect(run.notes.filter((n) => n.startsWith(name))).toEqual([]);
    expect(s).toBeDefined();
    expect(s!.ingestMs).toBeGreaterThan(0);
  });

  realTest("the report header names the real build's pinned version, in the terminal and in the JSON events", () => {
    expect(terminal.find((l) => l.startsWith(`  ${name}:`))).toContain(`REAL, pinned zainod ${pin.version} (crates.io zainod), real-servers.yaml`);
    const start = events.find((e) => e.type === "run-start");
    const build = start?.type === "run-start" ? start.builds.find((b) => b.name === name) : undefined;
    expect(build).toMatchObject({ implementation: "zaino", version: pin.version, emulated: false });
  });

  realTest("is compared with the Zaino profile of its version on every case it answers, over gRPC and its own JSON-RPC", () => {
    const f = run.fidelities.find((x) => x.pair.real === name)!;
    expect(f.pair.emulated).toBe(profileFor(pin));
    const answered = run.session.results.filter((r) => !r.skipped && r.answers.some((a) => a.side === name));
    expect(f.totals.cases).toBe(answered.length);
    expect(answered.filter((r) => r.transport === "grpc").length).toBe(run.session.results.filter((r) => r.transport === "grpc" && !r.skipped).length);
    // zainod is started with its JSON-RPC server on: the JSON-RPC corpus reaches the real server.
    expect(answered.filter((r) => r.transport === "jsonrpc").length).toBeGreaterThan(100);
    expect(f.totals.agree).toBeGreaterThan(0);
  });

  realTest("each real Zaino answers as its emulated profile wherever the ledger explains no difference (zconform fidelity exits 0)", () => {
    const zainos = run.fidelities.filter((f) => f.pair.real.startsWith("zaino "));
    expect(zainos.map((f) => f.pair.real)).toContain(name);
    const unexplained = zainos.flatMap((f) => f.differences.filter((d) => d.explainedBy === null).map((d) => `${f.pair.real}: ${d.caseId}`));
    expect(unexplained).toEqual([]);
  });

  realTest("answers what golden/fixture/zaino-<version> recorded, over gRPC and JSON-RPC (drift when the pin or the fixture changes)", () => {
    const drift = run.session.results.flatMap((r) =>
      (r.drift ?? []).filter((d) => d.build === name).map((d) => ({ caseId: r.caseId, transport: r.transport, status: d.status })),
    );
    expect(drift.filter((d) => d.status === "unchanged" && d.transport === "jsonrpc").length).toBeGreaterThan(100);
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
