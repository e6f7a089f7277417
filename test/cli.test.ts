// The command line as a user meets it: help, listings, and clear errors with exit code 2.

import { describe, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CompactTxStreamer } from "../src/zcash/gen/walletrpc/service_pb.js";
import { JSONRPC_METHOD_NAMES } from "../src/zcash/jsonrpc-methods.js";

const ROOT = join(import.meta.dirname, "..");

function zconform(args: string[], cwd = ROOT): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "zconform.js"), ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("zconform", () => {
  test("--help lists the commands and exits 0", () => {
    const r = zconform(["--help"]);
    expect(r.code).toBe(0);
    for (const cmd of ["run", "demo", "record", "cases", "fixture", "decode"]) expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\b`, "m"));
  });

  test("--version and -V print the package's version and exit 0", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) expect(zconform([flag])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  test("an unknown command or option exits 2 and says what is wrong", () => {
    expect(zconform(["frobnicate"]).code).toBe(2);
    const r = zconform(["run", "--no-such-option"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--no-such-option'/);
  });

  test("cases --json lists 278 gRPC cases over the 20 rpcs and cases for the 29 JSON-RPC methods", () => {
    const r = zconform(["cases", "--json"]);
    expect(r.code).toBe(0);
    const cases = JSON.parse(r.stdout) as { id: string; method: string; transport: string }[];
    const grpc = cases.filter((c) => c.transport === "grpc");
    expect(grpc).toHaveLength(278);
    expect(new Set(grpc.map((c) => c.method))).toEqual(new Set(CompactTxStreamer.methods.map((m) => m.name)));
    expect(new Set(cases.filter((c) => c.transport === "jsonrpc").map((c) => c.method))).toEqual(new Set(JSONRPC_METHOD_NAMES));
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  test("a malformed case file is reported with file, line and field, and exits 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-cli-"));
    try {
      cpSync(join(ROOT, "cases"), join(dir, "cases"), { recursive: true });
      const file = join(dir, "cases", "grpc", "GetBlock.yaml");
      const lines = readFileSync(file, "utf8").split("\n");
      const at = lines.findIndex((l) => /^\s+request:/.test(l));
      lines[at] = lines[at]!.replace("request:", "requets:");
      writeFileSync(file, lines.join("\n"));
      const r = zconform(["cases", "--cases", join(dir, "cases")]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`GetBlock.yaml:${at + 1}: cases[0].requets: is not a known field`);
      const run = zconform(["demo", "--cases", join(dir, "cases")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`GetBlock.yaml:${at + 1}:`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("run without a config file says how to get one, and exits 2", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-cli-"));
    try {
      const r = zconform(["run", "--cases", join(ROOT, "cases")], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/config file not found: zconform\.config\.yaml .*zconform demo/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a config with errors names its file, line and field", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-cli-"));
    try {
      writeFileSync(join(dir, "zconform.config.yaml"), "chain: fixture\nbuilds:\n  - name: x\n    implementation: zaino\n    grpc: { url: ftp://nowhere }\n");
      const r = zconform(["run", "--cases", join(ROOT, "cases")], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/zconform\.config\.yaml:5: builds\[0\]\.grpc\.url: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
