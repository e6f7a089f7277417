// A build that does not follow the moving chain fails its checks and the run, where the
// reference, reading the node at once, passes them.

import { create } from "@bufbuild/protobuf";
import { createHook } from "node:async_hooks";
import { describe, expect, test } from "@jest/globals";
import { loadChainProfile } from "../../core/corpus/chain-profile.js";
import { loadCorpus } from "../../core/corpus/load.js";
import { SHIPPED_CASES } from "../../core/corpus/shipped.js";
import { parseScenarioFile } from "../../core/scenario/load.js";
import { ChainSpecSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { scenarioDocument } from "./document.js";
import { runScenariosOnFixture } from "./fixture.js";

const scenario = parseScenarioFile(
  ["id: frozen", "convergeMs: 600", "steps:", "  - mine: 2", "  - wait: { until: tip }", "    checks:", "      - case: GetLatestBlock/tip"].join("\n"),
  "cases/scenarios/frozen.yaml",
  { methods: lightwalletProtocol, corpus: loadCorpus(SHIPPED_CASES, lightwalletProtocol) },
);

describe("scenarios on the fixture network", () => {
  test("a build whose GetLatestBlock stays on the chain it started with never reaches the tip: its check is new and the run exits 1", async () => {
    const run = await runScenariosOnFixture({
      scenarios: [scenario],
      chain: loadChainProfile(SHIPPED_CASES, "fixture"),
      ledger: [],
      profiles: ["reference", "lightwalletd"],
      // lightwalletd's server answers GetLatestBlock with the tip the chain had when it started, for ever.
      wrap: {
        grpc: (profile) =>
          profile === "lightwalletd"
            ? (impl) => {
                const start = impl.getLatestBlock(create(ChainSpecSchema), {} as never);
                return { ...impl, getLatestBlock: () => start };
              }
            : undefined,
      },
    });
    const [record] = run.records;
    const wait = record!.steps[1]!;
    expect(wait.action).toEqual({
      kind: "wait-tip",
      builds: [
        { build: "reference", ms: expect.any(Number) },
        { build: "lightwalletd", ms: null },
      ],
    });
    expect(wait.checks[0]!.builds.map((b) => [b.build, b.outcome])).toEqual([
      ["reference", "pass"],
      ["lightwalletd", "new"],
    ]);
    const doc = scenarioDocument({
      startedAt: new Date(),
      chain: "fixture",
      builds: [],
      network: { kind: "fixture", timingScale: run.timingScale },
      oracle: run.oracle,
      records: run.records,
      durationMs: 1,
    });
    expect(doc.exitCode).toBe(1);
    expect(record!.tips.map((t) => t.served.lightwalletd)).toEqual([null, null]);
  }, 180_000);

  test("Ctrl-C in a step: the scenario ends where it stands within a moment, no other starts, and the report says so with exit 130", async () => {
    const corpus = loadCorpus(SHIPPED_CASES, lightwalletProtocol);
    const long = (id: string) =>
      parseScenarioFile([`id: ${id}`, "steps:", "  - mine: 1", "  - wait: { ms: 60000 }", "  - mine: 1"].join("\n"), `cases/scenarios/${id}.yaml`, {
        methods: lightwalletProtocol,
        corpus,
      });
    // Every timer set during the run, to see which are still pending after it.
    const timers: { _idleTimeout: number; _destroyed: boolean; hasRef(): boolean }[] = [];
    const hook = createHook({ init: (_id, type, _trigger, t) => type === "Timeout" && timers.push(t as (typeof timers)[number]) }).enable();
    const controller = new AbortController();
    const started = performance.now();
    let stoppedAt = 0;
    const run = await runScenariosOnFixture({
      scenarios: [long("first"), long("second")],
      chain: loadChainProfile(SHIPPED_CASES, "fixture"),
      ledger: [],
      profiles: ["reference"],
      signal: controller.signal,
      onStep: (_s, step) => {
        if (step.index === 1) setTimeout(() => controller.abort({ signal: "SIGINT", exitCode: 130 }), 200);
      },
      onScenario: () => {
        stoppedAt = performance.now();
      },
    });
    expect(run.records.map((r) => [r.id, r.steps.length, r.error])).toEqual([["first", 1, "interrupted by SIGINT"]]);
    // The 60 s wait was cut: the scenario ended soon after the signal (generous for a loaded machine).
    expect(stoppedAt - started).toBeLessThan(30_000);
    hook.disable();
    // Nor does the wait's timer outlive the run (it would hold the process for a minute).
    expect(timers.filter((t) => !t._destroyed && t._idleTimeout >= 30_000 && t.hasRef()).map((t) => t._idleTimeout)).toEqual([]);
    const doc = scenarioDocument({
      startedAt: new Date(),
      chain: "fixture",
      builds: [],
      network: { kind: "fixture", timingScale: run.timingScale },
      oracle: run.oracle,
      records: run.records,
      durationMs: 1,
      interrupted: { signal: "SIGINT", exitCode: 130 },
    });
    expect([doc.exitCode, doc.interrupted]).toEqual([130, "SIGINT"]);
  }, 120_000);
});
