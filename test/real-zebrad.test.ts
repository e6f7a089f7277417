// Real zebrad (the zebrad pin of real-servers.yaml) on a regtest chain of its own: it
// mines a hundred blocks, real lightwalletd and zainod index its JSON-RPC, the fixture
// serves the same blocks, and the block, tree and address rpcs of the corpus run against
// them all with zebrad's JSON-RPC as the oracle. Without the binary the suite is skipped,
// under CI=true too: a cargo build of zebrad takes over an hour on two cores, longer than
// CI can wait, so CI runs it only where the machine already has it
// (npm run real:install -- --only zebrad).

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareRegtestRun, regtestDocument, type PreparedRegtestRun } from "../src/cli/regtest.js";
import { runSession, type SessionResult } from "../src/core/run/session.js";
import { decodeBlock, displayHex, hexToBytes } from "../src/zcash/codec/index.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { realGate } from "./tools/real-gate.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { schemaErrors } from "./schemas.test-helper.js";
import { CASES } from "./tools/real-fidelity.js";

const { pin, installed, realTest } = realGate("zebrad");
// The chain is mined without the wallet's transactions, so the mempool cases probe an empty mempool.
const METHODS = [
  "GetLatestBlock",
  "GetBlock",
  "GetBlockRange",
  "GetTreeState",
  "GetTaddressBalance",
  "GetAddressUtxos",
  "GetMempoolTx",
  "GetMempoolStream",
  "getblock",
  "getblockchaininfo",
  "z_gettreestate",
  "getrawmempool",
  "getmempoolinfo",
];
const quiet = { stdout: () => {}, stderr: () => {} };

describe(`real zebrad ${pin.version} on regtest`, () => {
  let dir: string;
  let prepared: PreparedRegtestRun;
  let run: SessionResult;
  const startedAt = new Date();

  beforeAll(async () => {
    if (!installed) return;
    dir = mkdtempSync(join(tmpdir(), "zconform-real-zebrad-"));
    prepared = await prepareRegtestRun({ dir, cases: CASES, method: METHODS, blocks: 100, transact: false }, quiet);
    run = await runSession({ ...prepared.inputs, reporters: [], protocol: lightwalletProtocol });
  }, 600_000);
  afterAll(async () => {
    await prepared?.inputs.network?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  realTest("mines every stretch of the recipe; the blocks file holds each block zebrad names at its height", async () => {
    const net = prepared.net;
    expect(net.tip).toBe(100);
    expect(net.timings.stretches.map((s) => s.pool)).toEqual(["transparent", "orchard", "sapling", "transparent"]);
    const lines = readFileSync(prepared.blocksFile, "utf8").trim().split("\n");
    expect(lines).toHaveLength(101);
    for (const h of [0, 1, 50, 98, 99, 100]) {
      expect(displayHex(decodeBlock(hexToBytes(lines[h]!)).hash)).toBe(await net.zebrad.rpc<string>("getblockhash", [h]));
    }
    const orchard = decodeBlock(hexToBytes(lines[net.timings.stretches[1]!.first]!));
    expect(orchard.transactions[0]!.orchard?.actions.length).toBeGreaterThan(0);
    const sapling = decodeBlock(hexToBytes(lines[net.timings.stretches[2]!.first]!));
    expect(sapling.transactions[0]!.sapling?.outputs.length).toBeGreaterThan(0);
  });

  realTest("the matrix holds zebrad, lightwalletd and zaino (real) beside the reference and the emulations, with zebrad's JSON-RPC as the oracle", () => {
    const builds = prepared.inputs.config.builds;
    const real = builds.filter((b) => !b.emulated && b.pin !== undefined).map((b) => b.name);
    // Every installed version of each indexer's pin runs (zainod 0.10.1 and 0.9.0).
    const indexers = (["lightwalletd", "zainod"] as const).flatMap((n) => pinsOf(loadPins(), n)).filter((p) => isInstalled(p));
    expect(real).toEqual([realBuildName(pin), ...indexers.map(realBuildName)]);
    expect(builds.filter((b) => b.emulated).length).toBeGreaterThan(0);
    expect(builds.some((b) => b.name === "reference")).toBe(true);
    expect(prepared.inputs.config.oracle?.jsonrpc.url).toBe(prepared.net.zebrad.jsonrpc.url);
    // Only pins this machine has not built are left out, each said.
    expect(prepared.net.notes.filter((n) => !/ is not installed /.test(n))).toEqual([]);
  });

  realTest("every divergence of a real build is in the ledger, an empty mempool's answers included", () => {
    const real = new Set(prepared.inputs.config.builds.filter((b) => b.pin !== undefined).map((b) => b.name));
    const fresh = run.results.flatMap((r) =>
      r.divergences.filter((d) => real.has(d.build) && d.quirk === null).map((d) => `${d.caseId} ${d.build} ${d.kind} ${d.path}`),
    );
    expect(fresh).toEqual([]);
    expect(run.results.filter((r) => !r.skipped).length).toBeGreaterThan(0);
    const empty = run.results.filter((r) => r.method === "GetMempoolTx" && !r.skipped);
    expect(empty.length).toBeGreaterThan(0);
    expect(empty.flatMap((r) => (r.oracle ? [r.oracle.count] : []))).toEqual(empty.filter((r) => r.oracle).map(() => 0));
  });

  realTest("regtest.json's document follows schemas/regtest.schema.json", () => {
    const doc = regtestDocument(prepared.net, prepared.recipe, prepared.blocksFile, startedAt, prepared.inputs.config, run.exitCode);
    expect(schemaErrors("regtest", doc)).toEqual([]);
    expect(Object.keys(doc.timings.ingestMs).length).toBe(prepared.net.indexers.length);
  });
});
