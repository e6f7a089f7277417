import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { chainAnchors } from "../../zcash/fixture/chain/anchors.js";
import { syntheticChain } from "../../zcash/fixture/chain/index.js";
import { startGrpcServer, type RunningGrpcServer } from "../../zcash/fixture/grpc/server.js";
import { grpcTarget, type GrpcTarget } from "../../core/targets/grpc.js";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { runLatency, type LatencyProgress } from "./latency.js";
import { latencyReport } from "./latency-report.js";
import { detectPlateau, FLOOR_MS, type Control, type TimedRpc } from "./plateau.js";
import { CONTROL_REQUEST, DEFAULT_RPCS, probeSpec, type ProbeSpec } from "./probe.js";
import { histogram, percentile, statsOf } from "./stats.js";

// By default the whole time of a call is held inside its answer, as on the plateau.
const timed = (build: string, samples: number[], errors = 0, holds = samples): TimedRpc => ({
  build,
  rpc: "GetLatestBlock",
  samples,
  holds,
  stats: statsOf(samples),
  errors,
});
const control = (build: string, p50: number, answerBytes = 2000): Control => ({ build, stats: statsOf([p50, p50, p50]), p10: p50, answerBytes, ok: true });
const around = (ms: number, n = 40) => Array.from({ length: n }, (_, i) => ms + ((i * 7) % 11) / 3);

describe("latency statistics and the plateau rule", () => {
  test("nearest-rank percentiles and buckets", () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(s, 50), percentile(s, 90), percentile(s, 99), percentile(s, 100)]).toEqual([50, 90, 99, 100]);
    expect(histogram([0.1, 0.7, 3, 40, 44.9, 45, 300])).toEqual([1, 1, 0, 1, 0, 0, 0, 2, 1, 0, 1]);
  });

  test("calls on a ~40 ms floor above a fast baseline are a plateau; the baseline is the build's own large answer first", () => {
    const d = detectPlateau(timed("zaino", around(40)), timed("reference", around(0.8)), control("zaino", 1));
    expect(d).toMatchObject({ kind: "latency", path: "latency.p50", left: "zaino", right: "zaino" });
    const byRef = detectPlateau(timed("zaino", around(40)), timed("reference", around(0.8)), undefined);
    expect(byRef).toMatchObject({ left: "reference", leftValue: expect.any(Number) });
  });

  test("not a plateau: a fast build, a server ~40 ms away (its large answers are slow too), a slow server, failures, no baseline", () => {
    expect(detectPlateau(timed("reference", around(0.8)), undefined, control("reference", 0.7))).toBeUndefined();
    expect(detectPlateau(timed("remote", around(41)), undefined, control("remote", 40.5))).toBeUndefined();
    expect(detectPlateau(timed("slow", around(120)), timed("reference", around(1)), control("slow", 1))).toBeUndefined();
    expect(detectPlateau(timed("zaino", around(40), 30), timed("reference", around(1)), control("zaino", 1))).toBeUndefined();
    expect(detectPlateau(timed("zaino", around(40)), undefined, control("zaino", 1, 600))).toBeUndefined();
    // Half the calls fast: no floor.
    expect(detectPlateau(timed("mixed", [...around(40, 20), ...around(1, 20)]), undefined, control("mixed", 1))).toBeUndefined();
    // ~40 ms slower before its first byte, nothing held after it: a slow server, not the plateau.
    expect(detectPlateau(timed("busy", around(41), 0, around(0.2)), timed("reference", around(1)), control("busy", 1))).toBeUndefined();
  });

  test("the time above the baseline may include the server's own work: what is held after the first byte decides", () => {
    // Real zainod's GetTreeState: ~10 ms before its first byte, then the trailers held ~42 ms.
    const d = detectPlateau(timed("zaino", around(52.5), 0, around(42)), timed("reference", around(1.2)), undefined);
    expect(d).toMatchObject({ kind: "latency", left: "reference", right: "zaino" });
    expect(d!.detail).toMatch(/held 42\.\d ms \(p10\) between the answer's first byte and its end/);
  });
});

