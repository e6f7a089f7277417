// A marker secret planted in each place a config can hold one (a URL's query, a header
// whose name does not look like a credential, a URL's user name and password, a bearer
// token) is echoed
// back by hostile builds in every spelling: as sent, `\u`-escaped in the raw body,
// percent-encoded, upper-case hex, base64 at byte offsets 0, 1 and 2. No output file,
// stream or config error may hold any marker in any encoding. The search is independent
// of how zconform masks: every run of hex and of base64 in the output is decoded at each
// alignment and searched for the marker's text spellings.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { pageDataText } from "../src/core/report/html-page-data.test-helper.js";
import { readJsonReport } from "../src/core/report/json-file.js";
import { runCli } from "./tools/cli.js";
import { startEchoJsonRpc, unicodeEscaped, type HostileServer } from "./tools/hostile-servers.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

const QUERY = "zcfQUERYmarker0a1b2c";
const MACAROON = "zcfMACAROONmarker9f8e";
const PASSWORD = "zcfPASSWORDmarker4d5e";
const BEARER = "zcfBEARERmarker77aa88";
const URL_USER = "zcfURLUSERmarker6c7d";
const CONFIG_ERROR = "zcfCONFIGERRmarker31";
const MARKERS = [QUERY, MACAROON, PASSWORD, BEARER, URL_USER, CONFIG_ERROR];

let net: FixtureNetwork;
let echo: HostileServer;
let dir: TempDir;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  echo = await startEchoJsonRpc();
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
});

afterAll(async () => {
  await echo?.close();
  await net?.close();
  dir?.remove();
});

/** The text spellings of a secret. */
function textSpellings(s: string): string[] {
  return [s, encodeURIComponent(s), unicodeEscaped(s), unicodeEscaped(s).toUpperCase().replaceAll("\\U", "\\u")];
}

/** Where a marker appears in `text`: as text, or inside any hex or base64 run at any alignment. */
function leaks(text: string, marker: string): string[] {
  const spellings = textSpellings(marker);
  const found = (s: string) => spellings.some((f) => s.includes(f));
  const out: string[] = [];
  if (found(text)) out.push("text");
  for (const m of text.matchAll(/[0-9a-fA-F]{16,}/g)) {
    for (const at of [0, 1]) {
      const run = m[0].slice(at);
      if (found(Buffer.from(run.slice(0, run.length & ~1), "hex").toString("latin1"))) out.push(`hex ${m[0].slice(0, 24)}…`);
    }
  }
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{12,}/g)) {
    for (const at of [0, 1, 2, 3]) {
      const run = m[0].slice(at).replaceAll("-", "+").replaceAll("_", "/");
      if (found(Buffer.from(run, "base64").toString("latin1"))) out.push(`base64 ${m[0].slice(0, 24)}…`);
    }
  }
  return out;
}

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((f) => {
    const p = join(root, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe("secrets in every encoding", () => {
  test("the search finds each encoding a hostile build echoes, so a clean result means something", () => {
    const b64 = (s: string) => Buffer.from(s).toString("base64");
    expect(leaks(`x ${QUERY} y`, QUERY)).toEqual(["text"]);
    expect(leaks(Buffer.from(`"${unicodeEscaped(QUERY)}"`).toString("hex"), QUERY).length).toBeGreaterThan(0);
    expect(leaks(Buffer.from(QUERY).toString("hex").toUpperCase(), QUERY).length).toBeGreaterThan(0);
    for (const pre of ["", "x", "xy"]) expect(leaks(`a ${b64(`${pre}${QUERY}!`)} b`, QUERY).length).toBeGreaterThan(0);
    expect(leaks(`a ${Buffer.from(`x${QUERY}`).toString("base64url")} b`, QUERY).length).toBeGreaterThan(0);
  });

  test("no marker, in any encoding, in any report, golden, stream or config error", async () => {
    const echoUrl = new URL(echo.url);
    const cfg = dir.write(
      "zconform.config.yaml",
      [
        "chain: fixture",
        `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
        "builds:",
        `  - { name: reference, implementation: other, grpc: { url: "${net.grpc.reference}" } }`,
        `  - { name: echo-a, implementation: other, jsonrpc: { url: "http://${URL_USER}:${PASSWORD}@${echoUrl.host}/?apikey=${QUERY}", headers: { x-macaroon: "${MACAROON}", x-build: echo-a }, public: [x-build] } }`,
        `  - { name: echo-b, implementation: other, jsonrpc: { url: "${echo.url}", bearerToken: "${BEARER}" } }`,
      ].join("\n"),
    );
    // A config with mistakes beside a password in a URL: the errors must not quote it.
    const bad = dir.write(
      "bad.config.yaml",
      [
        "chain: fixture",
        "builds:",
        `  - { name: a, implementation: other, grpc: { url: "http://${CONFIG_ERROR}:${CONFIG_ERROR}@h:1/\${NOT CLOSED" } }`,
        `  - { name: b, implementation: nope, grpc: { url: "htt://user:${CONFIG_ERROR}@h", bogus: 1 }, jsonrpc: { url: "http://${CONFIG_ERROR}:${CONFIG_ERROR}@h:1/?k=${CONFIG_ERROR}", user: x } }`,
      ].join("\n"),
    );
    const out = join(dir.path, "out");
    const cases = join(dir.path, "cases");
    const runs = [
      await runCli([
        "run",
        "-c",
        cfg,
        "--cases",
        cases,
        "--json",
        join(out, "report.json"),
        "--junit",
        join(out, "report.xml"),
        "--html",
        join(out, "report.html"),
      ]),
      await runCli(["record", "-c", cfg, "--cases", cases, "--dir", join(out, "golden")]),
      await runCli(["run", "-c", bad, "--cases", cases]),
    ];
    expect(runs.map((r) => r.code)).toEqual([1, 0, 2]);
    expect(runs[2]!.stderr).toContain("bad.config.yaml:3");

    const outputs: [string, string][] = [
      ...runs.flatMap((r, i): [string, string][] => [
        [`stdout of run ${i}`, r.stdout],
        [`stderr of run ${i}`, r.stderr],
      ]),
      ...allFiles(out).map((f): [string, string] => [f, readFileSync(f, "latin1")]),
      // What the files hold compressed: the HTML report's embedded data, the JSON report's long requests.
      ...allFiles(out)
        .filter((f) => f.endsWith(".html"))
        .map((f): [string, string] => [`${f} (embedded data)`, pageDataText(readFileSync(f, "utf8"))]),
      [`${join(out, "report.json")} (read back)`, JSON.stringify(readJsonReport(join(out, "report.json")))],
    ];
    expect(allFiles(out).filter((f) => f.includes("golden")).length).toBeGreaterThan(0);
    const hits = outputs.flatMap(([where, text]) => MARKERS.flatMap((m) => leaks(text, m).map((how) => `${where}: ${m} as ${how}`)));
    expect(hits).toEqual([]);

    // The echo builds did answer with the markers; the report shows them masked.
    const report = readJsonReport(join(out, "report.json"));
    const answer = report.cases.find((c) => c.caseId === "getblockcount/count")!.answers.find((a) => a.side === "echo-a")!;
    expect(answer.status).toBe("OK");
    const echoed = "json" in answer ? (answer.json as { result: string[] }).result : [];
    expect(echoed).toContain("plain ***");
    expect(echoed).toContain("escaped ***");
  }, 180_000);
});
