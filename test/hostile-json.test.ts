// JSON-RPC answers that differ only in their bytes, and JSON no JavaScript value holds.
// Each hostile server relays the fixture's own answers, some rewritten (json-rewriter.ts),
// configured as builds beside a healthy one (the fixture's reference) or as the oracle; the
// CLI runs in a child process with the default limits. A re-encoding is never a pass; a
// value that JSON.parse cannot hold (1e999999, a lone surrogate, a 300-digit integer) is
// that side's answer on that case and ends nothing; a body nested 8 million levels costs
// the run a few hundred MB at most and no other side's call times out.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonReportFile } from "../src/core/report/json-file.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { runCli } from "./tools/cli.js";
import type { HostileServer } from "./tools/hostile-servers.js";
import { startJsonRewriter, withResult, type Call, type Rewrite } from "./tools/json-rewriter.js";
import { answersOf, reportArgs, validReports } from "./tools/run-reports.js";
import { chainProfileYaml, tempDir, type TempDir } from "./tools/temp-corpus.js";

const MiB = 1024 * 1024;

const CASES: Record<string, string> = {
  "grpc/GetBlock.yaml": "method: GetBlock\ncases:\n  - { id: at-5, request: { height: 5 }, expect: oracle }\n",
  "grpc/GetLatestBlock.yaml": "method: GetLatestBlock\ncases:\n  - { id: tip, request: {}, expect: oracle }\n",
  "jsonrpc/getblockcount.yaml": "method: getblockcount\ncases:\n  - { id: count, request: [], expect: oracle }\n",
  "jsonrpc/getblock.yaml":
    'method: getblock\ncases:\n  - { id: raw-5, request: ["5", 0], expect: oracle }\n  - { id: verbose-5, request: ["5", 1], expect: oracle }\n',
  "jsonrpc/getdifficulty.yaml": "method: getdifficulty\ncases:\n  - { id: plain, request: [], expect: oracle }\n",
  "jsonrpc/getblockheader.yaml": 'method: getblockheader\ncases:\n  - { id: at-5, request: ["5"], expect: oracle }\n',
};

let net: FixtureNetwork;
let dir: TempDir;
let baseline: Map<string, string>;
const servers: HostileServer[] = [];

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir();
  for (const [file, text] of Object.entries(CASES)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  dir.write(
    "rss.cjs",
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.ZCONFORM_TEST_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));\n",
  );
  const first = await run("baseline", { builds: [] });
  expect(first.code).toBe(0);
  baseline = healthyAnswers(first.report);
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await net?.close();
  if (!process.env.ZCONFORM_KEEP_TEST_DIR) dir?.remove();
});

/** A rewriting server in front of the fixture's reference JSON-RPC (the same bytes as the oracle's). */
async function rewriter(rewrite: Rewrite, upstream = net.jsonrpcProfiles.reference!.url): Promise<string> {
  const s = await startJsonRewriter(upstream, rewrite);
  servers.push(s);
  return s.url;
}

/** Rewrites the result of one case's call (method and params as the case sends them). */
const onCase =
  (method: string, params: string, replace: (result: string) => string): Rewrite =>
  (call: Call, body: string) =>
    call.method === method && call.params === params ? withResult(body, replace) : undefined;

interface Setup {
  /** Extra builds: name → JSON-RPC URL (with the fixture's cookie). */
  builds: [string, string][];
  /** The oracle's URL, when not the fixture's own. */
  oracle?: string;
}

