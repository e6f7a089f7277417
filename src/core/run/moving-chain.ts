// A run on a chain that grows. A case is asked of the builds and of the node at about the
// same moment, but a new block may land between those answers, and an indexer serves a
// block some time after its node accepted it (lightwalletd polls its node). What that
// movement makes is no divergence of the build: a case that diverged on a chain that has
// moved since the run began is asked again, once every build it asks has reached the
// node's tip, and its verdict is the one of an attempt the chain held still through. The
// result says it was re-asked and why, in every report. How long each build took to reach
// the node's tip is measured and reported as its lag, never filed as a finding.
// On a chain that holds still nothing here asks anything more than one tip per diverging case.

import type { Build } from "../targets/config.js";
import type { CaseResult, Reasked } from "../results/result.js";
import type { PlannedCase } from "./plan.js";

export interface ChainTip {
  height: number;
  /** Display-order hash of the block at that height. */
  hash: string;
}

/** How a run reads tips: the node's, and a build's (undefined: it would not say). */
export interface TipReader {
  node(): Promise<ChainTip | undefined>;
  build(b: Build): Promise<ChainTip | undefined>;
}

export interface MotionOptions {
  tips: TipReader;
  /** The node's tip when the run planned its cases. */
  startTip: ChainTip;
  /** How long a build may take to reach the node's tip before the case is asked anyway. */
  settleMs: number;
  /** Attempts after the first, at most. */
  retries: number;
  /** Tip polls while waiting for a build. */
  pollMs?: number;
  /**
   * The case planned again with the chain's tip-relative anchors at `tip` (`${tip+1}` is a
   * height past the tip only while the tip stands): what a re-ask sends.
   */
  replan?: (pc: PlannedCase, tip: ChainTip) => PlannedCase;
}

/** Per build: how long it took to serve the node's tip, each time the run waited for it. */
export type LagSamples = Map<string, number[]>;

/**
 * The tip the run's builds were last seen to serve together: the start's, then the one a
 * re-asked case held still at. A case asked after they were seen there and diverging while
 * the node is still there is judged as it is: one block costs one wait, not one per
 * diverging case after it.
 */
export interface SettledTip {
  tip: ChainTip;
  /**
   * Since when (performance.now()) the builds' answers at `tip` are taken as they are: they
   * were seen serving it, or waited for there as long as settleMs allows. A case asked
   * before that may hold an answer from a build still behind, whoever settled the tip since.
   */
  at: number;
  /** Builds that have said their tip during the run: one that does not answer a tip read now is slow, not unable. */
  said: Set<string>;
}

/**
 * The run's settled state before its first case: the start tip counts as served together
 * from the start only when every build that says its tip serves it; otherwise the first
 * diverging case waits for them.
 */
export async function settledAtStart(builds: readonly Build[], m: MotionOptions): Promise<SettledTip> {
  const said = new Set<string>();
  const tips = await Promise.all(
    builds.map(async (b) => {
      const t = await m.tips.build(b).catch(() => undefined);
      if (t !== undefined) said.add(b.name);
      return t;
    }),
  );
  const served = tips.every((t) => t === undefined || t.height >= m.startTip.height);
  return { tip: m.startTip, at: served ? 0 : Number.POSITIVE_INFINITY, said };
}

const sameTip = (a: ChainTip | undefined, b: ChainTip | undefined) => a !== undefined && b !== undefined && a.height === b.height && a.hash === b.hash;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until every build serves at least the node's tip (or settleMs passes); records each
 * one's wait. Returns the builds still behind when it stopped waiting.
 */
async function settle(builds: readonly Build[], tip: ChainTip, m: MotionOptions, lag: LagSamples, said: Set<string>, signal?: AbortSignal): Promise<string[]> {
  const t0 = performance.now();
  const behind = await Promise.all(
    builds.map(async (b): Promise<string | undefined> => {
      for (;;) {
        const t = await m.tips.build(b).catch(() => undefined);
        // A build that will not say its tip is not waited for: its answers speak for it. One
        // that has said it before and does not now (a tip read past its short deadline on a
        // busy machine) is waited for like any other.
        if (t === undefined && !said.has(b.name)) return undefined;
        if (t !== undefined) said.add(b.name);
        if (t !== undefined && t.height >= tip.height) {
          const samples = lag.get(b.name) ?? [];
          samples.push(Math.round(performance.now() - t0));
          lag.set(b.name, samples);
          return undefined;
        }
        if (performance.now() - t0 > m.settleMs || signal?.aborted) return b.name;
        await pause(m.pollMs ?? 100);
      }
    }),
  );
  return behind.filter((n): n is string => n !== undefined);
}

