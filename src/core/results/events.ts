// The one event stream of a run. Reporters subscribe to it and never talk to servers;
// the runner emits it and never knows how results are shown.

import type { CaseResult } from "./result.js";

export interface BuildInfo {
  name: string;
  implementation: string;
  version?: string;
  protocolVersion?: string;
  emulated: boolean;
  profile?: string;
  /** Endpoints without credentials. */
  grpc?: string;
  jsonrpc?: string;
}

/** What one server said to the first call of the run. */
export interface Contact {
  name: string;
  transport: "grpc" | "jsonrpc";
  reached: boolean;
  /** The chain name the server reports ("main", "test", "regtest"). */
  chainName?: string;
  /** Why the server was not reached, or did not say its chain. */
  detail?: string;
  ms: number;
}

export interface Preflight {
  builds: Contact[];
  oracle?: Contact;
  /** Why the run should not go on; empty when all is well. */
  problems: string[];
  /** The run went on despite problems (--force). */
  forced: boolean;
}

export interface RunSummary {
  cases: number;
  skipped: number;
  verdicts: Record<string, number>;
  divergences: number;
  newDivergences: number;
  known: number;
  /** Ledger entries that matched nothing in this run, or no longer show for a build. */
  stale: { quirk: string; reason: string }[];
  expired: { quirk: string; expires: string }[];
  /** With --golden: answers that changed since they were recorded, and answers with no golden. */
  drifted?: number;
  unrecorded?: number;
  durationMs: number;
}

export type RunEvent =
  | {
    type: "run-start";
    schemaVersion: number;
    tool: { name: "zconform"; version: string };
    startedAt: string;
    chain: string;
    builds: BuildInfo[];
    oracle?: string;
    cases: number;
    shard?: { index: number; count: number };
    preflight?: Preflight;
  }
  /** `done` counts completions; `index` is the case's place in the plan (reports list cases in plan order). */
  | { type: "case-result"; result: CaseResult; done: number; total: number; index: number }
  | { type: "run-end"; summary: RunSummary; partial: boolean; finishedAt: string; exitCode: number };

export type Reporter = {
  onEvent(event: RunEvent): void;
  /** Called once after run-end (or after an interruption): write files, flush. */
  finish(): Promise<void>;
};
