// One backend audited, as a wallet team runs it: one build and an oracle, through the
// command line. Whatever keeps the build (or the oracle) from being checked — refused,
// hanging past its deadline, a certificate that does not verify, a missing or wrong
// cookie, the oracle down — no case may pass in any output: the terminal prints one line
// saying what happened and what to do, the JSON report has no pass, JUnit has an
// <error> per testcase, the HTML never draws ✓, the jest integration fails each test, and
// the exit code is 3. With everything answering, the run exits 0, `agree` cases are
// listed as unjudged, and the ledger reports nothing stale for them.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { pageDataText } from "../src/core/report/html-page-data.test-helper.js";
import { failureOf, uncheckedOf } from "../src/jest/format.js";
import { runCli, spawnCli, waitFor } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { RPC_NAMES } from "../src/zcash/lightwallet-rpcs.js";
import { freePort } from "../src/zcash/real/process.js";
import { haveOpenssl, selfSignedCert } from "../src/core/targets/self-signed.test-helper.js";

let fixture: FixtureNetwork;
let dir: TempDir;
let closedPort: number;
let hanging: net.Server;
let hangPort: number;
/** A build that passes the preflight (GetLightdInfo answers) and then hangs on every case. */
let hangsAfterPreflight: FaultProxy;
let tls: http2.Http2SecureServer | undefined;
let tlsPort = 0;

const AGREE_CASE = [
  "method: GetLightdInfo",
  "cases:",
  "  - id: same-everywhere",
  "    expect: agree",
  "    volatile: [vendor, version, gitCommit, branch, buildDate, buildUser, donationAddress, lightwalletProtocolVersion]",
  "    request: {}",
].join("\n");

// Ledger entries about the one build. The first is exercised only by the agree case,
// which is unjudged: it must never be reported stale. The second (given to the failure
// scenarios) covers GetBlock, which is unchecked there: nothing is stale for a build
// that could not be checked.
const ENTRY = (id: string, methods: string) => [
  `  - id: ${id}`,
  "    title: a quirk the run cannot confirm or deny",
  "    kind: value",
  "    builds: [{ implementation: other }]",
  `    match: { methods: [${methods}] }`,
  "    reference: test",
  "    status: open",
];
const LEDGER = ["quirks:", ...ENTRY("other-info-quirk", "GetLightdInfo")].join("\n");
const FAILURE_LEDGER = ["quirks:", ...ENTRY("other-info-quirk", "GetLightdInfo"), ...ENTRY("other-block-quirk", "GetBlock")].join("\n");

beforeAll(async () => {
  fixture = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir("zconform-one-backend-");
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/grpc/GetLightdInfo.yaml", AGREE_CASE);
  dir.write("cases/quirks.yaml", LEDGER);
  dir.write("failure-quirks.yaml", FAILURE_LEDGER);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", fixture.anchors));
  dir.write("wrong.cookie", "__cookie__:bm90IHRoZSByaWdodCB0b2tlbiBhdCBhbGwsIHNvcnJ5IQ==");
  closedPort = await freePort();
  // Accepts TCP and never says a word: no HTTP/2 settings, no answer.
  hanging = net.createServer((s) => s.on("data", () => undefined).on("error", () => undefined));
  await new Promise<void>((r) => hanging.listen(0, "127.0.0.1", () => r()));
  hangPort = (hanging.address() as AddressInfo).port;
  hangsAfterPreflight = await startFaultProxy({
    grpcUpstream: fixture.grpc.reference!,
    rules: RPC_NAMES.filter((r) => r !== "GetLightdInfo").map((rpc) => ({ transport: "grpc" as const, rpc, fault: { kind: "hang" as const } })),
  });
  if (haveOpenssl()) {
    const { keyFile, certFile } = selfSignedCert(dir.path);
    tls = http2.createSecureServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (_req, res) => res.end());
    await new Promise<void>((r) => tls!.listen(0, "127.0.0.1", () => r()));
    tlsPort = (tls.address() as AddressInfo).port;
  } else if (process.env.CI === "true") {
    throw new Error("the openssl CLI is needed for the TLS scenario");
  }
}, 60_000);

