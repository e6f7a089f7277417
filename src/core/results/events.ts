// The one event stream of a run. Reporters subscribe to it and never talk to servers;
// the runner emits it and never knows how results are shown.

import type { CaseResult } from "./result.js";
import type { OutcomeKind } from "./outcome.js";
import type { UncheckedSide } from "./unchecked.js";
import type { NodeIdentity } from "../targets/config.js";
import type { RunCondition } from "../targets/conditions.js";
import type { Envelope } from "./envelope.js";

export type { RunCondition };

/**
 * How the run was made, where it weakens what the results mean: certificate checks
 * off, no oracle (oracle cases are unjudged), credentials sent in clear over the network.
 */
export interface BuildInfo {
  name: string;
  implementation: string;
  version?: string;
  /** Where the version came from: the config, the server's own report, or nobody (then it is absent). */
  versionSource?: "config" | "server" | "unknown";
  /** The node behind it, from the config or from what the server reports. */
  node?: NodeIdentity;
  protocolVersion?: string;
  emulated: boolean;
  profile?: string;
  /** A real server started by zconform from a pinned install (real-servers.yaml). */
  pin?: string;
  /** Endpoints without credentials. */
  grpc?: string;
  jsonrpc?: string;
  /** The node it is measured against when that is not the run's oracle: its name and endpoint. */
  oracle?: string;
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
  /** Case × build pairs by outcome (pass, known, new, unchecked, unjudged). */
  outcomes: Record<OutcomeKind, number>;
  /** Builds, and the oracle, that could not be checked on some cases: one entry each. */
  unchecked: UncheckedSide[];
  divergences: number;
  newDivergences: number;
  known: number;
  /** Ledger entries that matched nothing in this run, or no longer show for a build. */
  stale: { quirk: string; reason: string }[];
  expired: { quirk: string; expires: string }[];
  /** With --golden: answers that changed since they were recorded, and answers with no golden. */
  drifted?: number;
  unrecorded?: number;
  /** When the chain moved during the run: cases asked again, and each build's lag behind its node (ms). */
  chainMotion?: {
    reasked: number;
    /** Cases the chain moved through on every attempt: their builds with differences could not be checked. */
    unsettled?: number;
    lag: Record<string, { samples: number; p50Ms: number; maxMs: number }>;
  };
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
      conditions: RunCondition[];
      cases: number;
      shard?: { index: number; count: number };
      preflight?: Preflight;
    }
  /** `done` counts completions; `index` is the case's place in the plan (reports list cases in plan order). */
  | { type: "case-result"; result: CaseResult; done: number; total: number; index: number }
  | {
      type: "run-end";
      summary: RunSummary;
      partial: boolean;
      finishedAt: string;
      exitCode: number;
      /** The signal that interrupted the run, when one did. */
      interrupted?: string;
    };

/**
 * What a mode (sweep, latency, wirecost) tells its reporters, as a run does with
 * RunEvent: that it started, on which chain and builds, how far it has got (the mode's
 * own progress record P: the sweep's counters and finished chunks, each latency probe as
 * it ends), and the document it finished with (in the envelope of
 * src/core/results/envelope.ts).
 */
export type ModeEvent<D extends Envelope<string> = Envelope<string>, P = unknown> =
  | { type: "mode-start"; kind: D["kind"]; startedAt: string; chain: string; builds: BuildInfo[] }
  | { type: "mode-progress"; kind: D["kind"]; progress: P }
  | { type: "mode-end"; document: D };

export type Reporter<E = RunEvent> = {
  onEvent(event: E): void;
  /** Called once after run-end (or after an interruption): write files, flush. */
  finish(): Promise<void>;
};
