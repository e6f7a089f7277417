// The reorganization's watch and checks hold a server to the chain after it, and nothing
// else. lightwalletd is not needed here: the fixture's servers stand in for it — the
// reference server over the chain after the reorganization (a server that followed it),
// the same over the chain before (one that did not), and the emulated lightwalletd
// profile (whose answers to a hash the ledger knows).

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { CHAIN_DATA, chainTest, haveChainData } from "../../../test/chain-data.js";
import { loadLedger } from "../../core/ledger/quirk.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { displayHex } from "../codec/index.js";
import { chainFromBlocks } from "../fixture/chain/from-blocks.js";
import type { ChainModel } from "../fixture/chain/model.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { deriveFromOracle } from "../oracle/derive.js";
import type { GrpcDeriver } from "../oracle/source.js";
import { darksideChainSources } from "./darkside-chains.js";
import { reorgBranch, type ReorgBranch } from "./darkside-reorg-branch.js";
import { reorgChecks, type ReorgCheck, type ReorgSubject } from "./darkside-reorg-checks.js";
import { ingestorLog, watchConvergence, type Convergence } from "./darkside-reorg-watch.js";

const ledger = loadLedger(new URL("../../../cases/quirks.yaml", import.meta.url).pathname);
const standIn = { name: "stand-in", implementation: "other" };
const lightwalletd = { name: "lightwalletd (emulated)", implementation: "lightwalletd", version: "0.5.4" };

const byCheck = (checks: ReorgCheck[]) => checks.map((c) => `${c.check} ${c.rpc} ${c.heights.join(",")} ${c.result}`);

