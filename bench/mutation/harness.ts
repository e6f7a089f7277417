// Runs mutants: the fixture network is started once with injection wrappers, the corpus
// is run with the ledger as `zconform demo` runs it, and a mutant is killed when its
// run shows what the unmutated run does not: a new divergence (no ledger entry explains
// it); a stale entry (the mutant took away a documented quirk, which fails a run too);
// or, for the compact derivations, a divergence from the recorded answers of real
// lightwalletd as well (a third producer, beside the oracle's and the fixture's own).

import { join } from "node:path";
import { loadCorpus } from "../../src/core/corpus/load.js";
import type { Case } from "../../src/core/corpus/case.js";
import { compareObservations } from "../../src/core/diff/compare.js";
import { ledgerFindings } from "../../src/core/ledger/findings.js";
import { loadLedger, type Quirk } from "../../src/core/ledger/quirk.js";
import { rpcOf } from "../../src/core/run/plan.js";
import type { Protocol } from "../../src/core/run/protocol.js";
import { runSession, type SessionResult } from "../../src/core/run/session.js";
import type { CaseResult } from "../../src/core/results/result.js";
import { DEFAULT_LIMITS, type RunConfig } from "../../src/core/targets/config.js";
import { goldenOf, goldenPath, observationOf, readGolden } from "../../src/modes/golden/store.js";
import { fixtureDeadlineMs } from "../../src/zcash/fixture/deadline.js";
import { startFixtureNetwork, type FixtureNetwork } from "../../src/zcash/fixture/network.js";
import { lightwalletProtocol } from "../../src/zcash/protocol.js";
import { fixtureWrappers, injectedProtocol, type Injection } from "./inject.js";
import type { Mutant } from "./mutants.js";

const ROOT = join(import.meta.dirname, "..", "..");
export const CASES = join(ROOT, "cases");
const GOLDEN = join(ROOT, "golden");
/** The real build whose recorded answers also judge the compact derivations. */
const RECORDED = { build: "lightwalletd v0.5.4 (real)", emulatedBy: "lightwalletd" };

export interface Harness {
  cases: Case[];
  ledger: Quirk[];
  /** Entries stale for a build over these results ("entry on build"). */
  stale(results: readonly CaseResult[]): string[];
  /** Runs the cases of these methods with `injection` in place. */
  run(methods: readonly string[], injection: Injection): Promise<SessionResult>;
  close(): Promise<void>;
}

export async function startHarness(o: { cases?: string; ledger?: Quirk[] } = {}): Promise<Harness> {
  let current: Injection = {};
  const protocol: Protocol = injectedProtocol(lightwalletProtocol, () => current);
  const cases = loadCorpus(o.cases ?? CASES, lightwalletProtocol);
  const ledger = o.ledger ?? loadLedger(join(CASES, "quirks.yaml"));
  const network: FixtureNetwork = await startFixtureNetwork({ wrap: fixtureWrappers(() => current) });
  const config: RunConfig = {
    file: "(mutation harness)",
    chain: "fixture",
    oracle: { jsonrpc: { url: network.jsonrpc, auth: { kind: "cookie", cookieFile: network.cookie } }, source: { file: "(mutation harness)", line: 0 } },
    defaults: DEFAULT_LIMITS,
    builds: network.builds({ deadlineMs: await fixtureDeadlineMs(network) }),
  };
  const chain = { name: "fixture", network: network.model.network.name, anchors: network.anchors, dynamic: {} };
  const identities = config.builds.map((b) => ({ name: b.name, implementation: b.implementation, version: b.version, protocolVersion: b.protocolVersion }));
  return {
    cases,
    ledger,
    stale: (results) => ledgerFindings(ledger, results, identities).stale.map((s) => `stale: ${s.quirk} on ${s.build}`),
    async run(methods, injection) {
      current = injection;
      try {
        const selected = cases.filter((c) => methods.includes(c.method));
        return await runSession({ config, cases: selected, chain, ledger, reporters: [], protocol, allowStale: true });
      } finally {
        current = {};
      }
    },
    close: () => network.close(),
  };
}

/** A divergence's identity across runs. */
function key(caseId: string, d: { build?: string; left: string; right: string; path: string; kind: string }): string {
  return [caseId, d.left, d.right, d.path, d.kind].join(" | ");
}

/** Divergences no ledger entry explains. */
export function newDivergences(results: readonly CaseResult[]): string[] {
  return results.flatMap((r) => r.divergences.filter((d) => d.quirk === null).map((d) => key(r.caseId, d)));
}

/** The emulated lightwalletd's answers against the recorded answers of the real one. */
export function recordedDivergences(results: readonly CaseResult[], protocol: Pick<Protocol, "service"> = lightwalletProtocol): string[] {
  return results.flatMap((r) => {
    const a = r.answers.find((x) => x.side === RECORDED.emulatedBy);
    const golden = a && readGolden(goldenPath(GOLDEN, "fixture", RECORDED.build, r.caseId));
    if (!a || !golden) return [];
    const rpc = r.transport === "grpc" ? rpcOf(protocol, r.method) : undefined;
    const cmp = compareObservations(observationOf(golden, r.method), observationOf(goldenOf(r.caseId, a), r.method), {
      left: "recorded",
      right: a.side,
      ...(rpc ? { method: rpc } : {}),
      volatile: r.volatile,
      unordered: r.unordered,
      patch: false,
    });
    return cmp.divergences.map((d) => key(r.caseId, d));
  });
}

export interface Baseline {
  fresh: Set<string>;
  recorded: Set<string>;
  results: CaseResult[];
}

export function baselineOf(run: SessionResult): Baseline {
  return { fresh: new Set(newDivergences(run.results)), recorded: new Set(recordedDivergences(run.results)), results: run.results };
}

export interface MutantOutcome {
  mutant: Mutant;
  killed: boolean;
  /** What the unmutated run does not show: new divergences, stale entries, divergences from recorded answers. */
  evidence: string[];
  /** Ledger entries that explained divergences of the mutated build in its run: a survivor's changes fell under these, or showed nowhere. */
  absorbedBy: string[];
  ms: number;
}

export async function runMutant(h: Harness, m: Mutant, base: Baseline): Promise<MutantOutcome> {
  const t0 = performance.now();
  const run = await h.run(m.methods, m.inject);
  const fresh = newDivergences(run.results).filter((k) => !base.fresh.has(k));
  const recorded = m.surface === "compact" ? recordedDivergences(run.results).filter((k) => !base.recorded.has(k)) : [];
  const before = new Set(h.stale(base.results.filter((r) => m.methods.includes(r.method))));
  const stale = h.stale(run.results).filter((s) => !before.has(s));
  const evidence = [...fresh, ...stale, ...recorded.map((k) => `recorded: ${k}`)];
  const absorbedBy = [
    ...new Set(
      run.results
        .flatMap((r) => r.divergences)
        .filter((d) => d.quirk !== null && (m.build === "compact" || d.build === m.build))
        .map((d) => d.quirk!),
    ),
  ].sort();
  return { mutant: m, killed: evidence.length > 0, evidence, absorbedBy, ms: performance.now() - t0 };
}
