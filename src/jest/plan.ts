// What a conformance suite knows before anything runs, because jest wants every test
// declared synchronously: the corpus (filtered), the ledger, and — when it can be known
// without starting anything — which builds answer which transport, so that each (case,
// build) pair gets its own test, and which cases the run will not send (foresee.ts).

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Case } from "../core/corpus/case.js";
import { loadChainProfile, type ChainProfile } from "../core/corpus/chain-profile.js";
import { loadCorpus } from "../core/corpus/load.js";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { selectCases, type CaseFilter } from "../cli/select.js";
import { fixtureBuildShape, PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { loadConfig, type RunConfig } from "../core/targets/config.js";
import type { Transport } from "../core/targets/observation.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import { fixtureForesight, notSentReason, type Foresight } from "./foresee.js";

export type ConfigSource = string | RunConfig | (() => RunConfig | Promise<RunConfig>);

export interface SuitePlanOptions {
  config?: ConfigSource;
  fixture?: { profiles?: readonly ProfileName[]; chain?: string };
  cases?: string;
  /** A ledger file; false for none; default <cases>/quirks.yaml when it exists. */
  ledger?: string | false;
  caseFilter?: CaseFilter | ((c: Case) => boolean);
  /**
   * The builds, when `config` is a factory: one test per case and build instead of per
   * case. A name, or what is known of the build; its implementation tells which cases it
   * is asked (a case some implementations serve is not a test for the others).
   */
  builds?: readonly (string | DeclaredBuild)[];
  /**
   * The chain profile to plan with, or its name under <cases>/chains/, instead of
   * <cases>/chains/<config.chain>.yaml (ignored with `fixture`). With a factory, naming it
   * lets cases declared for other chains be skipped tests rather than failing ones.
   */
  chain?: ChainProfile | string;
}

export interface DeclaredBuild {
  name: string;
  /** Transports the build serves; undefined = not known before the run (all assumed). */
  transports?: readonly Transport[];
  /** The build's implementation, for cases that only some implementations serve. */
  implementation?: string;
}

/** Whether the run will ask this build this case (the runner's rule, known in advance). */
export function asks(b: DeclaredBuild, c: Case): boolean {
  if (b.transports && !b.transports.includes(c.transport)) return false;
  return c.servedBy === undefined || b.implementation === undefined || c.servedBy.includes(b.implementation);
}

export interface SuitePlan {
  casesDir: string;
  cases: Case[];
  ledger: Quirk[];
  /** Undefined: builds are known only once the factory has run; one test per case then. */
  builds?: DeclaredBuild[];
  /** A config read synchronously (path or object). */
  config?: RunConfig;
  /** The chain profile a config run plans with, when known now (the fixture brings its own). */
  chain?: ChainProfile;
  /** Why the run will not send a case, by case id, where that is known now: those tests are skipped. */
  notSent: Map<string, string>;
}

function fixtureBuild(name: ProfileName): DeclaredBuild {
  return { name, ...fixtureBuildShape(name) };
}

function configBuilds(config: RunConfig): DeclaredBuild[] {
  return config.builds.map((b) => ({
    name: b.name,
    implementation: b.implementation,
    transports: [...(b.grpc ? ["grpc" as const] : []), ...(b.jsonrpc ? ["jsonrpc" as const] : [])],
  }));
}

export function planSuite(o: SuitePlanOptions): SuitePlan {
  if (o.config !== undefined && o.fixture !== undefined) throw new Error("conformanceSuite: give either config or fixture, not both");
  if (o.config === undefined && o.fixture === undefined) throw new Error("conformanceSuite: give config (a file, a RunConfig, or a factory) or fixture");
  const casesDir = o.cases ?? SHIPPED_CASES;
  const all = loadCorpus(casesDir, lightwalletProtocol);
  const f = o.caseFilter;
  const cases = f === undefined ? all : typeof f === "function" ? all.filter(f) : selectCases(all, f);
  const ledgerPath = o.ledger === false ? undefined : (o.ledger ?? join(casesDir, "quirks.yaml"));
  if (typeof o.ledger === "string" && !existsSync(o.ledger)) throw new Error(`conformanceSuite: ledger file not found: ${o.ledger}`);
  const ledger = ledgerPath && existsSync(ledgerPath) ? loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) : [];
  const plan: SuitePlan = { casesDir, cases, ledger, notSent: new Map() };
  if (o.fixture) {
    plan.builds = (o.fixture.profiles ?? PROFILE_NAMES).map(fixtureBuild);
  } else if (typeof o.config === "string") {
    plan.config = loadConfig(o.config, lightwalletProtocol);
    plan.builds = configBuilds(plan.config);
  } else if (typeof o.config === "object") {
    plan.config = o.config;
    plan.builds = configBuilds(o.config);
  } else if (o.builds) {
    plan.builds = o.builds.map((b) => (typeof b === "string" ? { name: b } : b));
  }
  const chainName = typeof o.chain === "string" ? o.chain : plan.config?.chain;
  if (!o.fixture) plan.chain = typeof o.chain === "object" ? o.chain : chainName === undefined ? undefined : loadChainProfile(casesDir, chainName);
  // A suite never sends a valid transaction but to the fixture's synthetic chain.
  const foresight: Foresight = o.fixture
    ? fixtureForesight(o.fixture.chain)
    : {
        allowBroadcast: false,
        ...(plan.chain ? { chain: plan.chain } : {}),
        ...(plan.config ? { oracle: plan.config.oracle !== undefined } : {}),
      };
  for (const c of cases) {
    const reason = notSentReason(c, foresight);
    if (reason !== undefined) plan.notSent.set(c.id, reason);
  }
  return plan;
}