describe("reorganization checks, depth 3 on testnet 380640–380643", () => {
  let model: ChainModel;
  let branch: ReorgBranch;
  let after: ChainModel;
  let followed: FixtureNetwork;
  let stayed: FixtureNetwork;
  let derive: GrpcDeriver;
  const targets: GrpcTarget[] = [];
  const target = (url: string) => {
    const t = grpcTarget({ url });
    targets.push(t);
    return t;
  };
  const subject = (convergence: Convergence): ReorgSubject => ({
    after,
    forkHeight: branch.forkHeight,
    convergence,
    orphaned: model.blocks.filter((b) => b.height >= branch.forkHeight).map((b) => b.block),
  });

  beforeAll(async () => {
    if (!haveChainData) return;
    model = darksideChainSources(CHAIN_DATA)
      .find((s) => s.label === "lightwalletd/testnet-380640-380643.blocks.txt")!
      .load().model;
    branch = reorgBranch(
      model,
      model.blocks.map((b) => b.raw),
      3,
      1,
    );
    after = chainFromBlocks(branch.chain, { network: model.network, label: "after", trees: {} });
    followed = await startFixtureNetwork({ chain: after, profiles: ["reference", "lightwalletd"] });
    stayed = await startFixtureNetwork({ chain: model, profiles: ["reference"] });
    derive = deriveFromOracle(jsonRpcTarget({ url: followed.jsonrpc, auth: { kind: "cookie", cookieFile: followed.cookie } }));
  });
  afterAll(async () => {
    for (const t of targets) await t.close();
    await followed?.close();
    await stayed?.close();
  });

  chainTest("a server that followed: converged at the first poll, every check equal", async () => {
    const t = target(followed.grpc.reference!);
    const convergence = await watchConvergence(t, { branch: branch.blocks, forkHeight: branch.forkHeight }, { deadlineMs: 5000 });
    expect(convergence).toMatchObject({ polls: 1, orphanedPolls: 0, orphanedServed: [] });
    expect(convergence.tipMs).not.toBeNull();
    const checks = await reorgChecks(t, derive, { ledger, build: standIn }, subject(convergence));
    // The block at 380643 held a second transaction, which the branch does not.
    expect(model.blocks.map((b) => b.block.transactions.length)).toEqual([1, 1, 1, 2]);
    expect(byCheck(checks)).toEqual([
      "converged (watch) 380643 equal",
      "tip GetLatestBlock 380643 equal",
      "block GetBlock 380641 equal",
      "block-nullifiers GetBlockNullifiers 380641 equal",
      "block GetBlock 380642 equal",
      "block-nullifiers GetBlockNullifiers 380642 equal",
      "block GetBlock 380643 equal",
      "block-nullifiers GetBlockNullifiers 380643 equal",
      "range GetBlockRange 380640,380641,380642,380643 equal",
      "range-descending GetBlockRange 380643,380642,380641,380640 equal",
      "nullifier-range GetBlockRangeNullifiers 380640,380641,380642,380643 equal",
      "orphaned-hash GetBlock 380643 equal",
      "orphaned-hash GetBlockNullifiers 380643 equal",
      "orphaned-transaction GetTransaction 380643 equal",
      "served-while-converging GetBlock  equal",
    ]);
    expect(checks.find((c) => c.check === "orphaned-hash")!.status.code).toBe("NOT_FOUND");
  });

  chainTest("a server still on the orphaned blocks: not converged by the deadline, and every check but the untouched ones is a new difference", async () => {
    const t = target(stayed.grpc.reference!);
    const convergence = await watchConvergence(t, { branch: branch.blocks, forkHeight: branch.forkHeight }, { deadlineMs: 300, pollMs: 50 });
    expect(convergence).toMatchObject({ tipMs: null, blocksMs: null, orphanedPolls: 0 });
    const checks = await reorgChecks(t, derive, { ledger, build: standIn }, subject(convergence));
    const results = Object.fromEntries(checks.map((c) => [`${c.check} ${c.rpc} ${c.heights.join(",")}`, c.result]));
    expect(results).toMatchObject({
      "converged (watch) 380643": "unexplained",
      "tip GetLatestBlock 380643": "unexplained",
      "block GetBlock 380641": "unexplained",
      "block GetBlock 380643": "unexplained",
      "range GetBlockRange 380640,380641,380642,380643": "unexplained",
      "orphaned-hash GetBlock 380643": "unexplained",
      "orphaned-transaction GetTransaction 380643": "unexplained",
      "served-while-converging GetBlock ": "equal",
    });
    const range = checks.find((c) => c.check === "range")!;
    // Below the fork the chain is the same; from it on, every hash, and every prevHash above it, differs.
    expect(range.differences.map((d) => d.path)).toEqual(["[1].hash", "[2].hash", "[2].prevHash", "[3].hash", "[3].prevHash"]);
    expect(range.differences[0]).toMatchObject({
      expected: Buffer.from(branch.blocks[0]!.hash).toString("hex"),
      lightwalletd: Buffer.from(model.blocks[1]!.block.hash).toString("hex"),
    });
  });

  chainTest("lightwalletd's refusal of any hash and its cache serving orphaned blocks are the ledger's; for another server they are new", async () => {
    const t = target(followed.grpc.lightwalletd!);
    const served: Convergence = {
      deadlineMs: 5000,
      tipMs: 3,
      blocksMs: 2000,
      polls: 21,
      orphanedPolls: 20,
      orphanedServed: [{ height: 380643, hash: displayHex(model.blocks[3]!.block.hash), expected: displayHex(branch.blocks[2]!.hash) }],
    };
    const explained = await reorgChecks(t, derive, { ledger, build: lightwalletd }, subject(served));
    const of = (checks: ReorgCheck[], check: string) =>
      checks.filter((c) => c.check === check).map((c) => [c.result, ...c.differences.map((d) => d.explanation)]);
    expect(of(explained, "orphaned-hash")).toEqual([
      ["explained", "lwd-getblock-by-hash-unimplemented"],
      ["explained", "lwd-getblock-by-hash-unimplemented"],
    ]);
    expect(of(explained, "served-while-converging")).toEqual([["explained", "lwd-reorg-cache-lag"]]);
    const fresh = await reorgChecks(t, derive, { ledger, build: standIn }, subject(served));
    expect(of(fresh, "orphaned-hash")).toEqual([
      ["unexplained", null],
      ["unexplained", null],
    ]);
    expect(of(fresh, "served-while-converging")).toEqual([["unexplained", null]]);
  });

  chainTest("the ingestor check holds the log to the orphaned blocks dropped top down and the branch added bottom up", async () => {
    const line = (msg: string) => JSON.stringify({ app: "lightwalletd", level: "info", msg, time: "2026-12-02T14:23:32Z" });
    const drop = (h: number, b: { hash: Uint8Array }) => line(`REORG: dropping block ${h} ${displayHex(b.hash)}`);
    const add = (h: number, b: { hash: Uint8Array }) => line(`Adding block to cache ${h} ${displayHex(b.hash)}`);
    const orphaned = model.blocks
      .slice(1)
      .reverse()
      .map((b) => drop(b.height, b.block));
    const added = branch.blocks.map((b, i) => add(branch.forkHeight + i, b));
    const good = [...orphaned, ...added].join("\n");
    const t = target(followed.grpc.reference!);
    const convergence = await watchConvergence(t, { branch: branch.blocks, forkHeight: branch.forkHeight }, { deadlineMs: 5000, log: () => good });
    expect(convergence.cachedMs).not.toBeNull();
    const ingestor = (text: string) =>
      reorgChecks(t, derive, { ledger, build: standIn }, { ...subject(convergence), ingestor: ingestorLog(text) }).then(
        (checks) => checks.find((c) => c.check === "ingestor")!,
      );
    expect((await ingestor(good)).result).toBe("equal");
    const first = model.blocks[0]!;
    const tooDeep = [...orphaned, drop(first.height, first.block), add(first.height, first.block), ...added].join("\n");
    expect((await ingestor(tooDeep)).differences.map((d) => [d.path, d.explanation])).toEqual([
      ["dropped", null],
      ["added", null],
    ]);
  });
});
