import { describe, expect, test } from "@jest/globals";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..", "..");

describe("durable writes", () => {
  test("the file is fsync'd before the rename and its folder after it", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-durable-"));
    try {
      // A child process whose fs calls are logged: the named imports of node:fs follow
      // the patched functions once syncBuiltinESMExports() has run.
      const script = join(dir, "probe.mts");
      writeFileSync(script, [
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
      ].join("\n"));
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
});
