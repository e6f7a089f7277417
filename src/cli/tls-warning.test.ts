// Certificate checks can be switched off per endpoint for test networks, and then every
// run says so, loudly, for builds and for the oracle alike.

import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inputsFromConfig } from "./inputs.js";

const dir = mkdtempSync(join(tmpdir(), "zconform-tls-warning-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(config: string): string[] {
  mkdirSync(join(dir, "cases", "chains"), { recursive: true });
  writeFileSync(join(dir, "cases", "chains", "testnet.yaml"), "name: testnet\nnetwork: testnet\nanchors: { tip: 1 }\n");
  const file = join(dir, "zconform.config.yaml");
  writeFileSync(file, config);
  const lines: string[] = [];
  inputsFromConfig({ config: file, cases: join(dir, "cases") }, { stdout: (l) => lines.push(`out: ${l}`), stderr: (l) => lines.push(`err: ${l}`) });
  return lines;
}

describe("insecureSkipVerify is announced", () => {
  test("for a build and for the oracle, on stderr", () => {
    const lines = run(
      [
        "chain: testnet",
        "oracle: { jsonrpc: { url: 'https://zebra.example:8232', insecureSkipVerify: true } }",
        "builds:",
        "  - { name: lwd, implementation: lightwalletd, grpc: { url: 'https://lwd.example:9067', insecureSkipVerify: true } }",
        "  - { name: checked, implementation: zaino, grpc: { url: 'https://zaino.example:8137' } }",
      ].join("\n"),
    );
    expect(lines).toEqual([
      "err: WARNING: TLS certificate verification is OFF for build lwd (https://lwd.example:9067); answers could come from anyone",
      "err: WARNING: TLS certificate verification is OFF for the oracle (https://zebra.example:8232); its answers could come from anyone",
    ]);
  });

  test("nothing is said when every endpoint verifies", () => {
    expect(run("chain: testnet\nbuilds:\n  - { name: a, implementation: other, grpc: { url: 'https://a.example:1' } }\n")).toEqual([]);
  });
});
