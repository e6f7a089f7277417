// The corpus against real servers while their chain grows: zebrad mines a block every few
// seconds during the run, and real lightwalletd and zainod (and zebrad's own server) follow
// it as they do, lightwalletd polling its node every 2 s. The run must report no divergence
// that the same run on the still chain does not have: what moved is asked again once the
// builds serve the node's tip, and each build's lag is a figure, not a finding. Skipped
// without zebrad (see test/tools/real-gate.ts).

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareRegtestRun, type PreparedRegtestRun } from "../src/cli/regtest.js";
import { runSession, type SessionResult } from "../src/core/run/session.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { realGate } from "./tools/real-gate.js";
import { CASES } from "./tools/real-fidelity.js";

const { pin, installed, realTest } = realGate("zebrad");
const MINE_EVERY_MS = 3_000;
const quiet = { stdout: () => {}, stderr: () => {} };

/** The new divergences of the real builds, one line each. */
function fresh(run: SessionResult, real: ReadonlySet<string>): string[] {
  return run.results
    .flatMap((r) => r.divergences.filter((d) => real.has(d.build) && d.quirk === null).map((d) => `${d.caseId} ${d.build} ${d.kind} ${d.path}`))
    .sort();
}

describe(`the corpus on real zebrad ${pin.version} while it mines a block every ${MINE_EVERY_MS / 1000} s`, () => {
  let dir: string;
  let prepared: PreparedRegtestRun;
  let still: SessionResult;
  let moving: SessionResult;
  let mined: number;
  let real: Set<string>;

  beforeAll(async () => {
    if (!installed) return;
    dir = mkdtempSync(join(tmpdir(), "zconform-real-moving-"));
    prepared = await prepareRegtestRun({ dir, cases: CASES, profiles: ["reference"] }, quiet);
    real = new Set(prepared.inputs.config.builds.filter((b) => b.pin !== undefined).map((b) => b.name));
    still = await runSession({ ...prepared.inputs, reporters: [], protocol: lightwalletProtocol });
    const z = prepared.net.zebrad;
    const start = await z.rpc<number>("getblockcount");
    let running = true;
    const miner = (async () => {
      while (running) {
        await new Promise((r) => setTimeout(r, MINE_EVERY_MS));
        if (running) await z.mine(1);
      }
    })();
    try {
      moving = await runSession({ ...prepared.inputs, reporters: [], protocol: lightwalletProtocol });
    } finally {
      running = false;
      await miner;
    }
    mined = (await z.rpc<number>("getblockcount")) - start;
  }, 1_800_000);

  afterAll(async () => {
    await prepared?.inputs.network?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  realTest("blocks arrived during the run, and cases the movement made diverge were asked again", () => {
    expect(mined).toBeGreaterThan(1);
    expect(moving.summary.chainMotion?.reasked).toBeGreaterThan(0);
  });

  realTest("the moving run has no new divergence that the still run does not have", () => {
    const before = new Set(fresh(still, real));
    expect(fresh(moving, real).filter((d) => !before.has(d))).toEqual([]);
  });

  realTest("each real build's lag behind zebrad is measured as a figure", () => {
    const lag = moving.summary.chainMotion?.lag ?? {};
    const measured = Object.keys(lag).filter((b) => real.has(b));
    expect(measured.length).toBeGreaterThan(0);
    for (const b of measured) expect(lag[b]!.samples).toBeGreaterThan(0);
  });
});
