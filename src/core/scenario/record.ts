// What running a scenario produces: per step, what the action did and how long it took,
// and per check each build's time to converge (or its outcome when it did not); the tip
// events with each build's time to serve them. Reports (src/modes/scenario) read these.

import type { CaseResult } from "../results/result.js";
import type { BuildConvergence } from "./converge.js";
import type { TipId } from "./mover.js";

export interface BuildTime {
  build: string;
  /** ms; null when it did not happen within the deadline. */
  ms: number | null;
}

export type ActionRecord =
  | { kind: "mine"; blocks: number; tips: TipId[] }
  | { kind: "send"; txs: { name: string; txid: string }[] }
  | { kind: "reorg"; depth: number; include: string[]; forkPoint: number; orphaned: string[]; tip: TipId }
  | { kind: "wait"; ms: number }
  /** Each build's time to serve the node's tip. */
  | { kind: "wait-tip"; builds: BuildTime[] }
  | { kind: "open"; stream: string; method: string }
  /** Each build's time, from the tip change the stream waited for (or from the read), to end its stream. */
  | { kind: "read"; stream: string; builds: BuildTime[] }
  | { kind: "close"; stream: string };

export interface CheckRecord {
  id: string;
  caseId: string;
  method: string;
  deadlineMs: number;
  /** A held stream's check: what it carried so far, or (at its read) the whole stream. */
  stream?: string;
  /** Why it did not run (an anchor the chain does not have). */
  skipped?: string;
  builds: BuildConvergence[];
  /** The last answer of every build, judged. */
  result: CaseResult;
}

export interface StepRecord {
  index: number;
  title?: string;
  source: string;
  /** ms from the scenario's start to the step's. */
  atMs: number;
  /** How long the action took (the node moving, a wait, a read). */
  actionMs: number;
  action: ActionRecord;
  checks: CheckRecord[];
}

export interface TipEventRecord extends TipId {
  kind: "block" | "reorg";
  forkPoint?: number;
  /** ms from the scenario's start. */
  atMs: number;
  /** Per build, ms from the node having it to the build serving it; null when it did not (within the run, or before it was orphaned). */
  served: Record<string, number | null>;
}

export interface ScenarioRecord {
  id: string;
  title?: string;
  source: string;
  durationMs: number;
  steps: StepRecord[];
  tips: TipEventRecord[];
  /** Why the scenario stopped before its end (the node could not move as asked). */
  error?: string;
}
