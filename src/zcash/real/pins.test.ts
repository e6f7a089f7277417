import { afterAll, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../../core/io/input-limits.js";
import { ProblemsError } from "../../core/io/located-yaml.js";
import { sparseFile, tooLarge } from "../../core/io/oversized.test-helper.js";
import { binaryPath, describePin, loadPins, pinsOf } from "./pins.js";
import { installPin, installSteps, missingPrerequisites } from "./install.js";

const folders: string[] = [];
const pinsFile = (text: string) => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-pins-"));
  folders.push(dir);
  const file = join(dir, "real-servers.yaml");
  writeFileSync(file, text);
  return file;
};
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("real-servers.yaml pins lightwalletd v0.5.4, zainod 0.10.1 and 0.9.0, zebrad 7.0.0 with the internal miner", () => {
  const pins = loadPins();
  expect(pinsOf(pins, "lightwalletd").map((p) => p.version)).toEqual(["v0.5.4"]);
  expect(pinsOf(pins, "zainod").map((p) => p.version)).toEqual(["0.10.1", "0.9.0"]);
  const zebrad = pinsOf(pins, "zebrad")[0]!;
  expect(zebrad.version).toBe("7.0.0");
  expect(zebrad.cargoFlags).toEqual(["--no-default-features", "--features", "internal-miner"]);
  expect(describePin(pinsOf(pins, "lightwalletd")[0]!)).toBe("lightwalletd v0.5.4 (go github.com/zcash/lightwalletd)");
});

test("each pin installs into <cache>/<name>-<version>/bin, the cache from ZCONFORM_REAL_CACHE", () => {
  const env = { ZCONFORM_REAL_CACHE: "/cache" };
  const [lwd] = pinsOf(loadPins(), "lightwalletd");
  expect(binaryPath(lwd!, env)).toBe("/cache/lightwalletd-v0.5.4/bin/lightwalletd");
  expect(installSteps(lwd!, env).map((s) => [s.command, ...s.args].join(" "))).toEqual([
    "go mod download -json github.com/zcash/lightwalletd@v0.5.4",
    // A release build, as lightwalletd's Makefile makes one: it reports v0.5.4, not v0.0.0.0-dev.
    "go build -trimpath -ldflags -X github.com/zcash/lightwalletd/common.Version=v0.5.4 -o /cache/lightwalletd-v0.5.4/bin/lightwalletd .",
  ]);
  const [zebrad] = pinsOf(loadPins(), "zebrad");
  expect(installSteps(zebrad!, env).map((s) => [s.command, ...s.args].join(" "))).toEqual([
    "cargo install zebrad --version 7.0.0 --locked --root /cache/zebrad-7.0.0 --no-default-features --features internal-miner",
  ]);
});

test("a bad pins file names its line and field", () => {
  const file = pinsFile(
    "servers:\n  - name: lightwalletd\n    version: latest\n    registry: go\n    module: github.com/zcash/lightwalletd\n  - name: zainod\n    version: 0.10.1\n    registry: crates.io\n",
  );
  let error: unknown;
  try {
    loadPins(file);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ProblemsError);
  expect((error as Error).message).toContain(`${file}:3: servers[0].version:`);
});

test("a pins file over the size limit is refused at its line 1, naming the limit, before it is read", () => {
  const file = sparseFile(pinsFile(""));
  expect(() => loadPins(file)).toThrow(ProblemsError);
  expect(() => loadPins(file)).toThrow(`${file}:1: ${tooLarge("the pins file", INPUT_LIMITS.pinsBytes)}`);
});

test("a crates.io pin without its crate is refused at its line", () => {
  const file = pinsFile("servers:\n  - name: zainod\n    version: 0.10.1\n    registry: crates.io\n");
  expect(() => loadPins(file)).toThrow(`${file}:2: servers[0].crate: is required for registry crates.io`);
});

test("a cargo pin without libclang is not started, and says how to get it; a Go pin needs none", async () => {
  const empty = mkdtempSync(join(tmpdir(), "zconform-nolibclang-"));
  const withLib = mkdtempSync(join(tmpdir(), "zconform-libclang-"));
  folders.push(empty, withLib);
  writeFileSync(join(withLib, "libclang-14.so.1"), "");
  const [zebrad] = pinsOf(loadPins(), "zebrad");
  const [lwd] = pinsOf(loadPins(), "lightwalletd");
  expect(missingPrerequisites(zebrad!, {}, [empty])).toEqual([expect.stringMatching(/^libclang .*apt-get install -y libclang-dev/)]);
  expect(missingPrerequisites(zebrad!, {}, [empty, withLib])).toEqual([]);
  expect(missingPrerequisites(lwd!, {}, [empty])).toEqual([]);
  const cache = mkdtempSync(join(tmpdir(), "zconform-cache-"));
  folders.push(cache);
  const outcome = await installPin(zebrad!, () => {}, { ZCONFORM_REAL_CACHE: cache, LIBCLANG_PATH: empty });
  expect(outcome).toMatchObject({ status: "failed", seconds: 0 });
  expect(outcome.error).toMatch(/^not started: zebrad 7\.0\.0 needs\n {2}libclang/);
});