/**
 * Runs one case (`attempt`, first as planned) and, when it diverged on a chain that has
 * moved since the run began, asks it again after the builds caught up (`attempt(tip)`: at
 * the node's tip they reached), until an attempt the chain held still through or `retries`
 * more attempts. Undefined when an attempt was interrupted. `replans`: whether the case,
 * planned at the run's start, asks something else at `tip` (a tip-relative request): then
 * it is asked again even at a tip the builds were already seen to serve together.
 */
export async function onMovingChain(
  attempt: (tip?: ChainTip) => Promise<CaseResult | undefined>,
  builds: readonly Build[],
  m: MotionOptions,
  lag: LagSamples,
  signal: AbortSignal | undefined,
  settled: SettledTip,
  replans: (tip: ChainTip) => boolean = () => false,
): Promise<CaseResult | undefined> {
  const askedAt = performance.now();
  const first = await attempt();
  // A divergence the ledger knows is the build's own, however the chain stands.
  if (!first || first.skipped || !first.divergences.some((d) => d.quirk === null)) return first;
  const now = await m.tips.node().catch(() => undefined);
  if (now === undefined) return first;
  const stalePlan = replans(now);
  if (sameTip(now, settled.tip) && askedAt >= settled.at && !stalePlan) return first;
  const from = stalePlan ? m.startTip : settled.tip;
  let result = first;
  let attempts = 1;
  let stillMoving = true;
  let tip = now;
  let behind: string[] = [];
  while (attempts <= m.retries && !signal?.aborted) {
    behind = await settle(builds, tip, m, lag, settled.said, signal);
    const settledAt = performance.now();
    const again = await attempt(tip);
    if (!again) return undefined;
    attempts++;
    const after = await m.tips.node().catch(() => undefined);
    result = again;
    stillMoving = !sameTip(tip, after);
    // Another case may have settled this tip already, from an earlier moment: that one stands.
    if (!stillMoving && !(sameTip(tip, settled.tip) && settled.at <= settledAt)) {
      settled.tip = tip;
      settled.at = settledAt;
    }
    if (!stillMoving || again.divergences.length === 0 || after === undefined) break;
    tip = after;
  }
  const firstNew = first.divergences.filter((d) => d.quirk === null).length;
  const because = sameTip(from, now)
    ? `the case diverged before its builds were seen serving the node's tip (height ${now.height}); asked again once they served it`
    : `the chain moved from height ${from.height} to ${now.height} during the run, and the case diverged; asked again once its builds served the node's tip`;
  const reasked: Reasked = {
    because,
    attempts,
    firstDivergences: firstNew,
    stillMoving,
    ...(behind.length > 0 ? { behind } : {}),
  };
  return stillMoving ? unsettled({ ...result, reasked }) : { ...result, reasked };
}

/**
 * A case the chain moved through on every attempt has no answer taken at one tip: what
 * still differs was not earned by the build, and no pass either. Its builds with
 * unexplained differences could not be checked (exit 3, never 1), and those differences
 * stay in the result under `reasked.unsettled` for a reader to see.
 */
function unsettled(r: CaseResult & { reasked: Reasked }): CaseResult {
  const open = r.divergences.filter((d) => d.quirk === null);
  if (open.length === 0) return r;
  const builds = new Set(open.map((d) => d.build));
  const reason = `the chain moved during each of its ${r.reasked.attempts} attempts: no answer was taken at one tip to compare`;
  return {
    ...r,
    divergences: r.divergences.filter((d) => d.quirk !== null),
    outcomes: r.outcomes?.map((o) => (builds.has(o.build) ? { build: o.build, outcome: "unchecked", cause: "chain", reason } : o)),
    reasked: { ...r.reasked, unsettled: open },
  };
}

/** Lag figures per build: samples, median and worst, in milliseconds. */
export function lagFigures(lag: LagSamples): Record<string, { samples: number; p50Ms: number; maxMs: number }> {
  return Object.fromEntries(
    [...lag].map(([name, xs]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return [name, { samples: sorted.length, p50Ms: sorted[Math.floor((sorted.length - 1) / 2)]!, maxMs: sorted[sorted.length - 1]! }];
    }),
  );
}
