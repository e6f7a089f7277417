import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpus } from "../../core/corpus/load.js";
import { startFixtureNetwork, type FixtureNetwork } from "../../zcash/fixture/network.js";
import { runSession } from "../../core/run/session.js";
import { DEFAULT_LIMITS, type RunConfig } from "../../core/targets/config.js";
import { driftOf, goldenDrift } from "./drift.js";
import { goldenRecorder } from "./recorder.js";
import { goldenAnswers, goldenOf, goldenPath, writeGolden } from "./store.js";
import { PROVENANCE_FILE, readProvenance } from "./provenance.js";
import type { Answer, CaseResult } from "../../core/results/result.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { parseLedger, type Quirk } from "../../core/ledger/quirk.js";

const CASES = join(import.meta.dirname, "..", "..", "..", "cases");
// Methods where the ztreamer-v0.1.0 profile differs from the reference only in the subtree hashes' byte order.
const cases = loadCorpus(CASES, lightwalletProtocol).filter((c) => ["GetSubtreeRoots", "GetLatestBlock", "getblock"].includes(c.method));

describe("goldens", () => {
  let net: FixtureNetwork;
  let dir: string;
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference", "ztreamer-v0.1.0"] });
    dir = mkdtempSync(join(tmpdir(), "zconform-golden-"));
  });
  afterAll(async () => {
    await net.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A run where build "under-test" is served by the given profile. */
  const run = (profile: "reference" | "ztreamer-v0.1.0", opts: { record?: boolean; golden?: boolean; ledger?: Quirk[] }) => {
    const build = net.builds().find((b) => b.name === profile)!;
    const reference = net.builds().find((b) => b.name === "reference")!;
    const config: RunConfig = {
      file: "(test)",
      chain: "fixture",
      defaults: DEFAULT_LIMITS,
      oracle: { jsonrpc: { url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } },
      // The JSON-RPC side of the build stays the reference's, so only the gRPC answers change.
      builds: [{ ...build, name: "under-test", ...(reference.jsonrpc ? { jsonrpc: reference.jsonrpc } : {}) }],
    };
    const recorder = opts.record ? goldenRecorder(dir, "fixture") : undefined;
    return runSession({
      config,
      cases,
      ledger: opts.ledger ?? [],
      reporters: recorder ? [recorder] : [],
      protocol: lightwalletProtocol,
      chain: { name: "fixture", network: net.model.network.name, anchors: net.anchors, dynamic: {} },
      ...(opts.golden ? { drift: goldenDrift(lightwalletProtocol, dir, "fixture") } : {}),
    });
  };

  test("recording writes one stable file per case and build, and where they came from; replaying an unchanged build shows no drift", async () => {
    await run("reference", { record: true });
    const files = readdirSync(join(dir, "fixture", "under-test"), { recursive: true }).filter((f) => String(f).endsWith(".json") && f !== PROVENANCE_FILE);
    expect(files).toHaveLength(cases.length);
    const one = goldenPath(dir, "fixture", "under-test", "GetLatestBlock/tip");
    expect(JSON.parse(readFileSync(one, "utf8"))).toMatchObject({ caseId: "GetLatestBlock/tip", build: "under-test", status: "OK" });
    const recorded = readProvenance(join(dir, "fixture", "under-test"))!;
    expect(schemaErrors("recorded", recorded)).toEqual([]);
    expect(recorded.recordings).toHaveLength(1);
    expect(recorded.recordings[0]).toMatchObject({
      tool: { name: "zconform" },
      chain: "fixture",
      build: { name: "under-test", implementation: "other", emulated: false, profile: "reference", pin: null },
    });
    expect(recorded.recordings[0]!.partial).toBeUndefined();
    expect(recorded.recordings[0]!.cases).toEqual(cases.map((c) => c.id).sort());
    const replay = await run("reference", { golden: true });
    expect(replay.summary.drifted).toBe(0);
    expect(replay.summary.unrecorded).toBe(0);
    expect(replay.exitCode).toBe(0);
  }, 60_000);

  test("a changed answer shows exactly that drift, at its field path", async () => {
    const replay = await run("ztreamer-v0.1.0", { golden: true });
    // Ztreamer also refuses a maxEntries above 65535: that case drifts as a refusal, not by byte order.
    const refused = "GetSubtreeRoots/sapling-max-entries-65537";
    const drifted = replay.results
      .filter((r) => r.caseId !== refused)
      .flatMap((r) => (r.drift ?? []).filter((d) => d.status === "changed").map((d) => ({ caseId: r.caseId, d })));
    expect(replay.results.find((r) => r.caseId === refused)?.drift?.[0]?.divergences.map((x) => x.kind)).toContain("error-vs-ok");
    expect(drifted.length).toBeGreaterThan(0);
    for (const { caseId, d } of drifted) {
      expect(caseId).toMatch(/^GetSubtreeRoots\//);
      expect(new Set(d.divergences.map((x) => `${x.kind} ${x.path.replace(/\[\d+\]/g, "[*]")}`))).toEqual(new Set(["byte-order [*].completingBlockHash"]));
    }
    const subtreeCasesWithRoots = replay.results.filter((r) => r.method === "GetSubtreeRoots" && r.answers[0]!.count > 0).map((r) => r.caseId);
    expect(drifted.map((x) => x.caseId).sort()).toEqual(subtreeCasesWithRoots.sort());
    expect(replay.exitCode).toBe(1);
  }, 60_000);

  // An entry covering every divergence the Ztreamer profile shows, as a ledger file would declare it.
  const entryFor = (r: Awaited<ReturnType<typeof run>>, intermittent: boolean): Quirk[] => {
    const ds = r.results.flatMap((c) => c.divergences);
    const entry = {
      id: "ztreamer-differs",
      title: "t",
      kind: [...new Set(ds.map((d) => d.kind))],
      builds: [{ names: ["under-test"] }],
      match: { methods: [...new Set(ds.map((d) => d.method))], path: [...new Set(ds.map((d) => d.path))] },
      ...(intermittent ? { intermittent: "only after a restart" } : {}),
      reference: "r",
      status: "open",
    };
    return parseLedger(JSON.stringify({ quirks: [entry] }), "(test ledger)");
  };

  test("an answer whose every divergence is an intermittent entry is not compared with its golden; a steady entry's still is", async () => {
    const plain = await run("ztreamer-v0.1.0", { golden: true });
    const changed = (r: Awaited<ReturnType<typeof run>>) =>
      r.results
        .filter((c) => (c.drift ?? []).some((d) => d.status === "changed"))
        .map((c) => c.caseId)
        .sort();
    const diverged = plain.results
      .filter((c) => c.divergences.length > 0)
      .map((c) => c.caseId)
      .sort();
    expect(diverged.length).toBeGreaterThan(0);
    expect(changed(plain)).toEqual(expect.arrayContaining(diverged));

    const steady = await run("ztreamer-v0.1.0", { golden: true, ledger: entryFor(plain, false) });
    expect(steady.results.flatMap((c) => c.divergences).every((d) => d.quirk === "ztreamer-differs")).toBe(true);
    expect(changed(steady)).toEqual(changed(plain));

    const intermittent = await run("ztreamer-v0.1.0", { golden: true, ledger: entryFor(plain, true) });
    expect(intermittent.results.flatMap((c) => c.divergences).every((d) => d.quirk === "ztreamer-differs")).toBe(true);
    expect(changed(intermittent)).toEqual(changed(plain).filter((id) => !diverged.includes(id)));
  }, 90_000);
});

describe("golden folders", () => {
  test("a real build and the emulated profile of the same version never share a folder", () => {
    const real = goldenPath("golden", "fixture", "zaino 0.10.1 (real)", "GetLatestBlock/tip");
    const emulated = goldenPath("golden", "fixture", "zaino-0.10.1", "GetLatestBlock/tip", true);
    expect(real).toBe(join("golden", "fixture", "zaino-0.10.1", "GetLatestBlock", "tip.json"));
    expect(emulated).toBe(join("golden", "fixture", "emulated", "zaino-0.10.1", "GetLatestBlock", "tip.json"));
  });
});

describe("what goldens keep and compare", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-golden-sides-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const answer = (side: string, result: unknown): Answer => ({
    side,
    transport: "jsonrpc",
    status: "OK",
    code: null,
    message: "",
    count: 1,
    wireBytes: 0,
    ms: 1,
    hex: [Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, result })).toString("hex")],
  });
  const result = (build: Answer, oracle: Answer, wallClock?: string[]): CaseResult => ({
    caseId: "getrawmempool/verbose-true",
    method: "getrawmempool",
    transport: "jsonrpc",
    expect: "oracle",
    tags: [],
    source: "t:1",
    answers: [build, answer("reference", 0)],
    oracle,
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
    ...(wallClock ? { wallClock } : {}),
  });
  const mempool = (time: number, size: number) => ({ ab: { time, size }, cd: { time, size } });

  test("with sides, only those builds' answers are kept, and the oracle's own answer to a JSON-RPC case", () => {
    const r = result(answer("zebrad 7.0.0 (real)", 1), answer("oracle", 1));
    expect(goldenAnswers(r, new Set(["zebrad 7.0.0 (real)", "oracle"])).map((a) => a.side)).toEqual(["zebrad 7.0.0 (real)", "oracle"]);
    expect(goldenAnswers(r).map((a) => a.side)).toEqual(["zebrad 7.0.0 (real)", "reference"]);
  });

  test("a wall-clock path is not compared with the golden; any other change is drift", () => {
    const sides = new Set(["oracle"]);
    writeGolden(goldenPath(dir, "regtest", "oracle", "getrawmempool/verbose-true"), goldenOf("getrawmempool/verbose-true", answer("oracle", mempool(100, 5))));
    const later = (m: unknown, wallClock?: string[]) =>
      driftOf(result(answer("x", 0), answer("oracle", m), wallClock), lightwalletProtocol, dir, "regtest", new Set(), sides);
    expect(later(mempool(200, 5), ["result[*].time"]).map((d) => d.status)).toEqual(["unchanged"]);
    expect(later(mempool(200, 5)).map((d) => d.status)).toEqual(["changed"]);
    expect(later(mempool(200, 6), ["result[*].time"]).map((d) => [d.status, d.divergences.map((x) => x.path)])).toEqual([
      ["changed", ["result.ab.size", "result.cd.size"]],
    ]);
  });
});
