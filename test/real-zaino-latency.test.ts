// The emulated Zaino plateau, calibrated against real zainod: every installed zainod pin
// and the Zaino profile of its version, on the same fixture chain over loopback, hold the
// same probed answers for the client's delayed ACK. An answer is held when its last byte
// comes FLOOR_MS or more after its first (p10 over the calls): that is the trailers
// waiting for the ACK, whatever time the server spent before answering (real zainod's
// GetTreeState spends ~10 ms asking its node, which the emulation does not). Linux only
// (its delayed-ACK timer); without the binaries the suite is skipped, saying so, as the
// other real-zainod suites are. 15 calls per probe after 3 warm-ups, one at a time (25 for
// the latency probe, whose floor needs 80% of them).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { grpcTarget } from "../src/core/targets/grpc.js";
import { runLatency } from "../src/modes/latency/latency.js";
import { FLOOR_MS } from "../src/modes/latency/plateau.js";
import { CONTROL_REQUEST, DEFAULT_RPCS, probeSpec, type ProbeSpec } from "../src/modes/latency/probe.js";
import { percentile } from "../src/modes/latency/stats.js";
import { profileFor } from "../src/modes/fidelity/run.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { ProfileName } from "../src/zcash/fixture/grpc/profiles.js";
import { isInstalled, loadPins, pinsOf } from "../src/zcash/real/pins.js";
import { realBuildName, startRealServers, type RealServers } from "../src/zcash/real/servers.js";
import { realGate } from "./tools/real-gate.js";

const CALLS = 15;
const WARMUP = 3;

const gate = realGate("zainod");
const pins = pinsOf(loadPins(), "zainod").filter((p) => isInstalled(p));
const realTest = gate.installed && process.platform === "linux" ? test : test.skip;
if (gate.installed && process.platform !== "linux") console.warn("skipped: the plateau is Linux's delayed-ACK timer; this suite runs on Linux only");

/** Each probe's name and request: the latency probe's default rpcs, its large control answer, an error. */
const PROBES: [string, string, unknown][] = [
  ...DEFAULT_RPCS.map((rpc): [string, string, unknown] => [rpc, rpc, undefined]),
  ["GetBlock (control)", "GetBlock", CONTROL_REQUEST],
  ["GetBlock beyond the tip (error)", "GetBlock", { height: "99999999" }],
];

/** Probe name → "held" when the last byte came FLOOR_MS or more after the first (p10 over the calls), else "not held". */
async function heldAnswers(url: string, net: FixtureNetwork): Promise<Record<string, string>> {
  const target = grpcTarget({ url });
  const out: Record<string, string> = {};
  try {
    for (const [name, rpc, request] of PROBES) {
      const spec = probeSpec(rpc, net.anchors, request as never) as ProbeSpec;
      const gaps: number[] = [];
      for (let i = 0; i < WARMUP + CALLS; i++) {
        const obs = await target.call(spec.rpc, spec.request, { deadlineMs: 10_000 });
        if (i >= WARMUP) gaps.push(obs.timing.totalMs - (obs.timing.firstByteMs ?? obs.timing.totalMs));
      }
      const p10 = percentile(
        gaps.sort((a, b) => a - b),
        10,
      );
      out[name] = p10 >= FLOOR_MS ? "held" : "not held";
    }
  } finally {
    await target.close();
  }
  return out;
}

describe("the emulated Zaino plateau against real zainod", () => {
  let net: FixtureNetwork | undefined;
  let real: RealServers | undefined;

  beforeAll(async () => {
    if (!gate.installed || process.platform !== "linux") return;
    const profiles = [...new Set(pins.map((p) => profileFor(p)!))] as ProfileName[];
    net = await startFixtureNetwork({ profiles: ["reference", ...profiles] });
    real = await startRealServers(net, { only: ["zainod"] });
  }, 300_000);
  afterAll(async () => {
    await real?.close();
    await net?.close();
  });

  realTest(
    "every installed zainod holds the same probed answers as the profile of its version",
    async () => {
      // Every installed pin started (one that could not ingest the chain is a note, and missing here).
      expect({ started: real!.servers.map((x) => x.pin.version), notes: real!.notes }).toEqual({
        started: pins.map((p) => p.version),
        notes: expect.any(Array),
      });
      for (const server of real!.servers) {
        const profile = profileFor(server.pin)!;
        const [measured, emulated] = [await heldAnswers(server.grpcUrl, net!), await heldAnswers(net!.grpc[profile]!, net!)];
        expect({ build: profile, held: emulated }).toEqual({ build: profile, held: measured });
        // What the comparison is about: the real build does hold some answers and not others.
        expect([realBuildName(server.pin), Object.values(measured).sort()]).toEqual([realBuildName(server.pin), expect.arrayContaining(["held", "not held"])]);
      }
    },
    240_000,
  );

  realTest(
    "the latency probe reports the plateau on the same rpcs for each real zainod as for the profile of its version",
    async () => {
      const probes = DEFAULT_RPCS.map((rpc) => probeSpec(rpc, net!.anchors) as ProbeSpec);
      const control = probeSpec("GetBlock", net!.anchors, CONTROL_REQUEST) as ProbeSpec;
      for (const server of real!.servers) {
        const profile = profileFor(server.pin)!;
        const sides = [
          ["reference", net!.grpc.reference!],
          ["real", server.grpcUrl],
          ["emulated", net!.grpc[profile]!],
        ] as const;
        const targets = sides.map(([, url]) => grpcTarget({ url }));
        try {
          const r = await runLatency({
            builds: sides.map(([name], i) => ({ name, target: targets[i]! })),
            probes,
            control,
            reference: "reference",
            calls: 25,
            warmup: WARMUP,
          });
          const flagged = (build: string) =>
            r.divergences
              .filter((d) => d.build === build)
              .map((d) => d.method)
              .sort();
          expect({ build: profile, real: flagged("real") }).toEqual({ build: profile, real: flagged("emulated") });
          expect(flagged("real").length).toBeGreaterThan(0);
        } finally {
          await Promise.all(targets.map((t) => t.close()));
        }
      }
    },
    240_000,
  );
});
