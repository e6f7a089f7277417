// The README's examples are what users copy first: they must work as written.

import { expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../src/core/targets/config.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const ROOT = join(import.meta.dirname, "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

function block(lang: string, containing: string): string {
  const re = new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g");
  for (const m of readme.matchAll(re)) if (m[1]!.includes(containing)) return m[1]!;
  throw new Error(`no ${lang} block containing ${containing}`);
}

test("the config example parses as a builds config", () => {
  const config = parseConfig(block("yaml", "builds:"), "README.md", lightwalletProtocol, { env: { ZAINO_RPC_PASSWORD: "x".repeat(12) }, checkFiles: false });
  expect(config.builds.map((b) => [b.name, b.implementation, Boolean(b.grpc), Boolean(b.jsonrpc)])).toEqual([
    ["lightwalletd", "lightwalletd", true, false],
    ["zaino", "zaino", true, true],
    ["zebrad", "zebrad", true, true],
  ]);
  expect(config.oracle?.jsonrpc.auth?.kind).toBe("cookie");
});

test("the jest example imports a subpath the package exports", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  const from = /from "zconform(\/[a-z]+)?"/.exec(block("ts", "conformanceSuite"))!;
  expect(Object.keys(pkg.exports)).toContain(`.${from[1] ?? ""}`);
});

test("every command the README lists exists", async () => {
  const listed = [...block("", "zconform demo").matchAll(/^zconform (\w+)/gm)].map((m) => m[1]);
  const { spawnSync } = await import("node:child_process");
  const help = spawnSync(process.execPath, [join(ROOT, "bin", "zconform.js"), "--help"], { encoding: "utf8" }).stdout;
  for (const cmd of listed) expect(help).toMatch(new RegExp(`^  ${cmd}\\b`, "m"));
});

test("the one-backend audit example parses: mainnet, one TLS build, Zebra with its cookie as the oracle", () => {
  const config = parseConfig(block("yaml", "audit.config.yaml"), "README.md", lightwalletProtocol, { checkFiles: false });
  expect(config.chain).toBe("mainnet");
  expect(config.builds.map((b) => [b.name, b.grpc?.url.startsWith("https://")])).toEqual([["public-lwd", true]]);
  expect(config.oracle?.jsonrpc.auth?.kind).toBe("cookie");
});

test("the exit codes the README documents are the ones runs use", async () => {
  const { EXIT } = await import("../src/core/run/session.js");
  const table = [...readme.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
  expect(table).toEqual([EXIT.ok, EXIT.findings, EXIT.usage, EXIT.unchecked, EXIT.sigint, EXIT.sigterm]);
});