// The emulated Zaino profiles leave TCP_NODELAY off and write unary answers as h2 does
// (src/zcash/fixture/grpc/latency.ts): of the rpcs the probe times by default, only
// GetTreeState (an 868-byte gRPC frame) has its trailers in a second write, which waits
// for the client's delayed ACK. The probe must find that on both profiles and nowhere
// else, never on the reference, over repeated runs, one of them without warm-up (its first
// call pays for the connection). Linux only: the delay is Linux's delayed-ACK timer.
// Builds are timed one after the other, as the command does by default: the servers run
// in this process, and a build timed in parallel measures the others' work (see
// plateau.ts for what load does even one at a time). 15 calls per rpc.
(process.platform === "linux" ? describe : describe.skip)("plateau probe against the fixture (repeated)", () => {
  const model = syntheticChain();
  const anchors = chainAnchors(model);
  const names = ["reference", "zaino-0.9.0", "zaino-0.10.1"] as const;
  const servers: RunningGrpcServer[] = [];
  let probes: ProbeSpec[];
  let ctl: ProbeSpec;

  beforeAll(async () => {
    for (const n of names) servers.push(await startGrpcServer({ model, profile: n }));
    probes = DEFAULT_RPCS.map((r) => probeSpec(r, anchors) as ProbeSpec);
    ctl = probeSpec("GetBlock", anchors, CONTROL_REQUEST) as ProbeSpec;
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  const runOnce = async (warmup: number) => {
    const targets: GrpcTarget[] = servers.map((s) => grpcTarget({ url: s.url }));
    const progress: LatencyProgress[] = [];
    try {
      const r = await runLatency({
        builds: names.map((name, i) => ({ name, target: targets[i]! })),
        probes,
        control: ctl,
        reference: "reference",
        calls: 15,
        warmup,
        onProgress: (p) => progress.push(p),
      });
      // Each probe is told once as it ends, with the p50 the report gives it.
      expect(progress.map((p) => p.done)).toEqual(Array.from({ length: names.length * (probes.length + 1) }, (_, i) => i + 1));
      expect(progress.filter((p) => !p.control).map((p) => [p.build, p.rpc, p.p50Ms])).toEqual(r.timings.map((t) => [t.build, t.rpc, t.stats.p50]));
      expect(progress.filter((p) => p.control).map((p) => p.build)).toEqual([...names]);
      return r;
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
  };

  // Warm-ups, as the command's default (5) has them: on a new connection Linux acknowledges
  // at once for a while (quick-ACK mode), so the first calls on it may not wait for a
  // delayed ACK at all; with none, a loaded machine showed a median below the plateau.
  test.each([[3], [5]])(
    "run with %i warm-up call(s): GetTreeState of each Zaino profile plateaus, nothing else",
    async (warmup) => {
      const r = await runOnce(warmup);
      const flagged = r.divergences.map((d) => `${d.build} ${d.method}`).sort();
      // On a miss, what the rule saw: each build's GetTreeState floor and hold, and the controls.
      const p10 = (xs: readonly number[]) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          10,
        ).toFixed(1);
      const seen = [
        ...r.timings
          .filter((t) => t.rpc === "GetTreeState")
          .map((t) => `${t.build}: p10 ${p10(t.samples)} ms, hold p10 ${p10(t.holds)} ms, baseline ${t.baselineMs}`),
        ...r.controls.map((c) => `${c.build} control: p50 ${c.stats.p50.toFixed(1)} ms, p10 ${p10(c.samples)} ms, baseline ${c.baselineMs}`),
      ];
      const expected = ["zaino-0.10.1 GetTreeState", "zaino-0.9.0 GetTreeState"];
      expect({ flagged, ...(flagged.join() === expected.join() ? {} : { seen }) }).toEqual({ flagged: expected });
      expect(r.divergences.every((d) => d.kind === "latency" && d.path === "latency.p50" && d.caseId === `latency.${d.method}`)).toBe(true);
      // The reference holds nothing inside its answers (its p50 itself is the machine's load as much as the server's).
      for (const t of r.timings.filter((x) => x.build === "reference"))
        expect([
          t.rpc,
          percentile(
            [...t.holds].sort((a, b) => a - b),
            10,
          ) < FLOOR_MS,
        ]).toEqual([t.rpc, true]);
      expect(r.timings.every((t) => t.warmupMs.length === warmup && t.samples.length === 15)).toBe(true);
      expect(r.controls.every((c) => c.answerBytes >= 1400)).toBe(true);
      const report = latencyReport(r, { startedAt: new Date(), chain: "fixture", builds: [], reference: "reference", calls: 15, warmup, skipped: [] });
      expect(schemaErrors("latency", report)).toEqual([]);
      expect([report.kind, report.exitCode]).toEqual(["latency", 1]);
    },
    60_000,
  );
});
