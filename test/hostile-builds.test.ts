// A run that no server can break. Each hostile server is configured as a build beside a
// healthy one (the fixture's reference server) and the CLI runs in a child process with
// the default limits: the run must complete, write every report whole and valid, keep
// the healthy build's answers exactly as they are without the hostile one, and stay
// under 1 GB of peak memory (the child's own maxRSS, written when it exits).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Ajv } from "ajv";
import { XMLValidator } from "fast-xml-parser";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { expandReport, type JsonReportFile } from "../src/core/report/json-file.js";
import { runCli, REPO } from "./tools/cli.js";
import { startHostileGrpc, startHostileJsonRpc, type HostileServer } from "./tools/hostile-servers.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

const MiB = 1024 * 1024;
const RSS_LIMIT_BYTES = 1024 * MiB;

let net: FixtureNetwork;
let dir: TempDir;
let baseline: Map<string, string>;
const validate = new Ajv({ strict: false, validateFormats: false }).compile(JSON.parse(readFileSync(join(REPO, "schemas", "report.schema.json"), "utf8")));

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  // Twelve JSON-RPC cases, for twelve large answers from a hostile build.
  dir.write(
    "cases/jsonrpc/getblock.yaml",
    ["method: getblock", "cases:", ...Array.from({ length: 12 }, (_, i) => `  - { id: raw-${i + 1}, request: ["${i + 1}", 0] }`)].join("\n"),
  );
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  dir.write(
    "rss.cjs",
    [
      "const { writeFileSync } = require('node:fs');",
      "process.on('exit', () => writeFileSync(process.env.ZCONFORM_TEST_RSS_FILE, String(process.resourceUsage().maxRSS * 1024)));",
    ].join("\n"),
  );
  baseline = healthyAnswers((await run("baseline", [])).report);
}, 120_000);

afterAll(async () => {
  await net?.close();
  if (!process.env.ZCONFORM_KEEP_TEST_DIR) dir?.remove();
});

