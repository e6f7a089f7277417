// What a conformance suite knows before anything runs, because jest wants every test
// declared synchronously: the corpus (filtered), the ledger, and — when it can be known
// without starting anything — which builds answer which transport, so that each (case,
// build) pair gets its own test.

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Case } from "../core/corpus/case.js";
import { loadCorpus } from "../core/corpus/load.js";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { selectCases, type CaseFilter } from "../cli/select.js";
import { fixtureBuildShape, PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { loadConfig, type RunConfig } from "../core/targets/config.js";
import type { Transport } from "../core/targets/observation.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export type ConfigSource = string | RunConfig | (() => RunConfig | Promise<RunConfig>);

export interface SuitePlanOptions {
  config?: ConfigSource;
  fixture?: { profiles?: readonly ProfileName[]; chain?: string };
  cases?: string;
  /** A ledger file; false for none; default <cases>/quirks.yaml when it exists. */
  ledger?: string | false;
  caseFilter?: CaseFilter | ((c: Case) => boolean);
  /** Build names, when `config` is a factory: one test per case and build instead of per case. */
  builds?: readonly string[];
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
  const ledgerPath = o.ledger === false ? undefined : o.ledger ?? join(casesDir, "quirks.yaml");
  if (typeof o.ledger === "string" && !existsSync(o.ledger)) throw new Error(`conformanceSuite: ledger file not found: ${o.ledger}`);
  const ledger = ledgerPath && existsSync(ledgerPath) ? loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) : [];
  const plan: SuitePlan = { casesDir, cases, ledger };
  if (o.fixture) {
    plan.builds = (o.fixture.profiles ?? PROFILE_NAMES).map(fixtureBuild);
  } else if (typeof o.config === "string") {
    plan.config = loadConfig(o.config, lightwalletProtocol);
    plan.builds = configBuilds(plan.config);
  } else if (typeof o.config === "object") {
    plan.config = o.config;
    plan.builds = configBuilds(o.config);
  } else if (o.builds) {
    plan.builds = o.builds.map((name) => ({ name }));
  }
  return plan;
}
