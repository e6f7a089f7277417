// A scenario as cases/scenarios/<id>.yaml declares it, after loading: steps that move the
// chain (or hold a stream open across such moves) and the checks run after each step. A
// check is a case like any in the corpus (its own, or one of the corpus by id), judged the
// same way, with a deadline for the builds to converge on the oracle's answer.

import type { Case, SourceRef } from "../corpus/case.js";

export interface Scenario {
  id: string;
  title?: string;
  description?: string;
  tags: string[];
  /** How long a check waits for every build to match the oracle, unless it says otherwise. */
  convergeMs: number;
  steps: Step[];
  source: SourceRef;
}

/** What a step does before its checks run. Chain moves go through a ChainMover (mover.ts). */
export type Action =
  /** Mines `blocks` blocks one after another, `everyMs` apart (0: as fast as the node takes them). */
  | { kind: "mine"; blocks: number; everyMs: number }
  /** Sends named transactions from the node's wallet, in order. */
  | { kind: "send"; txs: string[] }
  /**
   * Replaces the last `depth` blocks by `depth + 1` new ones. Named transactions mined in the
   * dropped blocks go into the new branch when `include` lists them; the others are dropped
   * as the node drops them.
   */
  | { kind: "reorg"; depth: number; include: string[] }
  | { kind: "wait"; ms: number }
  /** Waits until every build serves the node's tip (its GetLatestBlock, or the protocol's equivalent). */
  | { kind: "wait-tip"; deadlineMs: number }
  /** Opens a server stream on every build and keeps it open across the next steps; `pauseAfter`: stop reading after that many messages. */
  | { kind: "open"; stream: string; check: Check; pauseAfter?: number }
  /** Reads what is left of a held stream until each build ends it, then judges it against the oracle's answer. */
  | { kind: "read"; stream: string; deadlineMs: number }
  /** Cancels a held stream without judging it. */
  | { kind: "close"; stream: string };

export interface Step {
  /** 1-based position in the scenario. */
  index: number;
  title?: string;
  action: Action;
  checks: Check[];
  source: SourceRef;
}

export interface Check {
  /** Unique within its step: the corpus id, or the scenario's own name for it. */
  id: string;
  case: Case;
  /**
   * A held stream, judged on what each build has sent on it so far against what the oracle
   * says now (the messages a stream that ended now should have carried).
   */
  stream?: string;
  /** How long the builds have to converge on the expected answer. */
  deadlineMs: number;
  source: SourceRef;
}

/** A scenario's own check as a case: its rpc's name first, so that ledger globs by method apply. */
export function scenarioCaseId(method: string, scenario: string, check: string): string {
  return `${method}/scenario.${scenario}.${check}`;
}
