import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, jest, test } from "@jest/globals";
import { longChain } from "../../zcash/fixture/chain/long.js";
import type { ChainBlock, ChainModel } from "../../zcash/fixture/chain/model.js";
import { startGrpcServer, type RunningGrpcServer } from "../../zcash/fixture/grpc/server.js";
import { startJsonRpcServer, type JsonRpcServer } from "../../zcash/fixture/jsonrpc/index.js";
import { PoolType } from "../../zcash/gen/walletrpc/service_pb.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { oracleBlocks } from "./oracle-blocks.js";
import { startResetProxy } from "./reset-proxy.test-helper.js";
import { runSweep, type SweepBuild, type SweepProgress } from "./sweep.js";

const TIP = 3000;
const ALTERED = 1230; // a height with a shielded transaction (every 10th)

/** The same chain with one Sapling output's cmu changed at one height (its hash stays). */
function withAlteredBlock(model: ChainModel, height: number): ChainModel {
  let altered: ChainBlock | undefined;
  const blockAt = (h: number): ChainBlock | undefined => {
    const b = model.blockAt(h);
    if (h !== height || !b) return b;
    if (!altered) {
      const tx = b.block.transactions[1]!;
      const out = tx.sapling!.outputs[0]!;
      const cmu = out.cmu.slice();
      cmu[5] = cmu[5]! ^ 0x5a;
      const txs = [...b.block.transactions];
      txs[1] = { ...tx, sapling: { ...tx.sapling!, outputs: [{ ...out, cmu }] } };
      altered = { ...b, block: { ...b.block, transactions: txs } };
    }
    return altered;
  };
  return { ...model, blockAt };
}

