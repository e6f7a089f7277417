// One height of a sweep: every build's block against the left side (the oracle's derived
// block when there is one, else the reference build's). Equal bytes cost one native
// comparison and nothing else; only a block whose bytes differ is decoded, through the
// same comparison policy as the corpus (compareObservations on one-message answers), and
// its divergences get the height as the first path element: `[1234567].vtx[1].outputs[0].cmu`.

import { CompactBlockSchema } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import { bytesEqual } from "../../core/canon/index.js";
import { compareObservations } from "../../core/diff/compare.js";
import type { Divergence } from "../../core/diff/divergence.js";
import type { GrpcObservation } from "../../core/targets/observation.js";

export interface HeightDivergence extends Divergence {
  height: number;
  /** The build this divergence is about (the right side). */
  build: string;
}

function single(bytes: Uint8Array): GrpcObservation {
  return {
    transport: "grpc",
    method: "GetBlockRange",
    code: 0,
    message: "",
    messages: [bytes],
    headers: {},
    trailers: {},
    wireBytes: bytes.length + 5,
    timing: { startedAt: 0, totalMs: 0 },
  };
}

/** `[height]` then the message's own path. */
export function heightPath(height: number, path: string): string {
  return path === "" ? `[${height}]` : `[${height}].${path}`;
}

/**
 * Divergences at one height. `names[j]` names source j; `left` is the index compared
 * against; sources whose value is missing (their stream ended early) are left to the
 * chunk's count and status checks.
 */
export function compareHeight(
  height: number,
  values: ReadonlyArray<Uint8Array | undefined>,
  names: readonly string[],
  left: number,
  builds: readonly number[],
): HeightDivergence[] | undefined {
  const l = values[left];
  if (l === undefined) return undefined;
  let out: HeightDivergence[] | undefined;
  for (const j of builds) {
    if (j === left) continue;
    const r = values[j];
    if (r === undefined || bytesEqual(l, r)) continue;
    const c = compareObservations(single(l), single(r), {
      left: names[left]!,
      right: names[j]!,
      schema: CompactBlockSchema,
      streaming: false,
      patch: false,
    });
    out ??= [];
    for (const d of c.divergences) out.push({ ...d, path: heightPath(height, d.path), height, build: names[j]! });
  }
  return out;
}
