// `zconform fidelity --scenarios` as a user runs it: the scenarios on the fixture's emulated
// profiles and on real zebrad regtest with every installed real lightwalletd and zainod,
// compared per check. The exit code says whether every difference is explained, every real
// build has its emulation compared on the checks, and the report holds to its schema.
// Skipped without zebrad, under CI=true too (see test/tools/real-gate.ts).

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScenarioFidelity } from "../src/modes/fidelity/scenarios.js";
import { isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { schemaErrors } from "./schemas.test-helper.js";
import { runCli } from "./tools/cli.js";
import { realGate } from "./tools/real-gate.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const { pin, installed, realTest } = realGate("zebrad");

interface Doc {
  exitCode: number;
  real: { builds: string[]; exitCode: number };
  emulated: { builds: string[]; exitCode: number };
  fidelities: ScenarioFidelity[];
  totals: { unexplained: number };
}

describe(`zconform fidelity --scenarios on zebrad ${pin.version}`, () => {
  let dir: TempDir;
  let run: { code: number | null; stdout: string; stderr: string };
  let doc: Doc;

  beforeAll(async () => {
    if (!installed) return;
    dir = tempDir("zconform-scenario-fidelity-");
    run = await runCli(["fidelity", "--scenarios", "--json", join(dir.path, "f.json")], 1_800_000);
    doc = JSON.parse(readFileSync(join(dir.path, "f.json"), "utf8")) as Doc;
  }, 1_900_000);

  afterAll(() => dir?.remove());

  realTest("both sides ran every check, and the exit code is 0 exactly when every difference is explained", () => {
    const expected = doc.totals.unexplained === 0 ? 0 : 1;
    // The output's tail only when it failed, so that the failure shows it.
    const tail = run.code === expected ? "" : `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
    expect({ code: run.code, tail }).toEqual({ code: expected, tail: "" });
    expect(doc.exitCode).toBe(run.code);
    expect([doc.emulated.exitCode, doc.real.exitCode]).not.toContain(3);
    expect(schemaErrors("scenario-fidelity", doc)).toEqual([]);
  });

  realTest("every installed real server is compared with its emulation on the checks both took part in", () => {
    const expected = [pin, ...pinsOf(loadPins(), "lightwalletd"), ...pinsOf(loadPins(), "zainod")].filter((p) => isInstalled(p)).map((p) => realBuildName(p));
    expect(doc.real.builds.sort()).toEqual(expected.sort());
    expect(doc.fidelities.map((f) => f.pair.real).sort()).toEqual(expected.sort());
    for (const f of doc.fidelities) {
      expect(doc.emulated.builds).toContain(f.pair.emulated);
      expect({ pair: f.pair, checks: f.totals.checks > 0 }).toEqual({ pair: f.pair, checks: true });
      expect(f.tipFollowing.blocks.real?.p50Ms).not.toBeNull();
      expect(f.tipFollowing.blocks.emulated?.p50Ms).not.toBeNull();
    }
    for (const f of doc.fidelities)
      expect(run.stdout).toContain(`${f.pair.real} ← emulated ${f.pair.emulated}: ${f.totals.faithful}/${f.totals.checks} checks faithful`);
  });
});