describe("sweep against the fixture", () => {
  const model = longChain({ tip: TIP });
  const servers: RunningGrpcServer[] = [];
  let oracle: JsonRpcServer;
  const targets: GrpcTarget[] = [];
  const build = (name: string, url: string): SweepBuild => {
    const target = grpcTarget({ url });
    targets.push(target);
    return { name, target };
  };
  let refUrl: string;
  let ref2Url: string;
  let alteredUrl: string;

  beforeAll(async () => {
    const [a, b, c] = await Promise.all([
      startGrpcServer({ model, profile: "reference" }),
      startGrpcServer({ model, profile: "reference" }),
      startGrpcServer({ model: withAlteredBlock(model, ALTERED), profile: "ztreamer-master" }),
    ]);
    servers.push(a, b, c);
    [refUrl, ref2Url, alteredUrl] = [a.url, b.url, c.url];
    oracle = await startJsonRpcServer({ model, profile: "zebra" });
  });
  // The fixture's server (connect-node) logs every stream the proxy cuts under it (G12).
  let quiet: ReturnType<typeof jest.spyOn> | undefined;
  beforeEach(() => {
    const original = console.error;
    quiet = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).startsWith("handler for rpc GetBlockRange")) original(...args);
    });
  });
  afterEach(() => quiet?.mockRestore());
  afterAll(async () => {
    await Promise.all(targets.map((t) => t.close()));
    await Promise.all(servers.map((s) => s.close()));
    await oracle.close();
  });

  test("two reference servers agree on every block; every height is compared, across chunks", async () => {
    const r = await runSweep({
      builds: [build("reference", refUrl), build("reference-2", ref2Url)],
      from: 0,
      to: TIP,
      poolTypes: [PoolType.TRANSPARENT, PoolType.SAPLING],
      chunkSize: 700,
      window: 32,
    });
    expect(r.log.total).toBe(0);
    expect(r.compared).toBe(TIP + 1);
    expect(r.chunks.map((c) => [c.from, c.to])).toEqual([
      [0, 699],
      [700, 1399],
      [1400, 2099],
      [2100, 2799],
      [2800, 3000],
    ]);
    expect(r.totals.map((t) => t.blocks)).toEqual([TIP + 1, TIP + 1]);
    expect(r.partial).toBe(false);
  });

  test("a block altered at one height is found at exactly that height and path, and nowhere else; progress tells it chunk by chunk", async () => {
    const progress: SweepProgress[] = [];
    const r = await runSweep({
      builds: [build("reference", refUrl), build("altered", alteredUrl)],
      from: 1,
      to: TIP,
      poolTypes: [],
      chunkSize: 1000,
      window: 16,
      onProgress: (p) => progress.push(p),
    });
    const chunkEnds = progress.filter((p) => p.chunk);
    expect(chunkEnds.map((p) => [p.chunk!.from, p.chunk!.to, p.compared, p.divergentHeights])).toEqual([
      [1, 1000, 1000, 0],
      [1001, 2000, 2000, 1],
      [2001, 3000, 3000, 1],
    ]);
    expect(chunkEnds.at(-1)!.sources.map((s) => [s.name, s.blocks])).toEqual([
      ["reference", TIP],
      ["altered", TIP],
    ]);
    expect(progress.some((p) => !p.chunk)).toBe(false);
    expect(r.log.listed.map((d) => [d.height, d.build, d.kind, d.path])).toEqual([[ALTERED, "altered", "value", `[${ALTERED}].vtx[0].outputs[0].cmu`]]);
    expect(r.log.divergentHeights).toBe(1);
    expect(r.log.tallies()).toEqual([
      expect.objectContaining({ build: "altered", path: "[*].vtx[*].outputs[*].cmu", count: 1, firstHeight: ALTERED, lastHeight: ALTERED }),
    ]);
  });

  test("with the oracle: the altered build diverges from the derived block at that height; the reference does not", async () => {
    const o = oracleBlocks({ url: oracle.url, auth: { kind: "cookie", cookieFile: oracle.cookieFile! } }, [
      PoolType.TRANSPARENT,
      PoolType.SAPLING,
      PoolType.ORCHARD,
    ]);
    try {
      const r = await runSweep({
        builds: [build("reference", refUrl), build("altered", alteredUrl)],
        from: ALTERED - 150,
        to: ALTERED + 150,
        poolTypes: [PoolType.TRANSPARENT, PoolType.SAPLING, PoolType.ORCHARD],
        oracle: o,
        oracleBatch: 40,
        chunkSize: 200,
        window: 64,
      });
      expect(r.left).toBe("oracle");
      expect(r.errors).toEqual([]);
      expect(r.log.listed.map((d) => [d.height, d.left, d.build, d.path])).toEqual([[ALTERED, "oracle", "altered", `[${ALTERED}].vtx[1].outputs[0].cmu`]]);
      expect(r.totals.find((t) => t.name === "oracle")!.blocks).toBe(301);
    } finally {
      await o.close();
    }
  });

  test("a stream reset mid-chunk is resumed once from the next height; nothing is lost or compared twice", async () => {
    const proxy = await startResetProxy(ref2Url, { afterBytes: 20_000, resets: 1 });
    const viaProxy = build("via-proxy", proxy.url);
    try {
      const r = await runSweep({
        builds: [build("reference", refUrl), viaProxy],
        from: 0,
        to: 2500,
        poolTypes: [PoolType.TRANSPARENT],
        chunkSize: 1000,
        window: 32,
      });
      expect(proxy.cut()).toBe(1);
      expect(r.log.total).toBe(0);
      expect(r.compared).toBe(2501);
      const resumed = r.chunks.flatMap((c) => c.builds.filter((b) => b.resumedAfter).map((b) => [c.from, b.name, b.blocks]));
      expect(resumed).toEqual([[0, "via-proxy", 1000]]);
      expect(r.chunks[0]!.builds[1]!.resumedAfter).toMatch(/reset.* after \d+ of 1000 blocks/);
      expect(r.totals[1]).toMatchObject({ blocks: 2501, resumes: 1 });
    } finally {
      await viaProxy.target.close();
      await proxy.close();
    }
  });

  test("a build whose streams keep failing is resumed once per chunk, then reported with its status and missing heights", async () => {
    const proxy = await startResetProxy(ref2Url, { afterBytes: 5_000, resets: Infinity });
    const broken = build("broken", proxy.url);
    try {
      const r = await runSweep({
        builds: [build("reference", refUrl), broken],
        from: 100,
        to: 1099,
        poolTypes: [PoolType.TRANSPARENT],
        chunkSize: 500,
        window: 32,
      });
      expect(proxy.cut()).toBe(4); // two chunks, each tried twice
      const kinds = r.log.listed.map((d) => [d.kind, d.path, d.build]);
      expect(kinds).toEqual([
        ["error-vs-ok", "status.code", "broken"],
        ["count", "", "broken"],
        ["error-vs-ok", "status.code", "broken"],
        ["count", "", "broken"],
      ]);
      const count = r.log.listed[1]!;
      expect(count.leftValue).toBe(500);
      expect(count.height).toBe(100 + (count.rightValue as number));
      expect(r.compared).toBe(1000);
    } finally {
      await broken.target.close();
      await proxy.close();
    }
  });
});
