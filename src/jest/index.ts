// zconform as a jest suite, for indexer authors who run their tests with jest:
//
//   import { conformanceSuite } from "zconform/jest";
//   conformanceSuite({ config: "zconform.config.yaml" });
//
// declares a describe per rpc or JSON-RPC method and a test per case and build. Jest
// wants tests declared synchronously, so the corpus and ledger are read at once, and so
// is which cases the run will not send (those tests are skipped); the whole run happens
// once, in beforeAll, and each test reads its own result. A test fails on a new
// divergence (known quirks pass and are listed in one note at the end), and a dedicated
// test fails on expired ledger entries and, unless allowed, stale ones. In strict mode an
// answer measured against nothing fails too, and so does a run without an oracle.

import { loadChainProfile, type ChainProfile } from "../core/corpus/chain-profile.js";
import type { Case } from "../core/corpus/case.js";
import { inputsFromFixture, type RunInputs } from "../cli/inputs.js";
import type { Reporter, RunSummary } from "../core/results/events.js";
import type { CaseResult } from "../core/results/result.js";
import { runSession } from "../core/run/session.js";
import type { RunConfig } from "../core/targets/config.js";
import type { Transport } from "../core/targets/observation.js";
import { conformanceError, failureOf, ledgerProblems, notSentOf, uncheckedOf, unjudgedOf } from "./format.js";
import { asks, planSuite, type DeclaredBuild, type SuitePlanOptions } from "./plan.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export type { ConfigSource } from "./plan.js";

export interface ConformanceSuiteOptions extends SuitePlanOptions {
  /** Title of the outer describe. */
  name?: string;
  /** Stale ledger entries do not fail the ledger test. */
  allowStale?: boolean;
  /**
   * Fail what was measured against nothing: an unjudged answer (an `oracle` case with no
   * oracle, an `agree` case with one build) fails its test, and a run without an oracle
   * fails a test of its own. The CLI's `--strict`.
   */
  strict?: boolean;
  /** Go on when the preflight would stop the run (it still reports what it found). The CLI's `--force`. */
  force?: boolean;
  /** How long the whole run may take (beforeAll's timeout). Default 10 minutes. */
  timeoutMs?: number;
  /** More reporters fed by the run, e.g. htmlReporter("reports/conformance.html"). */
  reporters?: Reporter[];
}

interface Outcome {
  results: Map<string, CaseResult>;
  summary: RunSummary;
  /** Whether the run had an oracle to measure answers against. */
  oracle: boolean;
}

const silent = { stdout: () => {}, stderr: () => {} };

function groupTitle(transport: Transport, method: string): string {
  return `${transport === "grpc" ? "gRPC" : "JSON-RPC"} ${method}`;
}

/** Unless strict, answers with nothing to measure them against pass their tests: they are listed here. */
function unjudgedNote(results: Iterable<CaseResult>): string | undefined {
  const pairs = [...results].flatMap((r) =>
    (r.outcomes ?? []).filter((o) => o.outcome === "unjudged").map((o) => `${r.caseId} [${o.build}]: ${o.reason ?? "nothing to compare with"}`),
  );
  if (pairs.length === 0) return undefined;
  return `zconform: ${pairs.length} case/build pair(s) unjudged (answered, but nothing to measure them against; not counted as conforming):\n  ${pairs.slice(0, 20).join("\n  ")}${pairs.length > 20 ? "\n  …" : ""}`;
}

function notSentNote(notSent: ReadonlyMap<string, string>): string | undefined {
  if (notSent.size === 0) return undefined;
  const lines = [...notSent].slice(0, 20).map(([id, why]) => `${id}: ${why}`);
  return `zconform: ${notSent.size} case(s) not sent, their tests skipped:\n  ${lines.join("\n  ")}${notSent.size > 20 ? "\n  …" : ""}`;
}

function knownNote(results: Iterable<CaseResult>): string | undefined {
  const byQuirk = new Map<string, Set<string>>();
  for (const r of results)
    for (const d of r.divergences) {
      if (d.quirk === null) continue;
      const set = byQuirk.get(d.quirk) ?? new Set<string>();
      set.add(`${r.caseId} [${d.build}]`);
      byQuirk.set(d.quirk, set);
    }
  if (byQuirk.size === 0) return undefined;
  const lines = [...byQuirk].map(([q, where]) => `  ${q}: ${where.size} case(s) — ${[...where].slice(0, 4).join(", ")}${where.size > 4 ? ", …" : ""}`);
  return `zconform: known quirks (ledger) passed in ${[...byQuirk.values()].reduce((s, w) => s + w.size, 0)} case/build pair(s):\n${lines.join("\n")}`;
}

