// The real servers pinned in real-servers.yaml against the fixture's Zebra-style JSON-RPC,
// through the whole corpus (gRPC, and JSON-RPC through zainod's own JSON-RPC server) beside
// the emulated profile of each: every one must ingest the chain to the tip, and every
// difference between a real server and its emulation must be explained by the ledger.
// One fidelity run serves every suite here: it starts every installed server at once, as
// `zconform fidelity` does, and takes minutes on a busy two-core machine.
//
// lightwalletd builds in minutes and .ci/run installs it: under CI=true its absence fails.
// zainod takes over an hour of cargo build, longer than CI can wait, so its suites run only
// where the machine already has it (npm run real:install -- --only zainod).

import { beforeAll, describe, expect } from "@jest/globals";
import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fidelityJson } from "../src/cli/fidelity.js";
import type { RunEvent } from "../src/core/results/events.js";
import { profileFor, type FidelityRun } from "../src/modes/fidelity/run.js";
import { isInstalled, loadPins, pinsOf, type Pin } from "../src/zcash/real/pins.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { recordedFidelityRun } from "./tools/real-fidelity.js";
import { realGate } from "./tools/real-gate.js";
import { testIf } from "./tools/skips.js";

const GOLDEN = join(import.meta.dirname, "..", "golden");
const lightwalletd = realGate("lightwalletd");
const zainods = pinsOf(loadPins(), "zainod");

let run: FidelityRun;
let terminal: string[] = [];
let events: RunEvent[] = [];

beforeAll(async () => {
  if (!lightwalletd.installed && !zainods.some((p) => isInstalled(p))) return;
  ({ run, terminal, events } = await recordedFidelityRun({ goldenRoot: GOLDEN }));
}, 900_000); // every call keeps its own deadline

const fidelityOf = (name: string) => run.fidelities.find((x) => x.pair.real === name)!;

/** When a side's answer came and how it ended, for a failure's message (a one-off on a loaded machine is then readable). */
function timing(caseId: string, side: string): string {
  const a = run.session.results.find((r) => r.caseId === caseId)?.answers.find((x) => x.side === side);
  return a ? ` [${a.ms} ms, first byte ${a.firstByteMs ?? "-"} ms${a.endedBy ? `, ended by the client (${a.endedBy})` : ""}]` : "";
}

/** `name: emulated … real …` for each difference of the pair the ledger does not explain. */
function unexplained(name: string): string[] {
  const f = fidelityOf(name);
  return f.differences
    .filter((d) => d.explainedBy === null)
    .map(
      (d) =>
        `${name} ${d.caseId}: emulated ${d.emulated.status} "${d.emulated.message}" (${d.emulated.messages})${timing(d.caseId, f.pair.emulated)}, ` +
        `real ${d.real.status} "${d.real.message}" (${d.real.messages})${timing(d.caseId, f.pair.real)}`,
    );
}

/** Answers that differ from the build's committed goldens. */
const drifted = (name: string) =>
  run.session.results.flatMap((r) => (r.drift ?? []).filter((d) => d.build === name && d.status === "changed").map(() => r.caseId));
const unchanged = (name: string, transport?: string) =>
  run.session.results.filter(
    (r) => (transport === undefined || r.transport === transport) && (r.drift ?? []).some((d) => d.build === name && d.status === "unchanged"),
  ).length;

/** New divergences of the real build from the oracle and the other builds. */
const fresh = (name: string) =>
  run.session.results.flatMap((r) => r.divergences.filter((d) => d.build === name && d.quirk === null).map((d) => `${d.caseId} ${d.kind} ${d.path}`));

function startBuild(name: string) {
  const start = events.find((e) => e.type === "run-start");
  return start?.type === "run-start" ? start.builds.find((b) => b.name === name) : undefined;
}

