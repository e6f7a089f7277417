// `zconform scenario --real` as a user runs it: zebrad mines a regtest chain and moves it
// (blocks, transactions, reorganizations of depth 1 and 3), zebrad's built-in server and
// every installed real lightwalletd and zainod follow it, zebrad's JSON-RPC is the oracle.
// Every scenario must run to its end for every build, every divergence must be known to
// the ledger, and each build's tip following must be measured. Skipped without zebrad,
// under CI=true too (see test/tools/real-gate.ts).

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScenarioDocument } from "../src/modes/scenario/document.js";
import { isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { runCli } from "./tools/cli.js";
import { realGate } from "./tools/real-gate.js";
import { schemaErrors } from "./schemas.test-helper.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const { pin, installed, realTest } = realGate("zebrad");
const SCENARIOS = readdirSync(join("cases", "scenarios")).filter((f) => f.endsWith(".yaml")).length;

describe(`zconform scenario --real on zebrad ${pin.version}`, () => {
  let dir: TempDir;
  let run: { code: number | null; stdout: string; stderr: string };
  let doc: ScenarioDocument;

  beforeAll(async () => {
    if (!installed) return;
    dir = tempDir("zconform-real-scenario-");
    run = await runCli(["scenario", "--real", "--json", join(dir.path, "r.json"), "--html", join(dir.path, "r.html")], 1_800_000);
    doc = JSON.parse(readFileSync(join(dir.path, "r.json"), "utf8")) as ScenarioDocument;
  }, 1_900_000);

  afterAll(() => dir?.remove());

  realTest("exits 0: every check converged, or differs only as the ledger explains", () => {
    // Only when it failed, so that the failure shows why: from the report, each new
    // divergence and each build not at the tip in time; the output's tail.
    const findings = (d: ScenarioDocument) =>
      d.scenarios.flatMap((s) =>
        s.steps.flatMap((st) => [
          ...st.checks.flatMap((c) =>
            c.divergences.filter((x) => x.quirk === null).map((x) => `${s.id} step ${st.index} ${c.id} ${x.build} ${x.path}: ${x.detail}`),
          ),
          ...(st.action.kind === "wait-tip"
            ? st.action.builds.filter((b) => b.ms === null).map((b) => `${s.id} step ${st.index} ${b.build} not at the tip in time`)
            : []),
        ]),
      );
    expect({
      code: run.code,
      findings: run.code === 0 ? [] : findings(doc),
      tail: run.code === 0 ? "" : run.stdout.slice(-3000) + run.stderr.slice(-2000),
    }).toEqual({ code: 0, findings: [], tail: "" });
    expect(doc.summary).toMatchObject({ scenarios: SCENARIOS, stopped: 0, newDivergences: 0, notAtTip: 0 });
    expect(doc.summary.outcomes.unchecked).toBe(0);
    expect(schemaErrors("scenario", doc)).toEqual([]);
  });

  realTest("every installed real server is a build, zebrad's own server among them, on the regtest network", () => {
    const expected = [pin, ...pinsOf(loadPins(), "lightwalletd"), ...pinsOf(loadPins(), "zainod")].filter((p) => isInstalled(p)).map((p) => realBuildName(p));
    expect(doc.builds.map((b) => b.name).sort()).toEqual(expected.sort());
    expect(doc.network).toMatchObject({ kind: "regtest", node: `zebrad ${pin.version}` });
  });

  realTest("the chain moved as the scenarios say: reorganizations dropped blocks, and every build followed the tip-following scenario's blocks", () => {
    const reorgs = doc.scenarios.flatMap((s) => s.steps.filter((st) => st.action.kind === "reorg").map((st) => st.action));
    expect(reorgs.length).toBeGreaterThan(0);
    for (const r of reorgs) if (r.kind === "reorg") expect(r.orphaned).toHaveLength(r.depth);
    // Elsewhere a block may be dropped by a reorganization, or the scenario end, before a build that polls its node serves it.
    const following = doc.scenarios.find((s) => s.id === "tip-following")!;
    const blocks = following.tips.filter((t) => t.kind === "block");
    expect(blocks.length).toBeGreaterThanOrEqual(50);
    for (const t of blocks) expect(Object.entries(t.served).filter(([, ms]) => ms === null)).toEqual([]);
    for (const t of doc.tipFollowing) expect({ build: t.build, p50: t.blocks.p50Ms === null }).toEqual({ build: t.build, p50: false });
  });
});
