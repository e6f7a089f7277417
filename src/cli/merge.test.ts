import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../core/io/input-limits.js";
import { sparseFile, tooLarge } from "../core/io/oversized.test-helper.js";
import { mergeCommand } from "./merge.js";

async function merge(files: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await mergeCommand(files, {}, { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) });
  return { code, stdout, stderr };
}

describe("zconform merge: reports it cannot read", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-merge-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a JSON report over the size limit: exit 2 naming the file and the limit, before it is read", async () => {
    const huge = sparseFile(join(dir, "huge.json"));
    expect(await merge([huge])).toEqual({ code: 2, stdout: [], stderr: [`${huge}: ${tooLarge("the JSON report", INPUT_LIMITS.reportBytes)}`] });
  });

  test("a missing report: exit 2 with node's own reason", async () => {
    const gone = join(dir, "gone.json");
    expect(await merge([gone])).toEqual({
      code: 2,
      stdout: [],
      stderr: [`${gone}: not a readable JSON report: ENOENT: no such file or directory, open '${gone}'`],
    });
  });
});
