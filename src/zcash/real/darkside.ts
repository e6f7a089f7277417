// Feeding a darkside lightwalletd a chain of real blocks through its DarksideStreamer
// service: Reset to the chain's first height, stage every block as hex, apply them with
// the last one as the tip, and wait until its block ingestor has cached the tip, so
// later calls are served the way a node-backed lightwalletd serves them.
//
// lightwalletd's rules (common/darkside.go, v0.5.4): blocks below the Reset height are
// refused and a gap is refused, so Reset names the first block's height; a staging error
// inside StageBlocksStream is only logged, so success is checked afterwards through
// GetLatestBlock.

import { create, fromBinary } from "@bufbuild/protobuf";
import type { GrpcTarget } from "../../core/targets/grpc.js";
import { branchIdAt, branchIdHex, bytesToHex, displayHex } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { DarksideBlockSchema, DarksideHeightSchema, DarksideMetaStateSchema, DarksideStreamer } from "../gen/walletrpc/darkside_pb.js";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "../gen/walletrpc/service_pb.js";

const method = (service: typeof DarksideStreamer | typeof CompactTxStreamer, name: string) => {
  const m = service.methods.find((x) => x.name === name);
  if (!m) throw new Error(`${service.typeName} has no rpc ${name}`);
  return m;
};

/** The chain name lightwalletd's GetLightdInfo reports, as zcashd spells it. */
function chainName(model: ChainModel): string {
  return model.network.name === "mainnet" ? "main" : model.network.name === "testnet" ? "test" : "regtest";
}

async function ok(target: GrpcTarget, name: string, request: Parameters<GrpcTarget["call"]>[1]): Promise<Uint8Array[]> {
  const obs = await target.call(method(DarksideStreamer, name), request);
  if (obs.code !== 0) throw new Error(`darkside ${name} failed: ${obs.fault ? obs.fault.detail : `status ${obs.code} ${obs.message}`}`);
  return obs.messages;
}

export interface StageOptions {
  /** Tree sizes before the first block, when real data knows them; default 0. */
  before?: { sapling: number; orchard: number };
  /** The process log, read to see when the ingestor has cached the tip. */
  log?: () => string;
  /** How long to wait for the ingestor; default 60 s. */
  ingestTimeoutMs?: number;
}

/** Resets lightwalletd to the chain and applies all its blocks; resolves once the tip is served. */
export async function stageChain(target: GrpcTarget, model: ChainModel, o: StageOptions = {}): Promise<void> {
  await ok(
    target,
    "Reset",
    create(DarksideMetaStateSchema, {
      saplingActivation: model.baseHeight,
      branchID: branchIdHex(branchIdAt(model.network, model.tipHeight)),
      chainName: chainName(model),
      startSaplingCommitmentTreeSize: o.before?.sapling ?? 0,
      startOrchardCommitmentTreeSize: o.before?.orchard ?? 0,
    }),
  );
  await ok(
    target,
    "StageBlocksStream",
    model.blocks.map((b) => create(DarksideBlockSchema, { block: bytesToHex(b.raw) })),
  );
  await ok(target, "ApplyStaged", create(DarksideHeightSchema, { height: model.tipHeight }));

  const latest = await target.call(method(CompactTxStreamer, "GetLatestBlock"), create(ChainSpecSchema, {}));
  if (latest.code !== 0) throw new Error(`darkside lightwalletd has no chain after ApplyStaged: status ${latest.code} ${latest.message}`);
  const tip = fromBinary(BlockIDSchema, latest.messages[0] ?? new Uint8Array());
  const want = model.blocks[model.blocks.length - 1]!;
  if (Number(tip.height) !== model.tipHeight || displayHex(tip.hash) !== displayHex(want.block.hash)) {
    throw new Error(
      `darkside lightwalletd presents tip ${tip.height} ${displayHex(tip.hash)} after staging ${model.label}, expected ${model.tipHeight} ${displayHex(want.block.hash)} (a block it refused?)`,
    );
  }
  if (o.log) await ingested(o.log, model.tipHeight, o.ingestTimeoutMs ?? 60_000);
}

/** Waits for the ingestor's "Adding block to cache <tip>" line. */
async function ingested(log: () => string, tip: number, timeoutMs: number): Promise<void> {
  const line = new RegExp(`Adding block to cache ${tip}\\b`);
  const deadline = Date.now() + timeoutMs;
  while (!line.test(log())) {
    if (Date.now() > deadline) throw new Error(`darkside lightwalletd did not cache block ${tip} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
