// The comparison's explanations are narrow: each accounts for exactly the darkside
// behaviour it names and nothing near it. lightwalletd is not needed here: zconform's
// reference server over the same real blocks stands in for it, first as it is (it agrees
// with the oracle everywhere), then with its answers altered the way darkside alters
// them, and in ways nothing explains.

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { CHAIN_DATA, chainTest, haveChainData } from "../../../test/chain-data.js";
import { loadLedger } from "../../core/ledger/quirk.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { bytesToHex, sha256d } from "../codec/index.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { CompactBlockSchema, type CompactBlock } from "../gen/walletrpc/compact_formats_pb.js";
import { deriveFromOracle } from "../oracle/derive.js";
import { darksideChainSources } from "./darkside-chains.js";
import { compareDarkside, type DarksideCheck } from "./darkside-compare.js";

const ledger = loadLedger(new URL("../../../cases/quirks.yaml", import.meta.url).pathname);
const build = { name: "stand-in", implementation: "other" };

type Edit = (rpc: string, block: CompactBlock, model: ChainModel) => void;

/** The target with every CompactBlock it answers passed through `edit`. */
function altered(t: GrpcTarget, model: ChainModel, edit: Edit): GrpcTarget {
  return {
    ...t,
    call: async (method, request, opts) => {
      const obs = await t.call(method, request, opts);
      if (method.output.typeName !== CompactBlockSchema.typeName) return obs;
      return {
        ...obs,
        messages: obs.messages.map((m) => {
          const cb = fromBinary(CompactBlockSchema, m);
          edit(method.name, cb, model);
          return toBinary(CompactBlockSchema, cb);
        }),
      };
    },
  };
}

interface Stand {
  model: ChainModel;
  net: FixtureNetwork;
  target: GrpcTarget;
  run(edit?: Edit): Promise<DarksideCheck[]>;
}

async function stand(label: string): Promise<Stand> {
  const source = darksideChainSources(CHAIN_DATA).find((s) => s.label === label);
  if (!source) throw new Error(`no run ${label}`);
  const model = source.load().model;
  const net = await startFixtureNetwork({ chain: model, profiles: ["reference"] });
  const target = grpcTarget({ url: net.grpc.reference! });
  const derive = deriveFromOracle(jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }));
  return {
    model,
    net,
    target,
    run: (edit) => compareDarkside(edit ? altered(target, model, edit) : target, derive, model, { ledger, build }),
  };
}

const differences = (checks: DarksideCheck[]) => checks.flatMap((c) => c.differences.map((d) => ({ rpc: c.rpc, ...d })));

/** Replaces the txid of every v5+ transaction with what darkside shows: double-SHA256 of its bytes. */
const darksideTxids: Edit = (_rpc, cb, model) => {
  const b = model.blockAt(Number(cb.height))!;
  for (const tx of cb.vtx) {
    const i = Number(tx.index);
    if (b.block.transactions[i]!.version >= 5) tx.txid = sha256d(b.block.rawTransactions[i]!);
  }
};

describe("darkside comparison (v5 blocks, trees unknown before the run)", () => {
  let s: Stand;
  beforeAll(async () => {
    if (!haveChainData) return;
    s = await stand("zebra/mainnet/1687106-1687108");
  });
  afterAll(async () => {
    await s?.target.close();
    await s?.net.close();
  });

  chainTest("the reference server over the same blocks agrees with the oracle on every check", async () => {
    const checks = await s.run();
    expect(checks.filter((c) => c.rpc === "GetBlock").map((c) => c.heights[0])).toEqual([1687106, 1687107, 1687108]);
    expect(differences(checks)).toEqual([]);
  });

  chainTest("double-SHA256 txids on v5 transactions are explained as darkside-txid, and nothing else is", async () => {
    const checks = await s.run(darksideTxids);
    const d = differences(checks);
    expect(d.length).toBeGreaterThan(0);
    expect(new Set(d.map((x) => `${x.kind} ${x.explanation}`))).toEqual(new Set(["value darkside-txid"]));
  });

  chainTest("any other txid stays unexplained", async () => {
    const checks = await s.run((rpc, cb) => {
      if (rpc === "GetBlock" && cb.height === 1687107n) cb.vtx[1]!.txid = new Uint8Array(32).fill(7);
    });
    const d = differences(checks);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ rpc: "GetBlock", path: "vtx[1].txid", explanation: null, lightwalletd: bytesToHex(new Uint8Array(32).fill(7)) });
  });

  chainTest("tree sizes counted from the first staged block are explained where the oracle cannot know the tree; one off is not", async () => {
    const count = (model: ChainModel, h: number) =>
      model.blocks.filter((b) => b.height <= h).reduce((n, b) => n + b.block.transactions.reduce((m, tx) => m + (tx.sapling?.outputs.length ?? 0), 0), 0);
    expect(s.model.blocks.every((b) => b.trees === undefined)).toBe(true);
    const counted = differences(
      await s.run((rpc, cb, model) => {
        if (rpc === "GetBlock") cb.chainMetadata!.saplingCommitmentTreeSize = count(model, Number(cb.height));
      }),
    );
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((x) => x.explanation === "darkside-tree-size")).toBe(true);
    const offByOne = differences(
      await s.run((rpc, cb, model) => {
        if (rpc === "GetBlock") cb.chainMetadata!.saplingCommitmentTreeSize = count(model, Number(cb.height)) + 1;
      }),
    );
    expect(offByOne.length).toBe(3);
    expect(offByOne.every((x) => x.explanation === null)).toBe(true);
  });
});

describe("darkside comparison (the run contains Sapling's activation, so the oracle knows the tree)", () => {
  let s: Stand;
  beforeAll(async () => {
    if (!haveChainData) return;
    s = await stand("zebra/mainnet/419199-419202");
  });
  afterAll(async () => {
    await s?.target.close();
    await s?.net.close();
  });

  chainTest("a tree size different from the oracle's is never explained", async () => {
    expect(s.model.blockAt(419201)!.trees?.sapling?.size).toBe(5);
    const d = differences(
      await s.run((rpc, cb) => {
        if (rpc === "GetBlock" && cb.height === 419201n) cb.chainMetadata!.saplingCommitmentTreeSize = 0;
      }),
    );
    expect(d).toEqual([expect.objectContaining({ rpc: "GetBlock", path: "chainMetadata.saplingCommitmentTreeSize", explanation: null })]);
  });
});
