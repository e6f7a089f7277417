// Every file zconform writes (reports in every format, goldens, sweep and latency
// reports) is written whole or not at all: through writeFileAtomic, a temporary file
// beside the target and a rename. This guards the rule for writers that land later.

import { describe, expect, test } from "@jest/globals";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { writeFileAtomic } from "../src/core/io/atomic-write.js";
import { REPO } from "./tools/cli.js";
import { tempDir } from "./tools/temp-corpus.js";

/** Writers that are not reports, each with the reason it may write directly. */
const ALLOWED: Record<string, string> = {
  "src/core/io/atomic-write.ts": "the atomic writer itself",
  "src/zcash/fixture/jsonrpc/cookie.ts": "the fixture's cookie file, opened O_NOFOLLOW with mode 0600 as Zebra does",
};

const DIRECT_WRITE = /\b(writeFileSync|appendFileSync|appendFile|createWriteStream|writeSync)\s*\(|\.writeFile\s*\(|\bwriteFile\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === "gen" ? [] : sources(p);
    return /\.ts$/.test(f) && !/\.test\.ts$|test-helper\.ts$/.test(f) ? [p] : [];
  });
}

describe("atomic writes", () => {
  test("no source file writes a file except through writeFileAtomic", () => {
    const offenders = sources(join(REPO, "src"))
      .map((p) => relative(REPO, p))
      .filter((rel) => !(rel in ALLOWED))
      .filter((rel) =>
        readFileSync(join(REPO, rel), "utf8")
          .split("\n")
          .some((line) => !/^\s*(\/\/|\*)/.test(line) && DIRECT_WRITE.test(line)),
      );
    expect(offenders).toEqual([]);
  });

  test("a failed write leaves the old file whole and no temporary file", () => {
    const d = tempDir();
    try {
      const target = d.write("report.json", "old");
      writeFileAtomic(target, "new");
      expect(readFileSync(target, "utf8")).toBe("new");
      // A folder that cannot be written to: the write fails before the rename.
      chmodSync(d.path, 0o500);
      const asRoot = process.getuid?.() === 0; // root writes anyway; the rest still holds
      try {
        writeFileAtomic(target, "newer");
        expect(asRoot).toBe(true);
      } catch {
        expect(readFileSync(target, "utf8")).toBe("new");
      } finally {
        chmodSync(d.path, 0o700);
      }
      expect(readdirSync(d.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
      // A target that is a folder: the rename fails, and the temporary file is removed.
      const folder = join(d.path, "taken");
      d.write("taken/x", "");
      expect(() => writeFileAtomic(folder, "data")).toThrow();
      expect(existsSync(join(folder, "x"))).toBe(true);
      expect(readdirSync(d.path).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      d.remove();
    }
  });
});
