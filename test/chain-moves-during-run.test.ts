// A run while the chain grows: the fixture's node mines a block after the first case, the
// emulated Zaino serves it only after its chain head's next poll of the node (5 s here), and
// every case asked in between sees an older tip there than the node's. The run must not
// file that as a divergence of Zaino: it asks such a case again once Zaino serves the new
// tip, says so in the result, and reports how long Zaino took as its lag.

import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { join } from "node:path";
import { loadCorpus } from "../src/core/corpus/load.js";
import { loadLedger } from "../src/core/ledger/quirk.js";
import type { RunEvent } from "../src/core/results/events.js";
import { runSession } from "../src/core/run/session.js";
import { DEFAULT_LIMITS, type RunConfig } from "../src/core/targets/config.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const CASES = join(import.meta.dirname, "..", "cases");
// Answers that follow the tip, so that each case asked before Zaino's next poll diverges.
const METHODS = ["GetLatestBlock", "GetLightdInfo", "GetLatestTreeState"];

let net: FixtureNetwork;
beforeAll(async () => {
  // Zaino's own timing slowed fivefold (its chain head polls the node every 5 s instead of
  // every second): the cases after the block are asked before it has it, however long a
  // loaded machine takes between the block and the next case.
  net = await startFixtureNetwork({ profiles: ["reference", "zaino-0.10.1"], moving: { timingScale: 5 } });
});
afterAll(async () => net.close());

/** A run of the moving network's builds (and `builds` beside them) with its node's JSON-RPC as the oracle. */
function runConfig(builds: RunConfig["builds"]): RunConfig {
  return {
    file: "(test)",
    chain: "fixture",
    defaults: DEFAULT_LIMITS,
    oracle: { jsonrpc: { url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } },
    builds,
  };
}

/** A reporter that mines one block once the run has planned its cases at the start's tip. */
function mineAtStart() {
  return {
    finish: async () => {},
    onEvent: (e: RunEvent) => {
      if (e.type === "run-start") net.moving!.mine();
    },
  };
}

test("a block mined during the run: cases it made diverge are asked again, none is new, and Zaino's lag is measured", async () => {
  const cases = loadCorpus(CASES, lightwalletProtocol).filter((c) => METHODS.includes(c.method) && c.chains === undefined);
  const config = runConfig(net.builds());
  const start = net.moving!.model.tipHeight;
  let mined = false;
  const mineOnce = {
    finish: async () => {},
    onEvent: (e: RunEvent) => {
      if (e.type === "case-result" && !mined) {
        mined = true;
        net.moving!.mine();
      }
    },
  };
  const r = await runSession({
    config,
    cases,
    ledger: loadLedger(join(CASES, "quirks.yaml")),
    reporters: [mineOnce],
    protocol: lightwalletProtocol,
    caseConcurrency: 1,
    chain: { name: "fixture", network: net.model.network.name, anchors: net.anchors, dynamic: {} },
    allowStale: true,
  });
  expect(net.moving!.model.tipHeight).toBe(start + 1);
  const reasked = r.results.filter((c) => c.reasked);
  expect(reasked.length).toBeGreaterThan(0);
  expect(reasked.some((c) => c.reasked!.firstDivergences > 0)).toBe(true);
  for (const c of reasked) expect(c.reasked!.because).toContain(`from height ${start} to ${start + 1}`);
  expect(r.summary.newDivergences).toBe(0);
  expect(r.exitCode).toBe(0);
  expect(r.summary.chainMotion?.reasked).toBe(reasked.length);
  expect(r.summary.chainMotion?.lag["zaino-0.10.1"]?.samples).toBeGreaterThan(0);
}, 120_000);

test("a case past the tip when the run began is asked again past the node's new tip, even after the builds were seen at that tip together", async () => {
  // GetLatestBlock first: Zaino's lag makes those cases re-asked, and the tip they settle
  // at is the one the past-the-tip case then meets.
  const cases = loadCorpus(CASES, lightwalletProtocol).filter(
    (c) => (c.method === "GetLatestBlock" && c.chains === undefined) || c.id === "GetTreeState/tip-plus-1",
  );
  expect(cases.at(-1)!.id).toBe("GetTreeState/tip-plus-1");
  const config = runConfig(net.builds());
  const start = net.moving!.model.tipHeight;
  const r = await runSession({
    config,
    cases,
    ledger: loadLedger(join(CASES, "quirks.yaml")),
    reporters: [mineAtStart()],
    protocol: lightwalletProtocol,
    caseConcurrency: 1,
    chain: { name: "fixture", network: net.model.network.name, anchors: net.anchors, dynamic: { tip: "tip_height", tip_hash: "tip_hash" } },
    allowStale: true,
  });
  expect(r.results.filter((c) => c.method === "GetLatestBlock" && c.reasked).length).toBeGreaterThan(0);
  const past = r.results.find((c) => c.caseId === "GetTreeState/tip-plus-1")!;
  expect(past.reasked?.because).toContain(`from height ${start} to ${start + 1}`);
  // Asked again at the new tip: the height above it, which no build has.
  expect(past.request).toEqual({ height: String(start + 2) });
  expect(past.divergences.filter((d) => d.quirk === null)).toEqual([]);
  expect(r.summary.newDivergences).toBe(0);
}, 120_000);

test("a build measured against a node of its own is not waited for when the run's node moves (it never reaches that node's tip)", async () => {
  // Counted: how often the build on its own node is asked its tip. Waiting for it would poll it every 100 ms until the wait gave up.
  let asked = 0;
  const still = await startFixtureNetwork({
    profiles: ["reference"],
    wrap: {
      grpc: () => (impl) => ({
        ...impl,
        getLatestBlock: (req, ctx) => {
          asked++;
          return impl.getLatestBlock(req, ctx);
        },
      }),
    },
  });
  try {
    const cases = loadCorpus(CASES, lightwalletProtocol).filter((c) => c.method === "GetLatestBlock" && c.chains === undefined);
    const own = { ...still.builds()[0]!, name: "on-its-own-node", oracle: "still" };
    const config: RunConfig = {
      ...runConfig([...net.builds(), own]),
      nodeOracles: { still: { jsonrpc: { url: still.jsonrpc, auth: { kind: "cookie", cookieFile: still.cookie } }, source: { file: "(test)", line: 0 } } },
    };
    const r = await runSession({
      config,
      cases,
      ledger: loadLedger(join(CASES, "quirks.yaml")),
      reporters: [mineAtStart()],
      protocol: lightwalletProtocol,
      caseConcurrency: 1,
      chain: { name: "fixture", network: net.model.network.name, anchors: net.anchors, dynamic: {} },
      allowStale: true,
    });
    expect(r.summary.chainMotion?.reasked).toBeGreaterThan(0);
    expect(Object.keys(r.summary.chainMotion?.lag ?? {})).not.toContain("on-its-own-node");
    // Its own cases, each asked at most six times (the first and five more while the chain
    // moves), and the run's look at the tips at its start; waited for, it would be asked
    // every 100 ms until the wait gave up (30 s).
    expect(asked).toBeLessThanOrEqual(cases.length * 6 + 2);
    expect(r.summary.newDivergences).toBe(0);
  } finally {
    await still.close();
  }
}, 120_000);
