// Secrets never leave zconform: marker credentials are planted in a config (a password,
// the cookie token behind a cookie file, a bearer token, an API-key header, credentials
// in a URL) for builds and the oracle on the fixture network; the CLI then runs and
// records goldens, writing every output format, while a hostile build echoes every
// header it receives back in its error messages. No output file, and neither stdout nor
// stderr, may contain any marker in any spelling: as written, percent-encoded, base64,
// base64url, hex, or inside the authorization header built from it.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { basicHeader, cookieToken } from "../src/core/targets/auth.js";
import { pageDataText } from "../src/core/report/html-page-data.test-helper.js";
import { readJsonReport } from "../src/core/report/json-file.js";
import { runCli } from "./tools/cli.js";
import { startFaultProxy, type FaultProxy } from "./tools/fault-proxy.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

const BEARER = "zcf-MARKER-bearer-7f3a9c1e";
const API_KEY = "zcf-MARKER-apikey-51d2e8b4";

let net: FixtureNetwork;
let proxy: FaultProxy;
let dir: TempDir;
/** The reference JSON-RPC server's cookie token, written into the config as a password. */
let refToken: string;
/** The oracle's cookie token, reached through its cookie file. */
let oracleToken: string;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  proxy = await startFaultProxy({
    grpcUpstream: net.grpc.reference!,
    jsonrpcUpstream: net.jsonrpcProfiles.reference!.url,
    rules: [
      { transport: "grpc", rpc: "GetLatestBlock", header: { name: "x-build", value: "hostile" }, fault: { kind: "reflect-auth" } },
      { transport: "jsonrpc", rpc: "getblockcount", fault: { kind: "reflect-auth" } },
    ],
  });
  refToken = cookieToken(readFileSync(net.jsonrpcProfiles.reference!.cookie, "utf8"));
  oracleToken = cookieToken(readFileSync(net.cookie, "utf8"));
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
});

afterAll(async () => {
  await proxy?.close();
  await net?.close();
  dir?.remove();
});

function configText(): string {
  const proxyRpc = new URL(proxy.jsonrpcUrl);
  return [
    "chain: fixture",
    `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
    "builds:",
    "  - name: plain",
    "    implementation: other",
    `    grpc: { url: "${net.grpc.reference}", bearerToken: "${BEARER}", headers: { x-api-key: "${API_KEY}", x-build: plain }, public: [x-build] }`,
    `    jsonrpc: { url: "${net.jsonrpcProfiles.reference!.url}", user: __cookie__, password: "\${ZCF_REF_TOKEN}" }`,
    "  - name: hostile",
    "    implementation: other",
    `    grpc: { url: "${proxy.grpcUrl}", bearerToken: "${BEARER}", headers: { x-api-key: "${API_KEY}", x-build: hostile }, public: [x-build] }`,
    // Credentials in the URL, percent-encoded (the token has '/', '+' and '=').
    `    jsonrpc: { url: "http://__cookie__:${encodeURIComponent(refToken)}@${proxyRpc.host}/" }`,
  ].join("\n");
}

/** Every spelling of a secret that must not appear anywhere. */
function spellings(secret: string): string[] {
  const b = Buffer.from(secret, "utf8");
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    b.toString("base64"),
    b.toString("base64").replace(/=+$/, ""),
    b.toString("base64url"),
    b.toString("hex"),
  ];
}

function allFiles(root: string): string[] {
  return readdirSync(root).flatMap((f) => {
    const p = join(root, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe("secrets in every output", () => {
  test("no marker, in any spelling, in any output file, stdout or stderr", async () => {
    const cfg = dir.write("zconform.config.yaml", configText());
    const out = join(dir.path, "out");
    const env = { ZCF_REF_TOKEN: refToken };
    const cases = join(dir.path, "cases");
    const runs = [
      await runCli(
        ["run", "-c", cfg, "--cases", cases, "--json", join(out, "report.json"), "--junit", join(out, "report.xml"), "--html", join(out, "report.html")],
        60_000,
        { env },
      ),
      await runCli(["record", "-c", cfg, "--cases", cases, "--dir", join(out, "golden")], 60_000, { env }),
    ];
    for (const r of runs) expect([0, 1]).toContain(r.code);

    const secrets = [BEARER, API_KEY, refToken, oracleToken, basicHeader("__cookie__", refToken), basicHeader("__cookie__", oracleToken), `Bearer ${BEARER}`];
    const forms = [...new Set(secrets.flatMap(spellings))];
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
    expect(outputs.length).toBeGreaterThan(8); // three reports, goldens, and the streams
    const hits = outputs.flatMap(([where, text]) => forms.filter((f) => text.includes(f)).map((f) => `${where}: ${f}`));
    expect(hits).toEqual([]);

    // The hostile build really did echo what it was sent; the reports show it masked.
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as JsonReport;
    const hostile = (id: string) => report.cases.find((c) => c.caseId === id)!.answers.find((a) => a.side === "hostile")!;
    expect(hostile("GetLatestBlock/tip").message).toMatch(/^who are you\? you sent .*x-api-key=\*\*\*;/);
    expect(hostile("GetLatestBlock/tip").message).toContain("authorization=***");
    expect(hostile("getblockcount/count").message).toContain("who are you? you sent authorization=***");
    // The plain build authenticated with the marker password: its answers are real.
    expect(report.cases.find((c) => c.caseId === "getblock/raw-5")!.answers.every((a) => a.status === "OK")).toBe(true);
  });
});
