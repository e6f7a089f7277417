// Scenario fidelity: the same scenarios on the fixture (the emulated profiles, timing scale
// 1) and on real servers, compared per scenario, check and real build. Each side of a cell
// is the build's outcome and the ledger entries its divergences were filed under. Equal
// outcome and equal entries are faithful; anything else is a difference, explained when
// every entry on one side only is one the ledger says shows only sometimes or somewhere:
// `intermittent` (the real server's cold start or a race, which the emulation does not
// reproduce), or `chains` naming one side's chain and not the other's (the fixture's chain
// and zebrad's regtest chain hold different transactions); a "new" or unchecked side is
// never explained. A check only one of the two builds took part in (the emulated zebrad's
// JSON-RPC: on the real network zebrad's JSON-RPC is the oracle, not a build) is not
// compared. Tip following is put side by side as figures, never judged.

import type { BuildInfo } from "../../core/results/events.js";
import type { OutcomeKind } from "../../core/results/outcome.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import type { CheckEntry, ScenarioDocument, TipFigures } from "../scenario/document.js";

/** What the comparison reads of a scenario report. */
export type ScenarioSide = Pick<ScenarioDocument, "chain" | "builds" | "scenarios" | "tipFollowing">;

export interface ScenarioPair {
  real: string;
  emulated: string;
}

/** One build's result on one check: its outcome and the ledger entries its divergences were filed under, sorted. */
export interface CheckSide {
  outcome: OutcomeKind;
  quirks: string[];
}

export interface ScenarioFidelityDifference {
  scenario: string;
  step: number;
  check: string;
  caseId: string;
  emulated: CheckSide;
  real: CheckSide;
  /** The intermittent or chain-bound entries that account for the difference; null when it is not explained. */
  explainedBy: string[] | null;
}

export interface TipSideBySide {
  emulated: TipFigures | null;
  real: TipFigures | null;
}

export interface ScenarioFidelity {
  pair: ScenarioPair;
  /** checks: both builds took part; oneSided: only one did (not compared). */
  totals: { checks: number; faithful: number; differ: number; explained: number; unexplained: number; oneSided: number };
  differences: ScenarioFidelityDifference[];
  tipFollowing: { blocks: TipSideBySide; reorgs: TipSideBySide };
}

const bare = (v: string | undefined) => (v ?? "").replace(/^v/, "");

/**
 * The emulated build standing for each real one: same implementation, the same version if
 * one has it, else the only one of that implementation, else the nearest version below.
 */
export function pairBuilds(emulated: readonly BuildInfo[], real: readonly BuildInfo[]): ScenarioPair[] {
  return real.flatMap((r) => {
    const same = emulated.filter((e) => e.implementation === r.implementation);
    const byVersion = (a: BuildInfo, b: BuildInfo) => bare(a.version).localeCompare(bare(b.version), undefined, { numeric: true });
    const below = same.filter((e) => byVersion(e, r) <= 0).sort(byVersion);
    const pick = same.find((e) => bare(e.version) === bare(r.version)) ?? (same.length === 1 ? same[0] : below[below.length - 1]);
    return pick ? [{ real: r.name, emulated: pick.name }] : [];
  });
}

function sideOf(check: CheckEntry | undefined, build: string): CheckSide | undefined {
  const b = check?.builds.find((x) => x.build === build);
  if (!check || !b) return undefined;
  const quirks = check.divergences.filter((d) => d.build === build && d.quirk !== null).map((d) => d.quirk!);
  return { outcome: b.outcome, quirks: [...new Set(quirks)].sort() };
}

const sameSide = (a: CheckSide, b: CheckSide) => a.outcome === b.outcome && a.quirks.join() === b.quirks.join();

/** The chains the two sides ran on. */
export interface SideChains {
  emulated: string;
  real: string;
}

/** Whether the ledger says the entry may show on one side and not the other. */
function showsOnlySometimes(q: Quirk | undefined, chains: SideChains): boolean {
  if (!q) return false;
  if (q.intermittent !== undefined) return true;
  return q.chains !== undefined && q.chains.includes(chains.emulated) !== q.chains.includes(chains.real);
}

/** The difference's explanation: every entry on one side only shows only sometimes or somewhere, and neither side is new or unchecked. */
export function explanation(emulated: CheckSide, real: CheckSide, ledger: readonly Quirk[], chains: SideChains): string[] | null {
  const judged = (s: CheckSide) => s.outcome === "pass" || s.outcome === "known";
  if (!judged(emulated) || !judged(real)) return null;
  const involved = [...emulated.quirks.filter((q) => !real.quirks.includes(q)), ...real.quirks.filter((q) => !emulated.quirks.includes(q))];
  if (involved.length === 0) return null;
  return involved.every((id) =>
    showsOnlySometimes(
      ledger.find((q) => q.id === id),
      chains,
    ),
  )
    ? [...new Set(involved)].sort()
    : null;
}

