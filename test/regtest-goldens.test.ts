// The goldens of real servers on zebrad's regtest chain (golden/regtest/), and the chain
// they were recorded on (golden/regtest/chain), which `zconform regtest --golden` gives to
// a fresh zebrad. The chain is checked here without zebrad: its blocks link from the
// regtest genesis, its mempool holds the pair of transactions the shared-suffix probe
// needs, and every golden names a case of the corpus and a real build or the oracle.
// Where zebrad is installed, the replayed run is compared with the goldens.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { prepareRegtestRun, goldenChainFolder, type PreparedRegtestRun } from "../src/cli/regtest.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { runSession, type SessionResult } from "../src/core/run/session.js";
import { goldenDrift } from "../src/modes/golden/drift.js";
import { PROVENANCE_FILE } from "../src/modes/golden/provenance.js";
import { bytesEqual, decodeBlockHex, decodeTransaction, displayHex } from "../src/zcash/codec/index.js";
import { sharedLastByte } from "../src/zcash/fixture/chain/anchors.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { readReplay } from "../src/zcash/real/regtest-replay.js";
import { REGTEST_GENESIS_HASH } from "../src/zcash/server-chains.js";
import { computeTxid } from "../src/zcash/codec/txid.js";
import { realGate } from "./tools/real-gate.js";
import { CASES } from "./tools/real-fidelity.js";

const GOLDEN = "golden";
const chainFolder = goldenChainFolder(GOLDEN);

// A failure names what each side answered, not only where they differ (a loaded run's one-off is then readable).
function details(ds: readonly { detail: string }[]): string {
  return ds.map((d) => `: ${d.detail}`).join("");
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

describe("the regtest chain the goldens were recorded on", () => {
  const replay = readReplay(chainFolder);

  test("every block follows the one before it, from zebrad's regtest genesis", () => {
    const blocks = replay.blocks.map((hex) => decodeBlockHex(hex));
    expect(displayHex(blocks[0]!.hash)).toBe(REGTEST_GENESIS_HASH);
    blocks.slice(1).forEach((b, i) => expect(bytesEqual(b.header.prevHash, blocks[i]!.hash)).toBe(true));
    expect(blocks.some((b) => (b.transactions[0]!.orchard?.actions.length ?? 0) > 0)).toBe(true);
  });

  test("its mempool holds two transactions whose txids end in the same byte (GetMempoolTx/exclude-shared-suffix)", () => {
    const txids = replay.mempool.map((raw) => computeTxid(decodeTransaction(raw), raw));
    expect(txids).toHaveLength(2);
    expect(sharedLastByte(txids)).toMatch(/^[0-9a-f]{2}$/);
  });

  test("every golden is a real build's or the oracle's answer to a case of the corpus", () => {
    const ids = new Set(loadCorpus(CASES, lightwalletProtocol).map((c) => c.id));
    const root = join(GOLDEN, "regtest");
    const sides = readdirSync(root).filter((n) => n !== "chain");
    expect(sides).toEqual(expect.arrayContaining(["oracle", "lightwalletd-v0.5.4", "zebrad-7.0.0", "zaino-0.10.1", "zaino-0.9.0"]));
    expect(sides).not.toContain("emulated");
    for (const side of sides) {
      for (const f of files(join(root, side)).filter((f) => basename(f) !== PROVENANCE_FILE)) {
        const g = JSON.parse(readFileSync(f, "utf8")) as { caseId: string };
        expect(`${relative(root, f)}: ${ids.has(g.caseId)}`).toBe(`${relative(root, f)}: true`);
      }
    }
  });
});

const { installed, realTest } = realGate("zebrad");

describe("a replay of the recorded chain against its goldens", () => {
  let dir: string;
  let prepared: PreparedRegtestRun;
  let run: SessionResult;

  beforeAll(async () => {
    if (!installed) return;
    dir = mkdtempSync(join(tmpdir(), "zconform-regtest-golden-"));
    prepared = await prepareRegtestRun({ dir, cases: CASES, golden: GOLDEN }, { stdout: () => {}, stderr: () => {} });
    const emulated = new Set(prepared.inputs.config.builds.filter((b) => b.emulated).map((b) => b.name));
    run = await runSession({
      ...prepared.inputs,
      reporters: [],
      protocol: lightwalletProtocol,
      drift: goldenDrift(lightwalletProtocol, GOLDEN, "regtest", emulated, prepared.inputs.goldenSides),
    });
  }, 600_000);
  afterAll(async () => {
    await prepared?.inputs.network?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  realTest("zebrad serves the recorded blocks, and no real server's answer drifted from its golden", () => {
    expect(prepared.replayedFrom).toBe(chainFolder);
    const drifted = run.results.flatMap((r) =>
      (r.drift ?? []).filter((d) => d.status !== "unchanged").map((d) => `${r.caseId} ${d.build} ${d.status}${details(d.divergences)}`),
    );
    expect(drifted).toEqual([]);
    expect(run.summary.drifted).toBe(0);
  });

  realTest("every build is explained by the ledger, each against the node it is backed by", () => {
    const fresh = run.results.flatMap((r) =>
      r.divergences.filter((d) => d.quirk === null).map((d) => `${d.caseId} ${d.build} ${d.kind} ${d.path}${details([d])}`),
    );
    expect(fresh).toEqual([]);
    expect(run.summary.stale).toEqual([]);
    const fixtureBuilds = prepared.inputs.config.builds.filter((b) => b.emulated || b.name === "reference");
    expect(fixtureBuilds.every((b) => b.oracle === "fixture")).toBe(true);
    expect(run.exitCode).toBe(0);
  });
});
