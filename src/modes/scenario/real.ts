// Scenarios on a wholly real network: zebrad mines the chain a `regtest` run mines (the
// wallet's transactions in it) and moves it with generate, sendrawtransaction and
// invalidateblock (zcash/scenario/zebrad-mover.ts); zebrad's built-in server and every
// installed real lightwalletd and zainod follow it, and zebrad's JSON-RPC is the oracle.
// What is not installed is a note; zebrad itself is required.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainProfile } from "../../core/corpus/chain-profile.js";
import type { ScenarioRecord } from "../../core/scenario/record.js";
import type { Build } from "../../core/targets/config.js";
import type { Anchors } from "../../core/corpus/anchors.js";
import { chainAnchors } from "../../zcash/fixture/chain/anchors.js";
import { defaultRecipe } from "../../zcash/real/regtest-chain.js";
import { startRegtestNetwork } from "../../zcash/real/regtest-network.js";
import { REAL_DEADLINE_MS } from "../../zcash/real/servers.js";
import { walletKeys } from "../../zcash/real/regtest-transact.js";
import { zebradMover } from "../../zcash/scenario/zebrad-mover.js";
import { runScenariosOn, type ScenarioRunOptions } from "./run.js";

export interface RealScenarioOptions extends Omit<ScenarioRunOptions, "chain"> {
  /** The chain profile for the chain zebrad mined, from its anchors. */
  chain: (anchors: Anchors) => ChainProfile;
  /** Which indexers to start beside zebrad; default both. */
  indexers?: ("lightwalletd" | "zainod")[];
  pinsFile?: string;
  keepLogs?: boolean;
  /** Told what the network is doing while it starts. */
  progress?: (line: string) => void;
}

export interface RealScenarioRun {
  builds: Build[];
  oracle: string;
  /** The node, as reports name it: "zebrad 7.0.0". */
  node: string;
  records: ScenarioRecord[];
  /** What was not started and why. */
  notes: string[];
}

export async function runScenariosOnRegtest(o: RealScenarioOptions): Promise<RealScenarioRun> {
  const dir = mkdtempSync(join(tmpdir(), "zconform-scenario-"));
  try {
    o.progress?.("Starting zebrad on regtest and mining the regtest chain with the wallet's transactions…");
    const net = await startRegtestNetwork({
      recipe: defaultRecipe({ minerAddress: walletKeys().miner.address }),
      transact: true,
      blocksFile: join(dir, "blocks.txt"),
      ...(o.indexers ? { indexers: o.indexers } : {}),
      ...(o.pinsFile ? { pinsFile: o.pinsFile } : {}),
      ...(o.keepLogs ? { keep: true } : {}),
    });
    try {
      for (const note of net.notes) o.progress?.(note);
      // The deadline every real-server run gives its real builds: slow under load is not stuck.
      const builds = net.realBuilds({ deadlineMs: REAL_DEADLINE_MS });
      o.progress?.(`zebrad ${net.zebrad.pin.version} at height ${net.tip}; builds: ${builds.map((b) => b.name).join(", ")}`);
      const records = await runScenariosOn(
        { builds, oracle: net.zebrad.jsonrpc, mover: zebradMover(net.zebrad.rpc) },
        { ...o, chain: o.chain(chainAnchors(net.fixture.model)) },
      );
      return { builds, oracle: net.zebrad.jsonrpc.url, node: `zebrad ${net.zebrad.pin.version}`, records, notes: net.notes };
    } finally {
      await net.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