/** Every check of a report, keyed by scenario, step and check id. */
function checksOf(side: ScenarioSide): Map<string, { scenario: string; step: number; check: CheckEntry }> {
  const m = new Map<string, { scenario: string; step: number; check: CheckEntry }>();
  for (const s of side.scenarios)
    for (const st of s.steps) for (const c of st.checks) m.set(`${s.id}\u0000${st.index}\u0000${c.id}`, { scenario: s.id, step: st.index, check: c });
  return m;
}

export function scenarioFidelityOf(pair: ScenarioPair, emulated: ScenarioSide, real: ScenarioSide, ledger: readonly Quirk[]): ScenarioFidelity {
  const e = checksOf(emulated);
  const r = checksOf(real);
  const keys = [...r.keys(), ...[...e.keys()].filter((k) => !r.has(k))];
  const chains = { emulated: emulated.chain, real: real.chain };
  const differences: ScenarioFidelityDifference[] = [];
  let checks = 0;
  let oneSided = 0;
  for (const k of keys) {
    const at = (r.get(k) ?? e.get(k))!;
    const es = sideOf(e.get(k)?.check, pair.emulated);
    const rs = sideOf(r.get(k)?.check, pair.real);
    if (!es || !rs) {
      if (es || rs) oneSided++;
      continue;
    }
    checks++;
    if (sameSide(es, rs)) continue;
    differences.push({
      scenario: at.scenario,
      step: at.step,
      check: at.check.id,
      caseId: at.check.caseId,
      emulated: es,
      real: rs,
      explainedBy: explanation(es, rs, ledger, chains),
    });
  }
  const explained = differences.filter((d) => d.explainedBy !== null).length;
  const tips = (side: ScenarioSide, build: string) => side.tipFollowing.find((t) => t.build === build);
  return {
    pair,
    totals: { checks, faithful: checks - differences.length, differ: differences.length, explained, unexplained: differences.length - explained, oneSided },
    differences,
    tipFollowing: {
      blocks: { emulated: tips(emulated, pair.emulated)?.blocks ?? null, real: tips(real, pair.real)?.blocks ?? null },
      reorgs: { emulated: tips(emulated, pair.emulated)?.reorgs ?? null, real: tips(real, pair.real)?.reorgs ?? null },
    },
  };
}

/** Every real build of the real report against the emulated build that stands for it. */
export function scenarioFidelities(emulated: ScenarioSide, real: ScenarioSide, ledger: readonly Quirk[]): ScenarioFidelity[] {
  return pairBuilds(emulated.builds, real.builds).map((p) => scenarioFidelityOf(p, emulated, real, ledger));
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${Math.round(v)} ms`);
const sideText = (s: CheckSide) => (s.quirks.length ? `${s.outcome} (${s.quirks.join(", ")})` : s.outcome);

/** The terminal table: per pair its totals and tip following side by side, then each difference with both sides. */
export function renderScenarioFidelity(f: ScenarioFidelity): string[] {
  const t = f.totals;
  const tip = (label: string, s: TipSideBySide) =>
    `  ${label.padEnd(7)} emulated p50 ${ms(s.emulated?.p50Ms)}, p99 ${ms(s.emulated?.p99Ms)}   real p50 ${ms(s.real?.p50Ms)}, p99 ${ms(s.real?.p99Ms)}`;
  return [
    `${f.pair.real} ← emulated ${f.pair.emulated}: ${t.faithful}/${t.checks} checks faithful, ${t.differ} differ (${t.explained} explained, ${t.unexplained} unexplained)${t.oneSided ? `; ${t.oneSided} checks only one of them took part in` : ""}`,
    tip("blocks", f.tipFollowing.blocks),
    tip("reorgs", f.tipFollowing.reorgs),
    ...f.differences.map(
      (d) =>
        `  ${d.explainedBy ? "explained" : "UNEXPLAINED"} ${d.scenario} step ${d.step} ${d.check} (${d.caseId}): real ${sideText(d.real)}, emulated ${sideText(d.emulated)}` +
        (d.explainedBy ? ` — ledger: ${d.explainedBy.join(", ")} (shows only sometimes or on some chains)` : ""),
    ),
  ];
}