describe(`real lightwalletd ${lightwalletd.pin.version} against the fixture`, () => {
  const { pin, realTest } = lightwalletd;
  const name = realBuildName(pin);

  realTest("ingests the fixture chain to its tip", () => {
    const s = run.servers.find((x) => x.name === name);
    expect(s).toBeDefined();
    expect(s!.ingestMs).toBeGreaterThan(0);
  });

  realTest("the report header names the real build's pinned version, in the terminal and in the JSON events", () => {
    expect(terminal.find((l) => l.startsWith(`  ${name}:`))).toContain(
      `REAL, pinned lightwalletd ${pin.version} (go github.com/zcash/lightwalletd), real-servers.yaml`,
    );
    expect(startBuild(name)).toMatchObject({
      implementation: "lightwalletd",
      version: pin.version,
      emulated: false,
      pin: `lightwalletd ${pin.version} (go github.com/zcash/lightwalletd), real-servers.yaml`,
    });
  });

  realTest("answers every case of the corpus that the emulated profile answers", () => {
    const f = fidelityOf(name);
    expect(f.pair.emulated).toBe("lightwalletd");
    const grpcCases = run.session.results.filter((r) => r.transport === "grpc" && !r.skipped).length;
    expect(f.totals.cases).toBe(grpcCases);
    expect(f.totals.agree).toBeGreaterThan(0);
  });

  realTest("every difference from the emulated lightwalletd profile is explained by the ledger", () => {
    expect(unexplained(name)).toEqual([]);
  });

  realTest("answers what golden/fixture/lightwalletd-<version> recorded (drift when the pin or the fixture changes)", () => {
    expect(unchanged(name)).toBeGreaterThan(0);
    expect(drifted(name)).toEqual([]);
  });

  realTest("the JSON twin of the fidelity table follows schemas/fidelity.schema.json", () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, "..", "schemas", "fidelity.schema.json"), "utf8")) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(JSON.parse(JSON.stringify(fidelityJson(run))))).toBe(true);
  });

  realTest("every divergence of the real build from the oracle and the other builds is in the ledger", () => {
    expect(fresh(name)).toEqual([]);
  });
});

describe.each(zainods.map((pin): [string, Pin] => [pin.version, pin]))("real zainod %s against the fixture", (_version, pin) => {
  const realTest = testIf(isInstalled(pin), `need real zainod ${pin.version} (npm run real:install -- --only zainod)`);
  const name = realBuildName(pin);

  realTest("ingests the fixture chain to its tip", () => {
    const s = run.servers.find((x) => x.name === name);
    expect(run.notes.filter((n) => n.startsWith(name))).toEqual([]);
    expect(s).toBeDefined();
    expect(s!.ingestMs).toBeGreaterThan(0);
  });

  realTest("the report header names the real build's pinned version, in the terminal and in the JSON events", () => {
    expect(terminal.find((l) => l.startsWith(`  ${name}:`))).toContain(`REAL, pinned zainod ${pin.version} (crates.io zainod), real-servers.yaml`);
    expect(startBuild(name)).toMatchObject({ implementation: "zaino", version: pin.version, emulated: false });
  });

  realTest("is compared with the Zaino profile of its version on every case it answers, over gRPC and its own JSON-RPC", () => {
    const f = fidelityOf(name);
    expect(f.pair.emulated).toBe(profileFor(pin));
    const answered = run.session.results.filter((r) => !r.skipped && r.answers.some((a) => a.side === name));
    expect(f.totals.cases).toBe(answered.length);
    expect(answered.filter((r) => r.transport === "grpc").length).toBe(run.session.results.filter((r) => r.transport === "grpc" && !r.skipped).length);
    // zainod is started with its JSON-RPC server on: the JSON-RPC corpus reaches the real server.
    expect(answered.filter((r) => r.transport === "jsonrpc").length).toBeGreaterThan(100);
    expect(f.totals.agree).toBeGreaterThan(0);
  });

  realTest("answers as its emulated profile wherever the ledger explains no difference (zconform fidelity exits 0)", () => {
    expect(unexplained(name)).toEqual([]);
  });

  realTest("answers what golden/fixture/zaino-<version> recorded, over gRPC and JSON-RPC (drift when the pin or the fixture changes)", () => {
    expect(unchanged(name, "jsonrpc")).toBeGreaterThan(100);
    expect(drifted(name)).toEqual([]);
  });

  realTest("every divergence of the real build from the oracle and the other builds is in the ledger", () => {
    expect(fresh(name)).toEqual([]);
  });
});
