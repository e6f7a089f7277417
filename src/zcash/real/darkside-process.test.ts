// Starting lightwalletd fails with a message that says what went wrong, and leaves
// nothing running: a missing binary, and a binary that exits instead of serving.

import { describe, expect, test } from "@jest/globals";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lightwalletdVersion, lightwalletdBinary, startDarkside } from "./darkside-process.js";

describe("startDarkside", () => {
  test("the binary comes from ZCONFORM_LIGHTWALLETD, else the install cache of the pinned version", () => {
    expect(lightwalletdBinary({ ZCONFORM_LIGHTWALLETD: "/opt/lwd" })).toBe("/opt/lwd");
    expect(lightwalletdBinary({})).toContain(join(`lightwalletd-${lightwalletdVersion()}`, "bin", "lightwalletd"));
  });

  test("a missing binary is named in the error", async () => {
    await expect(startDarkside({ binary: "/nonexistent/lightwalletd" })).rejects.toThrow("lightwalletd not found at /nonexistent/lightwalletd");
  });

  test("a binary that exits before serving is reported with its exit code and output", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-fake-lwd-"));
    const fake = join(dir, "lightwalletd");
    writeFileSync(fake, "#!/bin/sh\necho 'unknown flag: --darkside-very-insecure' >&2\nexit 3\n");
    chmodSync(fake, 0o755);
    try {
      await expect(startDarkside({ binary: fake })).rejects.toThrow(/exited \(3\) before serving:\n.*unknown flag: --darkside-very-insecure/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