afterAll(async () => {
  hanging?.close();
  await hangsAfterPreflight?.close();
  tls?.close();
  await fixture?.close();
  dir?.remove();
});

interface Scenario {
  name: string;
  /** The build's endpoints, as YAML flow mappings. */
  grpc?: string;
  jsonrpc?: string;
  deadlineMs?: number;
  oracleUrl?: string;
  /** Who could not be checked, and the words the one-line reason must contain. */
  side: string;
  reason: RegExp;
  needsTls?: boolean;
}

const cookie = () => fixture.jsonrpcProfiles.reference!;

const SCENARIOS: (() => Scenario)[] = [
  () => ({
    name: "build refused",
    grpc: `{ url: "http://127.0.0.1:${closedPort}" }`,
    side: "mybackend",
    reason: new RegExp(`mybackend: unreachable on 4/4 cases — .*ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}; is the server running\\?`),
  }),
  () => ({
    name: "build hangs past its deadline",
    grpc: `{ url: "http://127.0.0.1:${hangPort}" }`,
    deadlineMs: 1500,
    side: "mybackend",
    reason: /mybackend: no answer in time on 4\/4 cases — no complete answer within 1500 ms \(client deadline\); is the server stuck/,
  }),
  () => ({
    name: "TLS verification fails",
    grpc: `{ url: "https://127.0.0.1:${tlsPort}" }`,
    side: "mybackend",
    needsTls: true,
    reason: /mybackend: certificate not trusted \(self-signed\) on 4\/4 cases — .*; pass caFile or fix the certificate/,
  }),
  () => ({
    name: "cookie missing",
    jsonrpc: `{ url: "${cookie().url}", cookieFile: "${join(dir.path, "no-such.cookie")}" }`,
    side: "mybackend",
    reason: /mybackend: cannot read cookie file on 2\/2 cases — cannot read cookie file .*no-such\.cookie.*; check cookieFile/,
  }),
  () => ({
    name: "cookie wrong",
    jsonrpc: `{ url: "${cookie().url}", cookieFile: "${join(dir.path, "wrong.cookie")}" }`,
    side: "mybackend",
    reason: /mybackend: connection closed with no reply on 2\/2 cases — .*; check the credentials/,
  }),
  () => ({
    name: "oracle down",
    grpc: `{ url: "${fixture.grpc.reference!}" }`,
    jsonrpc: `{ url: "${cookie().url}", cookieFile: "${cookie().cookie}" }`,
    oracleUrl: `http://127.0.0.1:${closedPort}/`,
    side: "oracle",
    reason: new RegExp(`oracle: unreachable on 5/5 cases — .*ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}; is the server running\\?`),
  }),
];

function configYaml(s: Pick<Scenario, "grpc" | "jsonrpc" | "deadlineMs" | "oracleUrl">): string {
  return [
    "chain: fixture",
    `oracle: { jsonrpc: { url: "${s.oracleUrl ?? fixture.jsonrpc}", cookieFile: "${fixture.cookie}" } }`,
    "builds:",
    "  - name: mybackend",
    "    implementation: other",
    ...(s.grpc ? [`    grpc: ${s.grpc}`] : []),
    ...(s.jsonrpc ? [`    jsonrpc: ${s.jsonrpc}`] : []),
    ...(s.deadlineMs ? [`    deadlineMs: ${s.deadlineMs}`] : []),
  ].join("\n");
}

