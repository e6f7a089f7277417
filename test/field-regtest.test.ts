// An indexer author's own regtest: real zebrad on Regtest holding the committed regtest
// chain (golden/regtest/chain, replayed), real lightwalletd started by hand on it, both
// named plainly in a config with `chain: regtest`, and one `zconform run`. The run finds
// the chain's anchors itself from the blocks and mempool zebrad serves (the profile's
// `discover`), so nearly the whole gRPC corpus is planned, and the ledger matches what the
// builds are (implementation, version, the node behind them), not names the regtest
// command gives them: exit 0, as `zconform regtest` gives on the same servers.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadCorpus } from "../src/core/corpus/load.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { loadPins, pinsOf, isInstalled } from "../src/zcash/real/pins.js";
import { readReplay, replayChain } from "../src/zcash/real/regtest-replay.js";
import { startZebrad, type RunningZebrad } from "../src/zcash/real/zebrad.js";
import { REPO, runCli } from "./tools/cli.js";
import { lightwalletdByHand } from "./tools/lightwalletd-by-hand.js";
import { realGate } from "./tools/real-gate.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const { pin, installed: zebradInstalled } = realGate("zebrad");
const lwdPin = pinsOf(loadPins(), "lightwalletd")[0]!;
const installed = zebradInstalled && isInstalled(lwdPin);
const realTest = installed ? test : test.skip;

interface Report {
  exitCode: number;
  summary: { cases: number; skipped: number; stale: unknown[]; outcomes: Record<string, number> };
  cases: { caseId: string; transport: string; skipped?: string }[];
  divergences: { caseId: string; build: string; kind: string; quirk: string | null }[];
  builds: { name: string; version?: string; node?: { implementation: string } }[];
}

describe(`an indexer author's regtest: zebrad ${pin.version} and lightwalletd ${lwdPin.version}, named plainly`, () => {
  let zebrad: RunningZebrad;
  let lwd: ChildProcess | undefined;
  let dir: TempDir;
  let run: { code: number | null; stdout: string; stderr: string };
  let report: Report;

  beforeAll(async () => {
    if (!installed) return;
    const replay = readReplay(join(REPO, "golden", "regtest", "chain"));
    zebrad = await startZebrad(pin, {
      minerAddress: replay.transact?.miner ?? "tmJymvcUCn1ctbghvTJpXBwHiMEB8P6wxNV",
      activationHeights: replay.activationHeights,
    });
    await replayChain(zebrad, replay);
    dir = tempDir("zconform-field-regtest-");
    const started = await lightwalletdByHand(lwdPin, dir, zebrad.nodeRpc(), replay.blocks.length - 1);
    lwd = started.child;
    const config = dir.write(
      "zconform.config.yaml",
      [
        "chain: regtest",
        "oracle:",
        `  jsonrpc: { url: ${zebrad.jsonrpc.url}, cookieFile: ${zebrad.cookieFile} }`,
        "builds:",
        "  - name: zebrad",
        "    implementation: zebrad",
        `    grpc: { url: ${zebrad.grpcUrl} }`,
        "  - name: lightwalletd",
        "    implementation: lightwalletd",
        `    grpc: { url: ${started.grpcUrl} }`,
        "",
      ].join("\n"),
    );
    const json = join(dir.path, "report.json");
    run = await runCli(["run", "-c", config, "--json", json], 600_000);
    report = JSON.parse(readFileSync(json, "utf8")) as Report;
  }, 900_000);

  afterAll(async () => {
    lwd?.kill("SIGKILL");
    await zebrad?.close();
    dir?.remove();
  });

  realTest("at least 90% of the gRPC corpus is planned, every skip saying why", () => {
    const grpc = loadCorpus(join(REPO, "cases"), lightwalletProtocol).filter((c) => c.transport === "grpc");
    const ran = report.cases.filter((c) => c.transport === "grpc" && !c.skipped);
    expect(ran.length / grpc.length).toBeGreaterThanOrEqual(0.9);
    for (const c of report.cases.filter((x) => x.skipped)) expect(c.skipped).toMatch(/\w/);
  });

  realTest("exit 0: every divergence known, nothing stale, nothing unchecked", () => {
    expect({ code: run.code, tail: run.code === 0 ? "" : run.stdout.slice(-2000) + run.stderr.slice(-1500) }).toEqual({ code: 0, tail: "" });
    expect(report.divergences.filter((d) => d.quirk === null).map((d) => `${d.caseId} ${d.build} ${d.kind}`)).toEqual([]);
    expect(report.summary.stale).toEqual([]);
    expect(report.summary.outcomes.unchecked).toBe(0);
  });

  realTest("each build is known by what it reports: versions, and lightwalletd's node", () => {
    const byName = new Map(report.builds.map((b) => [b.name, b]));
    expect(byName.get("zebrad")).toMatchObject({ version: `v${pin.version}` });
    expect(byName.get("lightwalletd")).toMatchObject({ version: lwdPin.version, node: { implementation: "zebrad" } });
  });
});
