// A stream held open across steps: one call per build, each on a connection of its own
// (so that closing one cancels only it), its messages kept as they arrive. Reading may
// pause after a number of messages; the server then meets HTTP/2 flow control once it has
// filled the stream's window, as it would with a wallet that stops reading.

import type { DescMethod } from "@bufbuild/protobuf";
import type { Build } from "../targets/config.js";
import { grpcTarget, type GrpcCallObservation, type GrpcRequest } from "../targets/grpc.js";

/** Held streams stay open across many steps: the call's own deadline is far away. */
export const HELD_DEADLINE_MS = 600_000;

export interface HeldCall {
  build: string;
  /** Resolves with the call's end (its messages included), however it ended. */
  ended: Promise<GrpcCallObservation>;
  /** performance.now() when the call ended, once it has. */
  endedAt(): number | undefined;
  /** What a call that ended now, with OK, would have carried. */
  soFar(): GrpcCallObservation;
  /** Reads on after a pause. */
  release(): void;
  /** Cancels the call and closes its connection. */
  cancel(): Promise<void>;
}

export function holdStream(build: Build, rpc: DescMethod, request: GrpcRequest, pauseAfter?: number): HeldCall {
  const target = grpcTarget(build.grpc!, { maxMessageBytes: build.maxMessageBytes, maxCallBytes: build.maxCallBytes, maxMessages: build.maxStreamMessages });
  const messages: Uint8Array[] = [];
  let wireBytes = 0;
  let endedAt: number | undefined;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const startedAt = Date.now();
  const began = performance.now();
  const ended = target
    .call(rpc, request, {
      deadlineMs: HELD_DEADLINE_MS,
      onMessage: (bytes, index) => {
        messages.push(bytes.slice());
        wireBytes += 5 + bytes.length;
        return pauseAfter !== undefined && index + 1 === pauseAfter ? gate : undefined;
      },
    })
    .then((obs) => {
      endedAt = performance.now();
      return { ...obs, messages: [...messages] };
    });
  return {
    build: build.name,
    ended,
    endedAt: () => endedAt,
    soFar: () => ({
      transport: "grpc",
      method: rpc.name,
      code: 0,
      message: "",
      messages: [...messages],
      messageCount: messages.length,
      headers: {},
      trailers: {},
      wireBytes,
      timing: { startedAt, totalMs: performance.now() - began },
    }),
    release: open,
    async cancel() {
      target.abort();
      await ended.catch(() => undefined);
    },
  };
}
