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
import { jsonRpcTarget } from "../src/core/targets/jsonrpc.js";
import { nodeCall, type NodeCall } from "../src/zcash/real/node-call.js";
import { isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { realBuildName } from "../src/zcash/real/servers.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { realGate } from "./tools/real-gate.js";
import { testIf } from "./tools/skips.js";
import { CASES } from "./tools/real-fidelity.js";

const { pin, installed, realTest } = realGate("zebrad");
const zainods = pinsOf(loadPins(), "zainod");
const zaino090 = zainods.find((p) => p.version === "0.9.0");
const zainosTest = testIf(
  installed && zainods.every((p) => isInstalled(p)) && zaino090 !== undefined,
  `need real zebrad ${pin.version} and every pinned zainod (npm run real:install -- --only zainod)`,
);
const MINE_EVERY_MS = 3_000;
const quiet = { stdout: () => {}, stderr: () => {} };

/** A verbose transaction object, as far as this suite reads it. */
interface TxObject {
  time?: number;
  blocktime?: number;
  confirmations?: number;
  height?: number;
}

/** Polls until the server's getblockcount reaches `tip`. */
async function caughtUp(call: NodeCall, tip: number): Promise<void> {
  const until = Date.now() + 60_000;
  while ((await call<number>("getblockcount")) < tip) {
    if (Date.now() > until) throw new Error(`still behind block ${tip} after 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

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
  /** getrawtransaction <a mempool txid> 1, per server: while it waits, and once a block of the moving run took it. */
  const waiting: Record<string, TxObject> = {};
  const minedTx: Record<string, TxObject> = {};
  let closeTargets = async (): Promise<unknown> => undefined;

  beforeAll(async () => {
    if (!installed) return;
    dir = mkdtempSync(join(tmpdir(), "zconform-real-moving-"));
    prepared = await prepareRegtestRun({ dir, cases: CASES, profiles: ["reference"] }, quiet);
    real = new Set(prepared.inputs.config.builds.filter((b) => b.pin !== undefined).map((b) => b.name));
    still = await runSession({ ...prepared.inputs, reporters: [], protocol: lightwalletProtocol });
    const z = prepared.net.zebrad;
    // The wallet's first mempool transaction, asked of zebrad and of each zainod's own JSON-RPC.
    const txid = prepared.net.transact?.mempool[0]?.txid;
    const zainoTargets = prepared.net.indexers.flatMap((s) => (s.jsonrpc ? [{ name: realBuildName(s.pin), target: jsonRpcTarget(s.jsonrpc) }] : []));
    closeTargets = () => Promise.all(zainoTargets.map((t) => t.target.close()));
    const askers: [string, NodeCall][] = [["zebrad", z.rpc], ...zainoTargets.map((t): [string, NodeCall] => [t.name, nodeCall(t.target, t.name)])];
    const ask = async (into: Record<string, TxObject>) => {
      for (const [name, call] of askers) into[name] = await call<TxObject>("getrawtransaction", [txid, 1]);
    };
    if (txid) await ask(waiting);
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
    const tip = await z.rpc<number>("getblockcount");
    mined = tip - start;
    if (txid) {
      for (const [, call] of askers) await caughtUp(call, tip);
      await ask(minedTx);
    }
  }, 1_800_000);

  afterAll(async () => {
    await closeTargets();
    await prepared?.inputs.network?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  realTest("blocks arrived during the run, and cases the movement made diverge were asked again", () => {
    expect(mined).toBeGreaterThan(1);
    expect(moving.summary.chainMotion?.reasked).toBeGreaterThan(0);
  });

  realTest("the moving run has no new divergence that the still run does not have", () => {
    const before = new Set(fresh(still, real));
    const extra = fresh(moving, real).filter((d) => !before.has(d));
    // When it fails: how those cases were asked again, and each build's lag, to tell why.
    const ids = new Set(extra.map((d) => d.split(" ")[0]));
    const why =
      extra.length === 0
        ? {}
        : {
            reasked: moving.results.filter((r) => ids.has(r.caseId)).map((r) => ({ id: r.caseId, ...r.reasked, unsettled: undefined })),
            lag: moving.summary.chainMotion?.lag,
          };
    expect({ extra, why }).toEqual({ extra: [], why: {} });
  });

  realTest("the moving run still judges its cases: few never saw the chain hold still through an attempt", () => {
    // Those are could-not-check (the chain moved through each of their attempts), which
    // would hide divergences if they were many.
    const unsettled = moving.results.filter((r) => r.reasked?.unsettled).map((r) => r.caseId);
    expect(unsettled.length).toBeLessThanOrEqual(Math.ceil(moving.results.length / 10));
  });

  realTest("each real build's lag behind zebrad is measured as a figure", () => {
    const lag = moving.summary.chainMotion?.lag ?? {};
    const measured = Object.keys(lag).filter((b) => real.has(b));
    expect(measured.length).toBeGreaterThan(0);
    for (const b of measured) expect(lag[b]!.samples).toBeGreaterThan(0);
  });

  zainosTest(
    "a mempool transaction mined during the run comes back from zainod 0.9.0 without time and blocktime, where zebrad and zainod 0.10.1 send both (zaino-getrawtransaction-mined-during-run)",
    () => {
      const z090 = realBuildName(zaino090!);
      // While it waits, no server sends a block time.
      for (const [name, tx] of Object.entries(waiting))
        expect({ name, time: tx.time, blocktime: tx.blocktime }).toEqual({ name, time: undefined, blocktime: undefined });
      // Once mined: zebrad (the oracle) sends both, and so does every zainod but 0.9.0.
      expect(minedTx.zebrad?.confirmations).toBeGreaterThan(0);
      for (const [name, tx] of Object.entries(minedTx)) {
        const hasTimes = tx.time !== undefined && tx.blocktime !== undefined;
        expect({ name, hasTimes }).toEqual({ name, hasTimes: name !== z090 });
      }
      expect(Object.keys(minedTx).length).toBe(1 + zainods.length);
    },
  );
});
