// Corruption is caught at exactly the field that was altered. The JSON-RPC server serves
// the true chain (the oracle sees the truth); two reference gRPC servers serve a chain
// altered in one place, so they agree with each other and both differ from the oracle
// at one field path: the verdict is all-vs-oracle.
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { canonOf } from "../../core/canon/index.js";
import { verdictOf } from "../../core/diff/verdict.js";
import { CompactBlockSchema } from "../gen/walletrpc/compact_formats_pb.js";
import type { ChainBlock, ChainModel } from "../fixture/chain/model.js";
import { syntheticChain } from "../fixture/chain/synthetic.js";
import { chainAnchors } from "../fixture/chain/anchors.js";
import { startGrpcServer, type RunningGrpcServer } from "../fixture/grpc/server.js";
import { startJsonRpcServer, type JsonRpcServer } from "../fixture/jsonrpc/server.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { Observation } from "../../core/targets/observation.js";
import { deriveFromOracle } from "./derive.js";
import { brief, derived, divergences, request, rpcOf, type Req } from "./oracle.test-helper.js";
import type { GrpcDeriver } from "./source.js";
import type { RpcName } from "./underivable.js";

let truth: ChainModel;
let rpcServer: JsonRpcServer;
let oracle: JsonRpcTarget;
let derive: GrpcDeriver;
const started: RunningGrpcServer[] = [];
const targets: GrpcTarget[] = [];

beforeAll(async () => {
  truth = syntheticChain();
  rpcServer = await startJsonRpcServer({ model: truth, profile: "zebra" });
  oracle = jsonRpcTarget({ url: rpcServer.url, auth: { kind: "cookie", cookieFile: rpcServer.cookieFile! } });
  derive = deriveFromOracle(oracle);
});

afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
  await Promise.all(started.map((s) => s.close()));
  await oracle.close();
  await rpcServer.close();
});

/** Two reference servers over `model`, as two builds. */
async function twoBuilds(model: ChainModel): Promise<[GrpcTarget, GrpcTarget]> {
  const out: GrpcTarget[] = [];
  for (let i = 0; i < 2; i++) {
    const s = await startGrpcServer({ model });
    started.push(s);
    const t = grpcTarget({ url: s.url });
    targets.push(t);
    out.push(t);
  }
  return out as [GrpcTarget, GrpcTarget];
}

/** The oracle's answer and both builds', with the verdict over the builds. */
async function answers(name: RpcName, req: Req, builds: [GrpcTarget, GrpcTarget]) {
  const rpc = rpcOf(name);
  const [mine, one, two] = await Promise.all([derived(derive, name, req), builds[0].call(rpc, req), builds[1].call(rpc, req)]);
  const canon = (o: Observation) => canonOf(o, { schema: rpc.output, streaming: rpc.methodKind === "server_streaming" });
  const verdict = verdictOf(
    new Map([
      ["build-1", canon(one)],
      ["build-2", canon(two)],
    ]),
    canon(mine),
    { expect: { kind: "oracle" } },
  );
  return { mine, one, two, verdict };
}

/** The model with one block replaced (same hash, same txids: only what it derives from changes). */
function withBlock(model: ChainModel, altered: ChainBlock): ChainModel {
  const blocks = model.blocks.map((b) => (b.height === altered.height ? altered : b));
  return {
    ...model,
    blocks,
    blockAt: (height) => (height === altered.height ? altered : model.blockAt(height)),
    blockByHash: (hash) => {
      const b = model.blockByHash(hash);
      return b?.height === altered.height ? altered : b;
    },
  };
}

describe("a wrong Sapling nullifier in one block", () => {
  test("is one value divergence at vtx[i].spends[j].nf; the builds agree with each other (all-vs-oracle)", async () => {
    const height = chainAnchors(truth).block_with_sapling_spends as number;
    const b = truth.blockAt(height)!;
    const txIndex = b.block.transactions.findIndex((t) => (t.sapling?.spends.length ?? 0) > 0);
    const tx = b.block.transactions[txIndex]!;
    const j = tx.sapling!.spends.length - 1;
    const nf = tx.sapling!.spends[j]!.nullifier.slice();
    nf[7] = nf[7]! ^ 0x01;
    const spends = tx.sapling!.spends.map((s, k) => (k === j ? { ...s, nullifier: nf } : s));
    const transactions = b.block.transactions.map((t, k) => (k === txIndex ? { ...t, sapling: { ...t.sapling!, spends } } : t));
    const builds = await twoBuilds(withBlock(truth, { ...b, block: { ...b.block, transactions } }));

    const { mine, one, two, verdict } = await answers("GetBlock", request("GetBlock", { height: BigInt(height) }), builds);
    const vtxPosition = fromBinary(CompactBlockSchema, mine.messages[0]!).vtx.findIndex((t) => t.index === BigInt(txIndex));
    expect(brief(divergences("GetBlock", mine, one))).toEqual([expect.objectContaining({ kind: "value", path: `vtx[${vtxPosition}].spends[${j}].nf` })]);
    expect(brief(divergences("GetBlock", one, two))).toEqual([]);
    expect(verdict.verdict).toBe("all-vs-oracle");

    // The same altered field in every rpc that carries it.
    const range = await answers(
      "GetBlockRangeNullifiers",
      request("GetBlockRangeNullifiers", { start: { height: BigInt(height - 1) }, end: { height: BigInt(height + 1) } }),
      builds,
    );
    const rangePosition = fromBinary(CompactBlockSchema, range.mine.messages[1]!).vtx.findIndex((t) => t.index === BigInt(txIndex));
    expect(brief(divergences("GetBlockRangeNullifiers", range.mine, range.one))).toEqual([
      expect.objectContaining({ kind: "value", path: `[1].vtx[${rangePosition}].spends[${j}].nf` }),
    ]);
    expect(range.verdict.verdict).toBe("all-vs-oracle");
  });
});

describe("a balance one zatoshi too high", () => {
  test("is one value divergence at valueZat; the builds agree with each other (all-vs-oracle)", async () => {
    const a = chainAnchors(truth);
    const address = a.taddr_with_utxos as string;
    const plusOne: ChainModel = {
      ...truth,
      addressBalance: (addr) => {
        const real = truth.addressBalance(addr);
        return addr === address ? { ...real, balance: real.balance + 1n } : real;
      },
    };
    expect(truth.addressBalance(address).balance).toBeGreaterThan(10n);
    const builds = await twoBuilds(plusOne);

    const { mine, one, two, verdict } = await answers("GetTaddressBalance", request("GetTaddressBalance", { addresses: [address] }), builds);
    expect(brief(divergences("GetTaddressBalance", mine, one))).toEqual([expect.objectContaining({ kind: "value", path: "valueZat" })]);
    expect(brief(divergences("GetTaddressBalance", one, two))).toEqual([]);
    expect(verdict.verdict).toBe("all-vs-oracle");

    // An address the alteration does not touch still agrees.
    const other = await answers("GetTaddressBalance", request("GetTaddressBalance", { addresses: [a.taddr_p2sh as string] }), builds);
    expect(other.verdict.verdict).toBe("agree");
  });
});