export function conformanceSuite(o: ConformanceSuiteOptions): void {
  if (typeof describe !== "function" || typeof beforeAll !== "function") {
    throw new Error("conformanceSuite() declares jest tests: call it at the top level of a jest test file");
  }
  const plan = planSuite(o);
  let outcome: Outcome | undefined;
  let network: RunInputs["network"];

  const run = async () => {
    let config: RunConfig;
    let chain: ChainProfile;
    let allowBroadcast = false;
    if (o.fixture) {
      // The fixture's servers run in a process of their own, as the demo's do: whatever
      // they still hold when the suite ends goes with that process, not with jest's.
      const inputs = await inputsFromFixture(
        {
          cases: plan.casesDir,
          ...(o.fixture.chain ? { chainFile: o.fixture.chain } : {}),
          ...(o.fixture.profiles ? { profiles: [...o.fixture.profiles] } : {}),
          ...(typeof o.ledger === "string" ? { ledger: o.ledger } : {}),
          ownProcess: true,
        },
        silent,
      );
      network = inputs.network;
      config = inputs.config;
      chain = inputs.chain;
      allowBroadcast = inputs.allowBroadcast === true;
    } else {
      config = plan.config ?? (await (o.config as () => RunConfig | Promise<RunConfig>)());
      chain = plan.chain ?? loadChainProfile(plan.casesDir, config.chain);
    }
    const session = await runSession({
      config,
      cases: plan.cases,
      chain,
      ledger: plan.ledger,
      reporters: o.reporters ?? [],
      protocol: lightwalletProtocol,
      allowStale: o.allowStale ?? false,
      allowBroadcast,
      force: o.force === true,
    });
    outcome = { results: new Map(session.results.map((r) => [r.caseId, r])), summary: session.summary, oracle: config.oracle !== undefined };
  };

  const resultOf = (c: Case): CaseResult => {
    if (!outcome) throw conformanceError("the run did not complete (see the error of beforeAll)");
    const r = outcome.results.get(c.id);
    if (!r) throw conformanceError(`${c.id} has no result: the run was interrupted`);
    return r;
  };

  const check = (c: Case, build: DeclaredBuild | undefined) => {
    const r = resultOf(c);
    const notSent = notSentOf(r);
    if (notSent) throw conformanceError(notSent);
    if (build && !r.answers.some((a) => a.side === build.name)) {
      throw conformanceError(`${c.id}: ${build.name} gave no answer, although it was expected to serve ${c.transport}`);
    }
    const sides = build ? [build.name] : r.answers.map((a) => a.side);
    const unchecked = uncheckedOf(r, sides);
    if (unchecked) throw conformanceError(unchecked);
    const failure = failureOf(r, sides);
    if (failure) throw conformanceError(failure);
    const unjudged = o.strict ? unjudgedOf(r, sides) : undefined;
    if (unjudged) throw conformanceError(unjudged);
  };

  describe(o.name ?? "zconform conformance", () => {
    beforeAll(run, o.timeoutMs ?? 600_000);
    afterAll(async () => {
      const note = outcome && knownNote(outcome.results.values());
      if (note) console.info(note);
      const unjudged = outcome && !o.strict && unjudgedNote(outcome.results.values());
      if (unjudged) console.info(unjudged);
      const notSent = notSentNote(plan.notSent);
      if (notSent) console.info(notSent);
      await network?.close();
    });

    const groups = new Map<string, Case[]>();
    for (const c of plan.cases) {
      const key = groupTitle(c.transport, c.method);
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    for (const [title, cases] of groups) {
      describe(title, () => {
        for (const c of cases) {
          const declare = plan.notSent.has(c.id) ? test.skip : test;
          if (!plan.builds) {
            declare(c.title ? `${c.id} — ${c.title}` : c.id, () => check(c, undefined));
            continue;
          }
          for (const b of plan.builds.filter((x) => asks(x, c))) {
            declare(`${c.id} [${b.name}]`, () => check(c, b));
          }
        }
      });
    }

    test("every answer was checked by a test", () => {
      if (!outcome) return;
      const byName = new Map((plan.builds ?? []).map((b) => [b.name, b]));
      const cases = new Map(plan.cases.map((c) => [c.id, c]));
      const tested = (caseId: string, side: string) => {
        if (plan.notSent.has(caseId)) return false;
        if (!plan.builds) return true;
        const b = byName.get(side);
        return b !== undefined && asks(b, cases.get(caseId)!);
      };
      const unchecked = [...outcome.results.values()].flatMap((r) => r.answers.filter((a) => !tested(r.caseId, a.side)).map((a) => `${r.caseId} [${a.side}]`));
      if (unchecked.length > 0)
        throw conformanceError(
          `answers without a test (a build was asked a case it was not expected to serve, or one foreseen as not sent was sent): ${unchecked.slice(0, 10).join(", ")}`,
        );
    });

    if (o.strict) {
      test("strict: the run has an oracle", () => {
        if (!outcome) throw conformanceError("the run did not complete (see the error of beforeAll)");
        if (!outcome.oracle)
          throw conformanceError(
            "strict: the run has no oracle, so no answer was measured against the ground truth: give the config an oracle (a Zebra JSON-RPC endpoint)",
          );
      });
    }

    test("ledger: no expired or stale entries", () => {
      if (!outcome) throw conformanceError("the run did not complete (see the error of beforeAll)");
      const problems = ledgerProblems(outcome.summary, o.allowStale ?? false);
      if (problems) throw conformanceError(problems);
    });
  });
}