async function run(name: string, yaml: string, extra: string[] = []) {
  const out = join(dir.path, name.replace(/\W+/g, "-"));
  const paths = { json: `${out}.json`, junit: `${out}.xml`, html: `${out}.html` };
  const cfg = dir.write(`${name.replace(/\W+/g, "-")}.config.yaml`, yaml);
  const r = await runCli(
    ["run", "-c", cfg, "--cases", join(dir.path, "cases"), "--json", paths.json, "--junit", paths.junit, "--html", paths.html, ...extra],
    90_000,
  );
  const report = JSON.parse(readFileSync(paths.json, "utf8")) as JsonReport;
  return { ...r, report, junit: readFileSync(paths.junit, "utf8"), html: readFileSync(paths.html, "utf8") };
}

/** The testcases of one build in a JUnit document, each whole. */
function testcases(xml: string, build: string): string[] {
  return [...xml.matchAll(/<testcase [^>]*name="[^"]*\[([^\]]+)\]"[^>]*?(?:\/>|>[\s\S]*?<\/testcase>)/g)].filter((m) => m[1] === build).map((m) => m[0]);
}

describe("one build and an oracle, when something cannot be checked", () => {
  const NAMES = ["build refused", "build hangs past its deadline", "TLS verification fails", "cookie missing", "cookie wrong", "oracle down"];
  test.each(SCENARIOS.map((f, i) => [NAMES[i]!, f] as const))(
    "%s: no pass anywhere, one line saying why, exit 3",
    async (_name, make) => {
      const s = make();
      if (s.needsTls && !tls) return;
      // Without --force, a build the preflight cannot reach is asked nothing more, each case
      // could not be checked for the preflight's reason (test/preflight.test.ts); --force
      // sends every case, so each shows what it could not check on its own.
      const r = await run(s.name, configYaml(s), ["--ledger", join(dir.path, "failure-quirks.yaml"), "--force"]);

      // The exit code says "could not check", and the terminal says what to do.
      expect({ scenario: s.name, code: r.code }).toEqual({ scenario: s.name, code: 3 });
      expect(r.stdout).toMatch(s.reason);
      const matrix = r.stdout.split("\n").filter((l) => /^(rpc )?\w+ \(\d+\)\s/.test(l));
      expect(matrix.length).toBeGreaterThan(0);
      expect(matrix.filter((l) => l.includes("✓"))).toEqual([]);

      // JSON: no pass anywhere, the side that failed is named with its hint.
      const answered = r.report.cases.filter((c) => !c.skipped);
      expect(answered.length).toBeGreaterThan(0);
      expect(r.report.summary!.outcomes.pass).toBe(0);
      expect(answered.flatMap((c) => c.outcomes ?? []).filter((o) => o.outcome === "pass")).toEqual([]);
      expect(r.report.summary!.unchecked.map((u) => u.side)).toEqual([s.side]);
      expect(r.report.exitCode).toBe(3);
      expect(r.report.summary!.stale).toEqual([]);

      // JUnit: every testcase of the build is an error (or, for an agree case, unjudged), none passes.
      const tcs = testcases(r.junit, "mybackend");
      expect(tcs.length).toBe(answered.length);
      for (const tc of tcs) expect(tc).toMatch(/<error |<skipped /);
      expect(tcs.some((tc) => tc.includes("<error "))).toBe(true);

      // HTML: no cell or case drawn as conforming, and the reason is on the page.
      expect(r.html).not.toMatch(/class="cell ok"/);
      expect(r.html).not.toMatch(/class="mini ok"/);
      expect(r.html).toContain("could not check");

      // jest: every test of the build fails with the reason (or is an unjudged agree case).
      for (const c of answered) {
        const unjudged = c.outcomes?.every((o) => o.outcome === "unjudged");
        expect({ id: c.caseId, fails: uncheckedOf(c, ["mybackend"]) !== undefined || unjudged }).toEqual({ id: c.caseId, fails: true });
      }
    },
    120_000,
  );
});

