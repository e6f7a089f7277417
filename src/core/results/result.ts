// What a run produces, case by case: the plain data every reporter (terminal, JSON,
// JUnit, HTML) and the jest integration read. The JSON report serializes these types
// as they are, so changing them changes REPORT_SCHEMA_VERSION.

import type { JsonValue } from "@bufbuild/protobuf";
import type { Divergence } from "../diff/divergence.js";
import type { Verdict } from "../diff/verdict.js";
import type { PatchOp } from "../diff/patch.js";
import type { Fault, Transport } from "../targets/observation.js";
import type { BuildOutcome } from "./outcome.js";
import type { Elided } from "./bound.js";

export const REPORT_SCHEMA_VERSION = 4;

/** One side's answer to one case, as reports show it. */
export interface Answer {
  /** A build name, or "oracle". */
  side: string;
  transport: Transport;
  /** "OK", a gRPC code name, "error -8" for JSON-RPC, or "fault:<kind>". */
  status: string;
  /** gRPC status code, JSON-RPC error code, or null on success. */
  code: number | null;
  message: string;
  /** Number of messages (gRPC) or 1 for a JSON-RPC body. */
  count: number;
  wireBytes: number;
  ms: number;
  firstByteMs?: number;
  fault?: Fault;
  /**
   * The client ended the call: an open-ended stream after a quiet period ("quiet"), a
   * stream the case cancels mid-way ("cancelled"), or a call still open well past the
   * deadline the case sent ("deadline").
   */
  endedBy?: "quiet" | "cancelled" | "deadline";
  /**
   * A deadline case asked again because zconform's own event loop stood still during the
   * earlier calls (ms, one per earlier call): their timing could not tell whether the
   * server held the stream past the deadline. This answer is the one judged.
   */
  askedAgain?: number[];
  /** The exact bytes as hex: one entry per gRPC message, or the JSON-RPC body; empty when elided. */
  hex: string[];
  /** For an answer above the inline size, instead of its bytes and decoded form. */
  elided?: Elided;
  /** The decoded form: protobuf JSON per message, or the parsed JSON-RPC body. */
  json?: JsonValue;
  /** The protocol version this side speaks, when known. */
  protocolVersion?: string;
}

export interface ClassifiedDivergence extends Divergence {
  caseId: string;
  method: string;
  transport: Transport;
  /** The build this divergence is about (the right side). */
  build: string;
  /** The ledger entry that explains it, or null when it is new. */
  quirk: string | null;
  /** Set when the build speaks a protocol version the case's expectation does not cover. */
  protocolNote?: string;
}

/** A build's answer against its recorded golden (src/modes/golden), judged after the case. */
export interface Drift {
  build: string;
  /** unchanged; changed (divergences say how); unrecorded (no golden for this answer). */
  status: "unchanged" | "changed" | "unrecorded";
  divergences: Divergence[];
}

/** A case that diverged while the chain moved and was asked again (src/core/run/moving-chain.ts). */
export interface Reasked {
  /** Why it was asked again, in words. */
  because: string;
  /** Attempts in all, the first included. */
  attempts: number;
  /** New divergences the first attempt had, which the chain's movement made. */
  firstDivergences: number;
  /** Whether the last attempt, too, saw the chain move. */
  stillMoving: boolean;
  /** Builds that had not served the node's tip within the wait (settleMs) when the case was last asked: judged as they answered. */
  behind?: string[];
  /**
   * When it did: the last attempt's unexplained differences, moved out of the case's
   * divergences (no answer was taken at one tip; its builds are unchecked, not new).
   */
  unsettled?: ClassifiedDivergence[];
}

export interface CaseResult {
  caseId: string;
  method: string;
  transport: Transport;
  title?: string;
  /** "oracle", "agree" or "error INVALID_ARGUMENT|NOT_FOUND". */
  expect: string;
  tags: string[];
  source: string;
  /** Why the case did not run, when it did not. */
  skipped?: string;
  request?: JsonValue;
  verdict?: Verdict;
  /** Per build that was asked: pass, known, new, unchecked or unjudged (src/core/results/outcome.ts). */
  outcomes?: BuildOutcome[];
  answers: Answer[];
  oracle?: Answer;
  /**
   * The answers some builds are measured against instead of the run's oracle: the
   * oracle's under the older protocol rules they speak ("oracle@v0.4.0"), or the node
   * they are backed by ("oracle:fixture", a build's `oracle` in the config).
   */
  otherOracles?: Answer[];
  divergences: ClassifiedDivergence[];
  /** Declared volatile paths (never compared), and what they removed per side. */
  volatile: string[];
  /** Declared wall-clock paths: compared within the run, not with goldens (modes/golden/drift.ts). */
  wallClock?: string[];
  /** JSON-RPC objects whose key order was not compared (the case's declaration). */
  unorderedKeys?: string[];
  excluded: { side: string; paths: string[] }[];
  unordered: boolean;
  /** Declared open-ended: a stream the client ended after a quiet period compares as OK. */
  openEnded?: true;
  /** Declared cancelled after this many messages: the first ones compare, the end as OK. */
  cancelAfter?: number;
  /** The grpc-timeout the case sent, probing that servers enforce it. */
  deadlineMs?: number;
  /** Human-readable differences per compared pair, as JSON Patch; `omittedOps` past the kept ones. */
  patches: { left: string; right: string; ops: PatchOp[]; omittedOps?: number }[];
  /** With --golden: each build's answer against its recorded golden. */
  drift?: Drift[];
  /** The case diverged while the chain moved and was asked again (src/core/run/moving-chain.ts). */
  reasked?: Reasked;
}
