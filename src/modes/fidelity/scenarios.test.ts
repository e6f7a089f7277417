// The comparison rules of scenario fidelity on two small reports written by hand: which
// emulated build stands for each real one, when a check is faithful, when a difference is
// explained (an intermittent entry, or an entry bound to one side's chain) and when not,
// which checks are not compared, and tip following carried over as the reports give it.

import { expect, test } from "@jest/globals";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { BuildInfo } from "../../core/results/events.js";
import type { OutcomeKind } from "../../core/results/outcome.js";
import type { CheckEntry, TipFigures } from "../scenario/document.js";
import { pairBuilds, renderScenarioFidelity, scenarioFidelities, type ScenarioSide } from "./scenarios.js";

const build = (name: string, implementation: string, version: string, emulated: boolean): BuildInfo => ({ name, implementation, version, emulated });

type Cell = [build: string, outcome: OutcomeKind, quirk?: string];

function check(id: string, cells: Cell[]): CheckEntry {
  return {
    id,
    caseId: `GetLatestBlock/scenario.s.${id}`,
    method: "GetLatestBlock",
    deadlineMs: 5000,
    verdict: null,
    builds: cells.map(([b, outcome]) => ({ build: b, ms: 1, outcome })),
    divergences: cells.flatMap(([b, , quirk]) => (quirk === undefined ? [] : [{ build: b, kind: "value", path: "height", detail: "", quirk }])),
  };
}

const figures = (p50Ms: number, p99Ms: number): TipFigures => ({ events: 4, served: 4, p50Ms, p99Ms, maxMs: p99Ms });

function side(chain: string, builds: BuildInfo[], checks: CheckEntry[], tips: Record<string, TipFigures>): ScenarioSide {
  return {
    chain,
    builds,
    scenarios: [
      {
        id: "s",
        source: "s.yaml:1",
        durationMs: 10,
        tips: [],
        steps: [{ index: 1, source: "s.yaml:3", atMs: 0, actionMs: 0, action: { kind: "wait", ms: 0 }, checks }],
      },
    ],
    tipFollowing: Object.entries(tips).map(([b, f]) => ({ build: b, blocks: f, reorgs: figures(f.p50Ms! * 2, f.p99Ms! * 2) })),
  };
}

const entry = (id: string, extra: Partial<Quirk>) => ({ id, ...extra }) as Quirk;
const ledger = [
  entry("cold-start", { intermittent: "only the first call after a start" }),
  entry("fixture-only", { chains: ["fixture"] }),
  entry("everywhere", {}),
  entry("both-chains", { chains: ["fixture", "regtest"] }),
];

const EMU = "lightwalletd";
const REAL = "lightwalletd v0.5.4 (real)";
const emulated = side(
  "fixture",
  [build(EMU, "lightwalletd", "v0.5.4", true), build("zebrad-builtin", "zebrad", "HEAD 1c9b245", true)],
  [
    check("same", [[EMU, "pass"]]),
    check("same-known", [[EMU, "known", "everywhere"]]),
    check("cold", [[EMU, "pass"]]),
    check("chain-bound", [[EMU, "known", "fixture-only"]]),
    check("other-entry", [[EMU, "known", "everywhere"]]),
    check("new", [[EMU, "pass"]]),
    check("on-both-chains", [[EMU, "pass"]]),
    check("emulated-only", [[EMU, "pass"]]),
  ],
  { [EMU]: figures(3, 30) },
);
const real = side(
  "regtest",
  [build(REAL, "lightwalletd", "v0.5.4", false), build("zebrad 7.0.0 (real)", "zebrad", "7.0.0", false)],
  [
    check("same", [[REAL, "pass"]]),
    check("same-known", [[REAL, "known", "everywhere"]]),
    check("cold", [[REAL, "known", "cold-start"]]),
    check("chain-bound", [[REAL, "pass"]]),
    check("other-entry", [[REAL, "pass"]]),
    check("new", [[REAL, "new"]]),
    check("on-both-chains", [[REAL, "known", "both-chains"]]),
    check("emulated-only", []),
  ],
  { [REAL]: figures(5, 14) },
);

test("each real build is paired with the emulated build of its implementation: the same version, else the only one, else the nearest below", () => {
  expect(pairBuilds(emulated.builds, real.builds)).toEqual([
    { real: REAL, emulated: EMU },
    { real: "zebrad 7.0.0 (real)", emulated: "zebrad-builtin" },
  ]);
  const zainos = [build("zaino-0.9.0", "zaino", "0.9.0", true), build("zaino-0.10.1", "zaino", "0.10.1", true)];
  expect(pairBuilds(zainos, [build("z11", "zaino", "0.11.0", false), build("z9", "zaino", "0.9.0", false), build("zt", "ztreamer", "v0.1.0", false)])).toEqual([
    { real: "z11", emulated: "zaino-0.10.1" },
    { real: "z9", emulated: "zaino-0.9.0" },
  ]);
});

test("same outcome and entries are faithful; a difference is explained only by an intermittent or chain-bound entry on one side, never a new outcome", () => {
  const [lwd] = scenarioFidelities(emulated, real, ledger);
  expect(lwd!.pair).toEqual({ real: REAL, emulated: EMU });
  expect(lwd!.totals).toEqual({ checks: 7, faithful: 2, differ: 5, explained: 2, unexplained: 3, oneSided: 1 });
  const byCheck = Object.fromEntries(lwd!.differences.map((d) => [d.check, d.explainedBy]));
  expect(byCheck).toEqual({
    cold: ["cold-start"],
    "chain-bound": ["fixture-only"],
    "other-entry": null,
    new: null,
    "on-both-chains": null,
  });
  expect(lwd!.differences.find((d) => d.check === "cold")).toMatchObject({
    scenario: "s",
    step: 1,
    caseId: "GetLatestBlock/scenario.s.cold",
    real: { outcome: "known", quirks: ["cold-start"] },
    emulated: { outcome: "pass", quirks: [] },
  });
});

test("tip following is each side's figures for the paired builds, and the terminal lines name both sides of every difference", () => {
  const [lwd, zebrad] = scenarioFidelities(emulated, real, ledger);
  expect(lwd!.tipFollowing.blocks).toEqual({ emulated: figures(3, 30), real: figures(5, 14) });
  expect(zebrad!.tipFollowing.blocks).toEqual({ emulated: null, real: null });
  const lines = renderScenarioFidelity(lwd!);
  expect(lines[0]).toContain("2/7 checks faithful, 5 differ (2 explained, 3 unexplained)");
  expect(lines[1]).toMatch(/emulated p50 3 ms, p99 30 ms +real p50 5 ms, p99 14 ms/);
  expect(lines.find((l) => l.includes(" new "))).toMatch(/UNEXPLAINED s step 1 new .*real new, emulated pass$/);
});
