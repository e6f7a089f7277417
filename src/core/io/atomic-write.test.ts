import { describe, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeStaleTemps, removeStaleTempsUnder, writeErrorText, writeFileAtomic } from "./atomic-write.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** The id of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("durable writes", () => {
  test("the file is fsync'd before the rename and its folder after it", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-durable-"));
    try {
      // A child process whose fs calls are logged: the named imports of node:fs follow
      // the patched functions once syncBuiltinESMExports() has run.
      const script = join(dir, "probe.mts");
      writeFileSync(
        script,
        [
          "import fs from 'node:fs';",
          "import { syncBuiltinESMExports } from 'node:module';",
          "const log: string[] = [];",
          "const paths = new Map<number, string>();",
          "const { openSync, fsyncSync, renameSync } = fs;",
          "fs.openSync = ((p: string, ...rest: unknown[]) => { const fd = (openSync as Function)(p, ...rest); paths.set(fd, String(p)); return fd; }) as typeof fs.openSync;",
          "fs.fsyncSync = ((fd: number) => { log.push(`fsync ${paths.get(fd)}`); fsyncSync(fd); }) as typeof fs.fsyncSync;",
          "fs.renameSync = ((a: string, b: string) => { log.push(`rename ${a} -> ${b}`); renameSync(a, b); }) as typeof fs.renameSync;",
          "syncBuiltinESMExports();",
          `const { writeFileAtomicParts } = await import(${JSON.stringify(join(ROOT, "src/core/io/atomic-write.ts"))});`,
          "writeFileAtomicParts(process.argv[2], ['a', 'b']);",
          "process.stdout.write(JSON.stringify(log));",
        ].join("\n"),
      );
      const target = join(dir, "out", "report.json");
      const r = spawnSync(process.execPath, ["--import", "tsx", script, target], { cwd: ROOT, encoding: "utf8" });
      expect(r.stderr).toBe("");
      const log = JSON.parse(r.stdout) as string[];
      expect(log).toHaveLength(3);
      expect(log[0]).toMatch(new RegExp(`^fsync ${join(dir, "out")}/\\.report\\.json\\.\\d+\\.\\d+\\.tmp$`));
      expect(log[1]).toBe(`rename ${log[0]!.slice("fsync ".length)} -> ${target}`);
      expect(log[2]).toBe(`fsync ${join(dir, "out")}`);
      expect(readFileSync(target, "utf8")).toBe("ab");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("temporary files of dead writers are removed, those of live ones and other files are not", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-stale-"));
    try {
      const dead = deadPid();
      mkdirSync(join(dir, "a", "b"), { recursive: true });
      const files = {
        stale: join(dir, `.report.json.${dead}.0.tmp`),
        live: join(dir, `.report.json.${process.pid}.3.tmp`),
        other: join(dir, `.notes.txt.${dead}.0.tmp`),
        deep: join(dir, "a", "b", `.GetBlock.json.${dead}.7.tmp`),
        plain: join(dir, "report.json"),
      };
      for (const f of Object.values(files)) writeFileSync(f, "x");
      expect(removeStaleTemps([join(dir, "report.json")])).toEqual([files.stale]);
      expect(removeStaleTempsUnder(dir).sort()).toEqual([files.other, files.deep].sort());
      expect(
        Object.entries(files)
          .filter(([, f]) => existsSync(f))
          .map(([k]) => k),
      ).toEqual(["live", "plain"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a failed write is said in words a reader acts on", () => {
    // /dev/full answers every write with a real ENOSPC, where the machine has one.
    if (existsSync("/dev/full")) {
      const fd = openSync("/dev/full", "w");
      try {
        expect(() => writeSync(fd, "x")).toThrow();
        try {
          writeSync(fd, "x");
        } catch (e) {
          expect(writeErrorText(e)).toBe("no space left on device (ENOSPC)");
        }
      } finally {
        closeSync(fd);
      }
    }
    const dir = mkdtempSync(join(tmpdir(), "zconform-write-error-"));
    try {
      const file = join(dir, "a-file");
      writeFileSync(file, "");
      let error: unknown;
      try {
        writeFileAtomic(join(file, "report.json"), "{}");
      } catch (e) {
        error = e;
      }
      expect(writeErrorText(error)).toBe(`file already exists (EEXIST: mkdir ${file})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