async function run(name: string, setup: Setup) {
  const ref = net.jsonrpcProfiles.reference!;
  const jsonrpc = (url: string) => `{ url: "${url}", cookieFile: "${ref.cookie}" }`;
  const config = dir.write(
    `${name}.config.yaml`,
    [
      "chain: fixture",
      `oracle: { jsonrpc: { url: "${setup.oracle ?? net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
      "builds:",
      `  - { name: healthy, implementation: other, grpc: { url: "${net.grpc.reference!}" }, jsonrpc: ${jsonrpc(ref.url)} }`,
      ...setup.builds.map(([b, url]) => `  - { name: ${b}, implementation: other, jsonrpc: ${jsonrpc(url)} }`),
    ].join("\n"),
  );
  const base = join(dir.path, name);
  const r = await runCli(["run", "-c", config, "--cases", join(dir.path, "cases"), "-q", ...reportArgs(base)], 240_000, {
    env: { NODE_OPTIONS: `--require ${join(dir.path, "rss.cjs")}`, ZCONFORM_TEST_RSS_FILE: `${base}.rss` },
  });
  // Every report is there, whole and valid, whatever the servers sent.
  const report = validReports(base);
  expect(report.partial).toBe(false);
  return { code: r.code, stderr: r.stderr, report, rss: Number(readFileSync(`${base}.rss`, "utf8")) };
}

/** The healthy build's status and bytes per case. */
const healthyAnswers = (report: JsonReportFile) => answersOf(report, "healthy");

const outcomeOf = (report: JsonReportFile, caseId: string, build: string) =>
  report.cases.find((c) => c.caseId === caseId)?.outcomes?.find((o) => o.build === build)?.outcome;
const divergencesOf = (report: JsonReportFile, caseId: string, build: string) => report.divergences.filter((d) => d.caseId === caseId && d.build === build);

describe("JSON-RPC answers: bytes first, and no JSON value ends a run", () => {
  test("re-encodings and repeated keys from builds: encoding-only or value divergences, never a pass", async () => {
    const count = (replace: (r: string) => string) => onCase("getblockcount", "[]", replace);
    const verbose = (replace: (r: string) => string) => onCase("getblock", '["5",1]', replace);
    const hostile: [string, Rewrite, string, string, string | undefined][] = [
      // build, rewrite, case, divergence kind, encoding aspect
      ["point-zero", count((r) => `${r}.0`), "getblockcount/count", "encoding-only", "number"],
      ["exponent", count((r) => `${Number(r) / 100}.00e2`), "getblockcount/count", "encoding-only", "number"],
      ["tiny-fraction", count((r) => `${r}.0000000000000000001`), "getblockcount/count", "value", undefined],
      ["made-up-first", count((r) => `${Number(r) + 1},"result":${r}`), "getblockcount/count", "value", undefined],
      ["said-twice", count((r) => `${r},"result":${r}`), "getblockcount/count", "encoding-only", "duplicate-key"],
      [
        "escaped",
        onCase("getblock", '["5",0]', (r) => `"\\u00${r.charCodeAt(1).toString(16)}${r.slice(2)}`),
        "getblock/raw-5",
        "encoding-only",
        "string-escapes",
      ],
      ["reordered", verbose((r) => r.replace(/^\{("hash":"[0-9a-f]+"),("confirmations":\d+),/, "{$2,$1,")), "getblock/verbose-5", "encoding-only", "key-order"],
      ["spaced", verbose((r) => r.replaceAll('","', '", "')), "getblock/verbose-5", "encoding-only", "whitespace"],
    ];
    const builds: [string, string][] = [];
    for (const [b, rw] of hostile) builds.push([b, await rewriter(rw)]);
    const { code, report } = await run("reencoded", { builds });
    expect(code).toBe(1);
    expect(healthyAnswers(report)).toEqual(baseline);
    for (const [b, , caseId, kind, aspect] of hostile) {
      expect([b, outcomeOf(report, caseId, b)]).toEqual([b, "new"]);
      const ds = divergencesOf(report, caseId, b);
      expect([b, [...new Set(ds.map((d) => d.kind))]]).toEqual([b, [kind]]);
      if (aspect) expect([b, ds.map((d) => d.encoding)]).toEqual([b, [aspect]]);
      // Every case it did not rewrite passes.
      const others = report.cases.filter((c) => c.caseId !== caseId && c.transport === "jsonrpc");
      expect([b, others.map((c) => outcomeOf(report, c.caseId, b))]).toEqual([b, others.map(() => "pass")]);
    }
    const madeUp = divergencesOf(report, "getblockcount/count", "made-up-first")[0]!;
    expect(madeUp.detail).toMatch(/a first-wins parser reads 300 on the left and 301 on the right, a last-wins parser 300 and 300/);
  }, 300_000);

  test("non-finite numbers, 300-digit integers and lone surrogates from a build: that build's divergences; the run and the healthy build intact", async () => {
    const strange: Rewrite = (call, body) => {
      if (call.method === "getdifficulty") return withResult(body, () => "1e999999");
      if (call.method === "getblockcount") return withResult(body, () => "9".repeat(300));
      if (call.method === "getblockheader") return withResult(body, (r) => r.replace(/"hash":"[0-9a-f]+"/, '"hash":"\\ud800"'));
      return undefined;
    };
    const { code, report, stderr } = await run("strange-build", { builds: [["strange", await rewriter(strange)]] });
    expect([code, stderr]).toEqual([1, expect.any(String)]);
    expect(healthyAnswers(report)).toEqual(baseline);
    const value = (caseId: string) => divergencesOf(report, caseId, "strange").map((d) => [d.kind, d.path, d.rightValue]);
    expect(value("getdifficulty/plain")).toEqual([["value", "result", "1e999999"]]);
    expect(value("getblockcount/count")).toEqual([["value", "result", "9".repeat(300)]]);
    expect(value("getblockheader/at-5")).toEqual([["value", "result.hash", "\ud800"]]);
  }, 300_000);

  test("non-finite numbers and lone surrogates from the oracle: the cases they answer diverge; every other result and every report survives", async () => {
    const strange: Rewrite = (call, body) => {
      if (call.method === "getdifficulty") return withResult(body, () => "1e999999");
      if (call.method === "getblockheader") return withResult(body, (r) => r.replace(/"hash":"[0-9a-f]+"/, '"hash":"\\udc00"'));
      return undefined;
    };
    const { code, report } = await run("strange-oracle", { builds: [], oracle: await rewriter(strange, net.jsonrpc) });
    expect(code).toBe(1);
    expect(healthyAnswers(report)).toEqual(baseline);
    expect(divergencesOf(report, "getdifficulty/plain", "healthy").map((d) => [d.kind, d.leftValue])).toEqual([["value", "1e999999"]]);
    expect(divergencesOf(report, "getblockheader/at-5", "healthy").map((d) => [d.kind, d.path, d.leftValue])).toEqual([["value", "result.hash", "\udc00"]]);
    const passed = report.cases
      .filter((c) => !["getdifficulty/plain", "getblockheader/at-5"].includes(c.caseId))
      .map((c) => outcomeOf(report, c.caseId, "healthy"));
    expect(passed).toEqual(passed.map(() => "pass"));
  }, 300_000);

  test("a 16 MiB body nested 8 million levels beside a healthy build: compared as bytes, no timeout elsewhere, peak RSS under 600 MB", async () => {
    const depth = (16 * MiB - 1024) >> 1;
    const deep = (id: unknown) =>
      Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`),
        Buffer.alloc(depth, "["),
        Buffer.alloc(depth, "]"),
        Buffer.from("}"),
      ]);
    // The preflight's getblockchaininfo is relayed: the build is reached, and then answers every case so.
    const { code, report, rss } = await run("deep", {
      builds: [["deep", await rewriter((call) => (call.method === "getblockchaininfo" ? undefined : deep(call.id)))]],
    });
    expect(code).toBe(1);
    expect(healthyAnswers(report)).toEqual(baseline);
    const jsonCases = report.cases.filter((c) => c.transport === "jsonrpc");
    for (const c of jsonCases) {
      expect([c.caseId, divergencesOf(report, c.caseId, "deep").map((d) => [d.kind, d.detail])]).toEqual([
        c.caseId,
        [["json-shape", "right body is not JSON (JSON nested deeper than 256 levels (compared as bytes))"]],
      ]);
    }
    // Nobody else was kept waiting: no fault on the healthy build or the oracle.
    const faults = report.cases.flatMap((c) =>
      [...(c.oracle ? [c.oracle] : []), ...c.answers].filter((a) => a.side !== "deep" && a.fault).map((a) => `${c.caseId} ${a.side} ${a.fault!.kind}`),
    );
    expect(faults).toEqual([]);
    process.stdout.write(`deep nesting: peak RSS ${(rss / MiB).toFixed(0)} MiB\n`);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(600 * MiB);
  }, 300_000);
});
