// A case as the corpus declares it, after loading and before anchors are resolved.

import type { Transport } from "../targets/observation.js";

/** Where a case (or one of its fields) stands in its YAML file, for error messages. */
export interface SourceRef {
  file: string;
  line: number;
}

/**
 * What a spec-correct answer looks like.
 * - `agree`: every build must answer the same bytes (no oracle derivation).
 * - `oracle`: the answer must equal what the oracle derives from Zebra JSON-RPC.
 * - `error`: the call must fail; `codes` lists the acceptable gRPC status names
 *   (e.g. INVALID_ARGUMENT) or JSON-RPC error codes.
 */
export type Expectation =
  | { kind: "agree" }
  | { kind: "oracle" }
  | { kind: "error"; codes: (string | number)[] }
  /** A successful answer is prescribed; successful answers are compared with each other. */
  | { kind: "ok" };

export interface Case {
  id: string;
  transport: Transport;
  /** rpc name (gRPC) or JSON-RPC method name. */
  method: string;
  /**
   * gRPC: the request message in the protobuf JSON mapping, possibly with `${anchor}`
   * references; for a client-streaming rpc, a list of messages.
   * JSON-RPC: the positional params array.
   */
  request: unknown;
  expect: Expectation;
  /** Field paths not compared, each named (e.g. "version", "vtx[*].fee"). */
  volatile: string[];
  /**
   * Field paths whose value follows the wall clock (an estimated height, a mempool entry's
   * time): compared between builds and with the oracle within a run, never with goldens
   * recorded at another time.
   */
  wallClock?: string[];
  /**
   * JSON-RPC: objects (paths, as volatile ones) whose members the server sends in an order
   * of its own making, such as a hash map's iteration order: their key order is not
   * compared; every member's bytes are.
   */
  unorderedKeys?: string[];
  /** Stream messages compared as a multiset rather than a sequence. */
  unordered: boolean;
  /**
   * A server-streaming rpc whose stream a server may keep open until the chain changes
   * (GetMempoolStream ends when a block arrives): the client ends it after `quietMs`
   * without a message, and that end compares as the server's OK. Messages are compared.
   */
  openEnded?: { quietMs: number };
  /**
   * A server-streaming rpc the client cancels (RST_STREAM CANCEL) once this many messages
   * have come: those messages are compared, and the cancellation compares as the server's
   * OK. It probes that a server stops cleanly mid-stream.
   */
  cancelAfter?: number;
  /**
   * Sent as the call's grpc-timeout, to probe that the server enforces it: a call still
   * open by then must end with DEADLINE_EXCEEDED. One the server keeps open until the
   * client gives up (SERVER_DEADLINE_GRACE_MS later), or holds open longer than it before
   * an OK, compares as PAST_DEADLINE: the deadline was not enforced (canon/grpc.ts
   * outlivedDeadline). Messages sent before a DEADLINE_EXCEEDED
   * depend on how far the server got in the time: goldens and fidelity do not compare them.
   */
  deadlineMs?: number;
  tags: string[];
  /** Lightwallet protocol versions the expectation holds for (semver range), if limited. */
  protocol?: string;
  /**
   * Implementations expected to serve the method (lightwalletd, zaino, ztreamer, zebrad,
   * other); builds of others are not asked. For methods only some servers have, such as
   * Zaino's zcashd-era JSON-RPC methods. All when absent.
   */
  servedBy?: string[];
  /** Chain profiles the case applies to (all when absent). */
  chains?: string[];
  /**
   * Another case of the same method whose answer this one is expected to equal on the
   * fixture chain, and why that is the point (e.g. an unknown field must be skipped);
   * without it two cases of one method must not expect the same bytes there.
   */
  sameAnswerAs?: { case: string; why: string };
  /** Human description, shown in reports. */
  title?: string;
  source: SourceRef;
}
