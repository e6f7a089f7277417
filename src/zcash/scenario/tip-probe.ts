// A build's tip, for tip following: its GetLatestBlock (BlockID, hash in wire order).

import { fromBinary } from "@bufbuild/protobuf";
import type { TipId } from "../../core/scenario/mover.js";
import type { TipProbe } from "../../core/scenario/tip-watch.js";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { displayHex } from "../codec/index.js";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "../gen/walletrpc/service_pb.js";
import { create } from "@bufbuild/protobuf";

const GET_LATEST_BLOCK = CompactTxStreamer.method.getLatestBlock;

export function latestBlockProbe(targets: ReadonlyMap<string, GrpcTarget>, deadlineMs: number): TipProbe {
  return async (build): Promise<TipId | undefined> => {
    const obs = await targets.get(build)!.call(GET_LATEST_BLOCK, create(ChainSpecSchema), { deadlineMs });
    if (obs.fault || obs.code !== 0 || obs.messages.length !== 1) return undefined;
    const id = fromBinary(BlockIDSchema, obs.messages[0]!);
    return { height: Number(id.height), hash: displayHex(id.hash) };
  };
}
