// What one build answered to one call: the exact bytes, the status and the timings.
// Everything downstream (canon, diff, ledger, report) reads only this.

export type Transport = "grpc" | "jsonrpc";

/**
 * Why no well-formed answer came back. Set only when the client itself had to give up
 * or the bytes broke the transport's rules; a status the server sent is not a fault.
 */
export type FaultKind =
  | "unreachable" // connection refused, DNS, TLS handshake
  | "timeout" // the call's deadline passed
  | "reset" // stream or connection closed before the end of the answer
  | "malformed-frame" // gRPC framing broken (bad flag, lying length, truncated)
  | "compressed" // a compressed frame although none was negotiated
  | "content-type" // not application/grpc (or not JSON for JSON-RPC)
  | "too-large" // a message over the configured maximum size
  | "too-long" // a stream over the configured maximum number of messages
  | "http-status" // HTTP status other than 200
  | "empty-body" // JSON-RPC answer with no body (Zebra's answer to a bad cookie)
  | "invalid-json" // JSON-RPC body that does not parse
  | "wrong-id" // JSON-RPC answer for another request id
  | "protocol" // anything else the transport rejected; a peer that broke HTTP/2
  | "unresponsive"; // not sent: the server timed out on several calls in a row before it

export interface Fault {
  kind: FaultKind;
  detail: string;
}

export interface Timing {
  /** Wall-clock start, ms since the epoch. */
  startedAt: number;
  /** ms from the start until the first response byte, when any arrived. */
  firstByteMs?: number;
  /** ms from the start until the call ended. */
  totalMs: number;
  /**
   * For a call sent a grpc-timeout whose answer came as response headers and, later,
   * trailers: the longest the client's event loop was held up meanwhile (ms). The time
   * between the two, as the client saw it, may be off by this much.
   */
  stalledMs?: number;
}

export interface GrpcObservation {
  transport: "grpc";
  /** The rpc name, e.g. "GetBlock". */
  method: string;
  /** gRPC status code; 0 is OK. Synthesized by the client when `fault` is set. */
  code: number;
  /** grpc-message, decoded; "" on OK. */
  message: string;
  /** Payload of every response message in arrival order, exactly as framed on the wire. */
  messages: Uint8Array[];
  /** Response headers and trailers, lower-case names, auth-bearing values removed. */
  headers: Record<string, string>;
  trailers: Record<string, string>;
  /** Bytes received on the wire for this call (frames, without HTTP/2 overhead). */
  wireBytes: number;
  timing: Timing;
  fault?: Fault;
  /**
   * "quiet": the server kept the stream open and the client ended it after `quietMs`
   * without a message (an open-ended stream, such as a mempool stream that ends only when
   * a block arrives). `code` is then CANCELLED, the client's own doing, and no fault.
   * "cancelled": the client cancelled the stream mid-way once `cancelAfter` messages had
   * come (a case probing cancellation); `code` is CANCELLED likewise.
   * "deadline": the call was sent a grpc-timeout (`serverDeadlineMs`) and was still open
   * SERVER_DEADLINE_GRACE_MS after it: the server does not enforce it, and the client
   * ended the call; `code` is CANCELLED likewise.
   */
  endedBy?: "quiet" | "cancelled" | "deadline";
  /**
   * A deadline case asked again: how long the client's event loop stood still (ms) in
   * each earlier call, whose timing could not say whether the server held the stream past
   * the deadline (run/deadline-ask.ts). This observation is the one judged.
   */
  askedAgain?: number[];
}

export interface JsonRpcObservation {
  transport: "jsonrpc";
  method: string;
  /** HTTP status; 0 when no HTTP answer arrived. */
  httpStatus: number;
  /** The response body exactly as received. */
  body: Uint8Array;
  wireBytes: number;
  timing: Timing;
  fault?: Fault;
}

export type Observation = GrpcObservation | JsonRpcObservation;
