// The README and docs/ are what users read and copy first: their examples must work as
// written, the README must stay short enough to read, and every link must lead somewhere.

import { describe, expect, test } from "@jest/globals";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseConfig } from "../src/core/targets/config.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const ROOT = join(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`)
  .sort();
/** Every page a user reads: the README, CONTRIBUTING.md, docs/ and the benchmarks' figures. */
const PAGES = ["README.md", "CONTRIBUTING.md", ...DOCS, "bench/README.md"];

/** The fenced blocks of a page, with their language. */
function blocks(file: string): { lang: string; body: string }[] {
  return [...read(file).matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
}

function block(file: string, lang: string, containing: string): string {
  const found = blocks(file).find((b) => b.lang === lang && b.body.includes(containing));
  if (!found) throw new Error(`${file} has no ${lang} block containing ${containing}`);
  return found.body;
}

const parse = (file: string, text: string) => parseConfig(text, file, lightwalletProtocol, { env: { ZAINO_RPC_PASSWORD: "x".repeat(12) }, checkFiles: false });

describe("the README", () => {
  test("has at most 150 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(150);
  });

  test("the tour's one-backend audit config parses: mainnet, one TLS build, Zebra with its cookie as the oracle", () => {
    const config = parse("README.md", block("README.md", "yaml", "audit.config.yaml"));
    expect(config.chain).toBe("mainnet");
    expect(config.builds.map((b) => [b.name, b.grpc?.url.startsWith("https://")])).toEqual([["public-lwd", true]]);
    expect(config.oracle?.jsonrpc.auth?.kind).toBe("cookie");
  });

  test("every command it lists exists", async () => {
    const listed = [...block("README.md", "", "zconform demo").matchAll(/^zconform (\w+)/gm)].map((m) => m[1]);
    expect(listed.length).toBeGreaterThan(0);
    const { spawnSync } = await import("node:child_process");
    const help = spawnSync(process.execPath, [join(ROOT, "bin", "zconform.js"), "--help"], { encoding: "utf8" }).stdout;
    for (const cmd of listed) expect(help).toMatch(new RegExp(`^  ${cmd}\\b`, "m"));
  });

  test("the exit codes it documents are the ones runs use", async () => {
    const { EXIT } = await import("../src/core/run/session.js");
    const table = [...read("README.md").matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
    expect(table).toEqual([EXIT.ok, EXIT.findings, EXIT.usage, EXIT.unchecked, EXIT.sigint, EXIT.sigterm]);
  });

  test("links every page of docs/", () => {
    const readme = read("README.md");
    expect(DOCS.filter((d) => !readme.includes(`](${d})`))).toEqual([]);
  });
});

describe("docs/", () => {
  test("the config example parses as a builds config", () => {
    const config = parse("docs/configuration.md", block("docs/configuration.md", "yaml", "builds:"));
    expect(config.builds.map((b) => [b.name, b.implementation, Boolean(b.grpc), Boolean(b.jsonrpc)])).toEqual([
      ["lightwalletd", "lightwalletd", true, false],
      ["zaino", "zaino", true, true],
      ["zebrad", "zebrad", true, true],
    ]);
    expect(config.oracle?.jsonrpc.auth?.kind).toBe("cookie");
  });

  test("the jest example imports a subpath the package exports", () => {
    const pkg = JSON.parse(read("package.json")) as { exports: Record<string, unknown> };
    const from = /from "zconform(\/[a-z]+)?"/.exec(block("docs/ci.md", "ts", "conformanceSuite"))!;
    expect(Object.keys(pkg.exports)).toContain(`.${from[1] ?? ""}`);
  });
});

describe("every page", () => {
  test("every zconform config example parses", () => {
    // A config is a YAML block with top-level builds; other YAML blocks are case, ledger, scenario or CI files.
    const configs = PAGES.flatMap((file) =>
      blocks(file)
        .filter((b) => b.lang === "yaml" && /^builds:/m.test(b.body))
        .map((b) => ({ file, body: b.body })),
    );
    expect(configs.map((c) => c.file)).toEqual(expect.arrayContaining(["README.md", "docs/configuration.md"]));
    for (const c of configs) expect({ file: c.file, builds: parse(c.file, c.body).builds.length > 0 }).toEqual({ file: c.file, builds: true });
  });

  test("every JSON example parses", () => {
    const json = PAGES.flatMap((file) =>
      blocks(file)
        .filter((b) => b.lang === "json")
        .map((b) => ({ file, body: b.body })),
    );
    expect(json.length).toBeGreaterThan(0);
    for (const j of json) expect(() => JSON.parse(j.body)).not.toThrow();
  });

  test("every relative link points to a file that exists", () => {
    const broken = PAGES.flatMap((file) =>
      [...read(file).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
        .filter((target) => !existsSync(join(ROOT, dirname(file), decodeURIComponent(target.split("#")[0]!))))
        .map((target) => `${file}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  test("every test file it names exists", () => {
    const named = PAGES.flatMap((file) => [...read(file).matchAll(/\b((?:src|test)\/[\w./-]+\.test(?:-helper)?\.ts)\b/g)].map((m) => ({ file, test: m[1]! })));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((n) => !existsSync(join(ROOT, n.test))).map((n) => `${n.file}: ${n.test}`)).toEqual([]);
  });
});