describe("one build and an oracle, all answering", () => {
  test("exit 0, agree cases listed as unjudged, nothing stale", async () => {
    const r = await run(
      "all-good",
      configYaml({
        grpc: `{ url: "${fixture.grpc.reference!}" }`,
        jsonrpc: `{ url: "${cookie().url}", cookieFile: "${cookie().cookie}" }`,
      }),
    );
    expect(r.code).toBe(0);
    expect(r.report.summary!.stale).toEqual([]);
    expect(r.report.summary!.unchecked).toEqual([]);
    const agree = r.report.cases.find((c) => c.caseId === "GetLightdInfo/same-everywhere")!;
    expect(agree.verdict?.verdict).toBe("unjudged");
    expect(agree.outcomes).toEqual([expect.objectContaining({ build: "mybackend", outcome: "unjudged" })]);
    expect(r.report.summary!.outcomes).toMatchObject({ unjudged: 1, unchecked: 0, new: 0 });
    expect(r.report.summary!.outcomes.pass).toBe(r.report.cases.filter((c) => !c.skipped).length - 1);
    expect(r.stdout).toMatch(/Unjudged \(1\): an agree case needs a second build to compare with\n {2}GetLightdInfo\/same-everywhere \[mybackend\]/);
    expect(r.stdout).toMatch(/^GetLightdInfo \(1\)\s+\?1/m);
    expect(testcases(r.junit, "mybackend").find((tc) => tc.includes("same-everywhere"))).toMatch(/<skipped message="unjudged: /);
    for (const c of r.report.cases.filter((x) => x.caseId !== agree.caseId)) expect(failureOf(c, ["mybackend"])).toBeUndefined();
    // The HTML's decoded view shows the tip's hash as explorers do, beside the wire bytes.
    expect(pageDataText(r.html)).toContain(`${String(fixture.anchors.tip_hash)} (display order; wire `);
  }, 120_000);

  test("without an oracle, oracle cases are unjudged and the run says how it was made", async () => {
    const yaml = configYaml({ grpc: `{ url: "${fixture.grpc.reference!}" }` })
      .split("\n")
      .filter((l) => !l.startsWith("oracle:"))
      .join("\n");
    const r = await run("no-oracle", yaml);
    expect(r.code).toBe(0);
    expect(r.report.conditions).toEqual([expect.objectContaining({ kind: "no-oracle" })]);
    expect(r.stdout).toContain("WARNING: no oracle configured");
    expect(r.report.summary!.outcomes.pass).toBe(0);
    expect(r.report.cases.filter((c) => !c.skipped).every((c) => c.outcomes?.every((o) => o.outcome === "unjudged"))).toBe(true);
    expect(r.stdout).not.toContain("same as the oracle");
    expect(r.junit).toContain('name="condition.no-oracle.run"');
    expect(r.html).toContain("warning: no oracle configured");
  }, 120_000);
});

describe("interrupted", () => {
  test.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s mid-run cuts the hanging call at once, exits %i, writes a partial report",
    async (sig, code) => {
      const json = join(dir.path, `interrupted-${sig}.json`);
      const cfg = dir.write(`interrupted-${sig}.config.yaml`, configYaml({ grpc: `{ url: "${hangsAfterPreflight.grpcUrl}" }`, deadlineMs: 60_000 }));
      const files = { stdout: join(dir.path, `${sig}.out`), stderr: join(dir.path, `${sig}.err`) };
      const cli = spawnCli(["run", "-c", cfg, "--cases", join(dir.path, "cases"), "--json", json], { files });
      // The header is printed once the run's first calls are out (and hanging).
      await waitFor(() => cli.stdout().includes("zconform ·"), 30_000, "the run to start");
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      cli.child.kill(sig);
      const r = await cli.exited;
      const ms = Date.now() - t0;
      expect({ code: r.code, fast: ms < 1000 }).toEqual({ code, fast: true });
      const report = JSON.parse(readFileSync(json, "utf8")) as JsonReport;
      expect(report).toMatchObject({ partial: true, interrupted: sig, exitCode: code });
      expect(report.summary?.stale).toEqual([]);
      expect(r.stdout).toContain(`The run was interrupted (${sig}): results are partial.`);
    },
    60_000,
  );
});
