import { afterAll, describe, expect, test } from "@jest/globals";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuildInfo } from "../../core/results/events.js";
import { INPUT_LIMITS } from "../../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../../core/io/oversized.test-helper.js";
import { PROVENANCE_FILE, readProvenance, recordedBuild, unknownSide, withRecording, writeProvenance, type Recording } from "./provenance.js";

const recording = (cases: string[], recordedAt: string): Recording => ({
  recordedAt,
  tool: { name: "zconform", version: "0.1.0" },
  command: ["bin/zconform.js", "record"],
  chain: "regtest",
  build: unknownSide("oracle", "http://127.0.0.1:18232/"),
  cases,
});

describe("golden provenance", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-provenance-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a RECORDED.json over the size limit names its file and the limit, and nothing is read", () => {
    const folder = join(dir, "huge");
    mkdirSync(folder);
    const file = sparseFile(join(folder, PROVENANCE_FILE));
    expect(() => readProvenance(folder)).toThrow(`${file}: ${tooLarge("the golden provenance", INPUT_LIMITS.provenanceBytes)}`);
  });

  test("a case recorded again moves to the new recording; a recording left with no case goes", () => {
    const first = withRecording(undefined, recording(["getinfo/plain", "getblock/tip-by-height"], "2026-12-01T10:00:00.000Z"));
    const second = withRecording(first, recording(["getinfo/plain"], "2026-12-02T10:00:00.000Z"));
    expect(second.recordings.map((r) => [r.recordedAt, r.cases])).toEqual([
      ["2026-12-01T10:00:00.000Z", ["getblock/tip-by-height"]],
      ["2026-12-02T10:00:00.000Z", ["getinfo/plain"]],
    ]);
    const third = withRecording(second, recording(["getblock/tip-by-height", "getinfo/plain"], "2026-12-03T10:00:00.000Z"));
    expect(third.recordings.map((r) => r.recordedAt)).toEqual(["2026-12-03T10:00:00.000Z"]);
    writeProvenance(dir, third);
    expect(readProvenance(dir)).toEqual(third);
    expect(readProvenance(join(dir, "nothing-here"))).toBeUndefined();
  });

  test("a server started from a pin is named with its binary's path and SHA-256; any other build has no binary", async () => {
    const cache = join(dir, "cache");
    mkdirSync(join(cache, "zainod-0.10.1", "bin"), { recursive: true });
    writeFileSync(join(cache, "zainod-0.10.1", "bin", "zainod"), "a stand-in for the binary");
    const pinsFile = join(dir, "real-servers.yaml");
    writeFileSync(pinsFile, "servers:\n  - { name: zainod, version: 0.10.1, registry: crates.io, crate: zainod }\n");
    const real: BuildInfo = {
      name: "zaino 0.10.1 (real)",
      implementation: "zaino",
      version: "0.10.1",
      emulated: false,
      pin: "zainod 0.10.1 (crates.io zainod), real-servers.yaml",
      grpc: "http://127.0.0.1:8137",
      node: { implementation: "zebrad", version: "7.0.0" },
    };
    const pins = { file: pinsFile, env: { ZCONFORM_REAL_CACHE: cache } };
    expect(await recordedBuild(real, pins)).toEqual({
      name: "zaino 0.10.1 (real)",
      implementation: "zaino",
      version: "0.10.1",
      emulated: false,
      pin: real.pin,
      binary: { path: join(cache, "zainod-0.10.1", "bin", "zainod"), sha256: createHash("sha256").update("a stand-in for the binary").digest("hex") },
      node: { implementation: "zebrad", version: "7.0.0" },
      endpoints: ["http://127.0.0.1:8137"],
    });
    expect((await recordedBuild({ ...real, pin: "zainod 0.11.0 (crates.io zainod), real-servers.yaml" }, pins)).binary).toBe("unknown");
    const emulated = await recordedBuild({ name: "zaino-0.10.1", implementation: "zaino", version: "0.10.1", emulated: true, profile: "zaino-0.10.1" }, pins);
    expect(emulated).toEqual({ name: "zaino-0.10.1", implementation: "zaino", version: "0.10.1", emulated: true, profile: "zaino-0.10.1", pin: null });
  });
});