function config(name: string, hostile: string[], head: string[] = []): string {
  const ref = net.jsonrpcProfiles.reference!;
  return dir.write(
    `${name}.config.yaml`,
    [
      "chain: fixture",
      ...head,
      `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
      "builds:",
      `  - { name: healthy, implementation: other, grpc: { url: "${net.grpc.reference!}" }, jsonrpc: { url: "${ref.url}", cookieFile: "${ref.cookie}" } }`,
      ...hostile,
    ].join("\n"),
  );
}

async function run(name: string, hostile: string[], head: string[] = []) {
  const out = (ext: string) => join(dir.path, `${name}.${ext}`);
  const rssFile = out("rss");
  const r = await runCli(
    ["run", "-c", config(name, hostile, head), "--cases", join(dir.path, "cases"), "-q", "--json", out("json"), "--junit", out("xml"), "--html", out("html")],
    240_000,
    { env: { NODE_OPTIONS: `--require ${join(dir.path, "rss.cjs")}`, ZCONFORM_TEST_RSS_FILE: rssFile } },
  );
  // 3: the run finished and says the hostile build could not be checked where it broke its
  // answers; 0 or 1 where its answers stayed well-formed. 2 or a crash would mean no run.
  if (![0, 1, 3].includes(r.code ?? -1)) throw new Error(`${name}: exit ${r.code} (${r.signal})\n${r.stderr}`);
  const text = readFileSync(out("json"), "utf8");
  const file = JSON.parse(text) as JsonReportFile;
  expect(validate(file) ? [] : validate.errors).toEqual([]);
  // Bodies the file writes once (bodies) read back into every answer.
  const report: JsonReportFile = expandReport(file);
  expect(report.partial).toBe(false);
  expect(XMLValidator.validate(readFileSync(out("xml"), "utf8"))).toBe(true);
  expect(readFileSync(out("html"), "utf8").trimEnd().endsWith("</html>")).toBe(true);
  return { report, rss: Number(readFileSync(rssFile, "utf8")) };
}

/** The healthy build's answer to each case: status and bytes (or, when it is elided, its hash). */
function healthyAnswers(report: JsonReportFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of report.cases) {
    const all = [...(c.oracle ? [c.oracle] : []), ...c.answers];
    const a = c.answers.find((x) => x.side === "healthy");
    if (!a) continue;
    const bytes = "sameAs" in a ? all.find((x) => x.side === a.sameAs)! : a;
    out.set(c.caseId, JSON.stringify([a.status, "hex" in bytes ? bytes.hex : null, "elided" in bytes ? bytes.elided?.sha256 : null]));
  }
  return out;
}

const hostileBuild = (line: string) => [`  - { name: hostile, implementation: other, ${line} }`];

type HostileAnswer = JsonReportFile["cases"][number]["answers"][number];
interface Scenario {
  name: string;
  start: () => Promise<HostileServer>;
  build: (url: string) => string;
  /** The fault some of the hostile build's answers must show ("" for none in particular). */
  fault: string;
  check?: (report: JsonReportFile, hostile: HostileAnswer[]) => void;
}

const scenarios: Scenario[] = [
  {
    name: "an endless stream of small messages",
    start: () => startHostileGrpc({ kind: "endless", messageBytes: 181 }),
    build: (u) => `grpc: { url: "${u}" }`,
    fault: "too-long",
  },
  {
    name: "an endless stream of 1 MiB messages",
    start: () => startHostileGrpc({ kind: "endless", messageBytes: MiB }),
    build: (u) => `grpc: { url: "${u}" }`,
    fault: "too-large",
  },
  { name: "a 4 GiB length prefix", start: () => startHostileGrpc({ kind: "huge-prefix" }), build: (u) => `grpc: { url: "${u}" }`, fault: "too-large" },
  {
    name: "an endless startup GetLightdInfo",
    start: () => startHostileGrpc({ kind: "endless", messageBytes: MiB, onlyRpc: "GetLightdInfo" }),
    build: (u) => `grpc: { url: "${u}" }`,
    fault: "",
    // The startup call was cut: no protocol version was read from it.
    check: (report) => expect(report.builds.find((b) => b.name === "hostile")?.protocolVersion).toBeUndefined(),
  },
  {
    name: "12 JSON-RPC answers of 16 MiB",
    start: () => startHostileJsonRpc({ kind: "large-body", bodyBytes: 16 * MiB - 1024 }),
    build: (u) => `jsonrpc: { url: "${u}" }`,
    fault: "",
    // Every answer arrived whole and is kept as its length, hash, head and tail.
    check: (_report, hostile) => {
      expect(hostile.filter((a) => "elided" in a && a.elided?.bytes === 16 * MiB - 1024).length).toBeGreaterThanOrEqual(12);
    },
  },
  {
    name: "a 200 MB JSON-RPC body",
    start: () => startHostileJsonRpc({ kind: "large-body", bodyBytes: 200_000_000 }),
    build: (u) => `jsonrpc: { url: "${u}" }`,
    fault: "too-large",
  },
];

describe("hostile builds beside a healthy one, default limits", () => {
  test.each(scenarios)(
    "$name: the run completes, every report is valid, the healthy build is intact, peak RSS < 1 GB",
    async (s) => {
      const server = await s.start();
      try {
        const name = s.name.replace(/[^a-z0-9]+/gi, "-");
        const { report, rss } = await run(name, hostileBuild(s.build(server.url)));
        expect(healthyAnswers(report)).toEqual(baseline);
        const hostile = report.cases.flatMap((c) => c.answers.filter((a) => a.side === "hostile"));
        expect(hostile.length).toBeGreaterThan(0);
        if (s.fault) expect(hostile.some((a) => a.fault?.kind === s.fault)).toBe(true);
        s.check?.(report, hostile);
        expect(rss).toBeGreaterThan(0);
        expect(rss).toBeLessThan(RSS_LIMIT_BYTES);
        process.stdout.write(`${s.name}: peak RSS ${(rss / MiB).toFixed(0)} MiB\n`);
      } finally {
        await server.close();
      }
    },
    300_000,
  );
});

// maxRunBytes is one budget for every call of the run: here it is smaller than what the
// builds' own limits allow each call, so every call (the healthy build's and the
// oracle's too) holds the whole budget in turn.
describe("hostile builds under a run-wide byte budget (maxRunBytes)", () => {
  const hostileBuilds = (url: string) => ["a", "b"].map((n) => `  - { name: hostile-${n}, implementation: other, jsonrpc: { url: "${url}" } }`);
  // An answer identical to another side's is kept once, as `sameAs` that side.
  const answersOf = (report: JsonReportFile) =>
    report.cases.flatMap((c) => {
      const all = [...(c.oracle ? [c.oracle] : []), ...c.answers];
      return c.answers
        .filter((a) => a.side.startsWith("hostile-"))
        .map((a) => ("sameAs" in a ? { ...all.find((x) => x.side === a.sameAs)!, side: a.side } : a));
    });

  test("answers that fit the budget wait for it and arrive whole; the healthy build is intact", async () => {
    const server = await startHostileJsonRpc({ kind: "large-body", bodyBytes: 3 * MiB });
    try {
      const { report } = await run("budget-waits", hostileBuilds(server.url), [`defaults: { maxRunBytes: ${4 * MiB} }`]);
      expect(healthyAnswers(report)).toEqual(baseline);
      const hostile = answersOf(report);
      expect(hostile.length).toBeGreaterThanOrEqual(24);
      expect(hostile.filter((a) => a.fault)).toEqual([]);
      expect(hostile.filter((a) => "elided" in a && a.elided?.bytes === 3 * MiB).length).toBeGreaterThanOrEqual(24);
    } finally {
      await server.close();
    }
  }, 300_000);

  test("an answer larger than the whole budget is cut there and is a too-large fault naming maxRunBytes", async () => {
    const server = await startHostileJsonRpc({ kind: "large-body", bodyBytes: 3 * MiB });
    try {
      const { report } = await run("budget-cuts", hostileBuilds(server.url), [`defaults: { maxRunBytes: ${2 * MiB} }`]);
      expect(healthyAnswers(report)).toEqual(baseline);
      const faults = answersOf(report).map((a) => a.fault);
      expect(faults.length).toBeGreaterThanOrEqual(24);
      for (const f of faults) {
        expect(f?.kind).toBe("too-large");
        expect(f?.detail).toContain(`maxRunBytes (${2 * MiB})`);
      }
    } finally {
      await server.close();
    }
  }, 300_000);
});

// The oracle is a peer like any other: the run's maxMessageBytes bounds its bodies too, not
// a built-in limit of its own.
describe("the oracle under the configured limits", () => {
  test("a node body over maxMessageBytes is cut at the configured limit, a fault of the oracle on that case", async () => {
    const limit = 2048;
    const { report } = await run("oracle-limit", [], [`defaults: { maxMessageBytes: ${limit} }`]);
    const oracleFaults = report.cases.flatMap((c) => (c.oracle?.fault ? [c.oracle.fault] : []));
    expect(oracleFaults.length).toBeGreaterThan(0);
    expect(oracleFaults.every((f) => f.kind === "too-large")).toBe(true);
    expect(oracleFaults[0]!.detail).toContain(String(limit));
    expect(oracleFaults.some((f) => f.detail.includes(String(64 * MiB)))).toBe(false);
  }, 300_000);
});
