// One build's GetBlockRange over one chunk, resumed once after a transient failure.
//
// Blocks are handed to `deliver` as they arrive and never kept here. When the stream
// fails before the chunk's last block with a fault (reset, timeout, connection lost) or
// a status that says "try again" (UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED, ABORTED,
// RESOURCE_EXHAUSTED — the last is how servers report a stream limit), the rest of the
// chunk is asked for once more, from the first height not received; positions continue
// where they stopped, so the comparison never sees the seam. Any other status is the
// build's answer and is reported as it is.

import { create } from "@bufbuild/protobuf";
import { BlockIDSchema, BlockRangeSchema, CompactTxStreamer, type PoolType } from "../../zcash/gen/walletrpc/service_pb.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { GrpcCode, grpcCodeName } from "../../core/targets/grpc-status.js";
import type { Fault } from "../../core/targets/observation.js";

const RETRYABLE = new Set<number>([GrpcCode.UNAVAILABLE, GrpcCode.DEADLINE_EXCEEDED, GrpcCode.CANCELLED, GrpcCode.ABORTED, GrpcCode.RESOURCE_EXHAUSTED]);

export interface StreamOutcome {
  /** Final gRPC status of the chunk (after the resume, if there was one). */
  code: number;
  message: string;
  fault?: Fault;
  /** The first attempt's failure when the chunk was resumed. */
  resumedAfter?: string;
  blocks: number;
  /** Frame bytes received (gRPC length prefixes included, HTTP/2 overhead not). */
  bytes: number;
  /** Time spent in calls, ms. */
  ms: number;
}

export interface ChunkRequest {
  from: number;
  to: number;
  poolTypes: readonly PoolType[];
  deadlineMs: number;
  maxMessageBytes: number;
  /** Stop resuming (the sweep is being interrupted). */
  signal?: AbortSignal;
}

export function describeStatus(o: { code: number; message: string; fault?: Fault }): string {
  const text = `${grpcCodeName(o.code)}${o.message ? ` ${JSON.stringify(o.message.slice(0, 120))}` : ""}`;
  return o.fault ? `${text} (${o.fault.kind})` : text;
}

export async function streamChunk(target: GrpcTarget, req: ChunkRequest, deliver: (bytes: Uint8Array) => void | Promise<void>): Promise<StreamOutcome> {
  const expected = req.to - req.from + 1;
  const out: StreamOutcome = { code: GrpcCode.OK, message: "", blocks: 0, bytes: 0, ms: 0 };
  for (let attempt = 0; ; attempt++) {
    const start = req.from + out.blocks;
    const range = create(BlockRangeSchema, {
      start: create(BlockIDSchema, { height: BigInt(start) }),
      end: create(BlockIDSchema, { height: BigInt(req.to) }),
      poolTypes: [...req.poolTypes],
    });
    const obs = await target.call(CompactTxStreamer.method.getBlockRange, range, {
      deadlineMs: req.deadlineMs,
      maxMessageBytes: req.maxMessageBytes,
      // Extras are worth counting, not an unbounded stream.
      maxMessages: 2 * (expected - out.blocks) + 100,
      onMessage: (bytes) => deliver(bytes),
    });
    out.blocks += obs.messageCount;
    out.bytes += obs.wireBytes;
    out.ms += obs.timing.totalMs;
    out.code = obs.code;
    out.message = obs.message;
    if (obs.fault) out.fault = obs.fault;
    else delete out.fault;
    const failed = obs.code !== GrpcCode.OK;
    const retry = failed && attempt === 0 && out.blocks < expected && !req.signal?.aborted && (obs.fault !== undefined || RETRYABLE.has(obs.code));
    if (!retry) return out;
    out.resumedAfter = `${describeStatus(obs)} after ${out.blocks} of ${expected} blocks`;
  }
}
