import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS, InputTooLargeError, readInput, readInputBytes, readInputText, readInputTextAsync } from "./input-limits.js";
import { formatProblem, ProblemsError } from "./located-yaml.js";
import { sparseFile, tooLarge, UNREADABLE_BYTES } from "./oversized.test-helper.js";

const dir = mkdtempSync(join(tmpdir(), "zconform-input-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("input size limits", () => {
  test("the oversized test file is one node cannot read, and over every limit", async () => {
    const path = sparseFile(join(dir, "unreadable"));
    expect(thrown(() => readFileSync(path))).toMatchObject({ code: "ERR_FS_FILE_TOO_LARGE" });
    await expect(readFile(path)).rejects.toMatchObject({ code: "ERR_FS_FILE_TOO_LARGE" });
    const over = Object.entries(INPUT_LIMITS).filter(([name, limit]) => name.endsWith("Bytes") && limit >= UNREADABLE_BYTES);
    expect(over).toEqual([]);
  });

  test("a file at the limit is read; one byte more is refused, naming the file and the limit", () => {
    const path = join(dir, "edge.txt");
    writeFileSync(path, "0123456789");
    expect(readInputText(path, 10, "the thing")).toBe("0123456789");
    expect(readInputBytes(path, 10, "the thing")).toEqual(Buffer.from("0123456789"));
    const e = thrown(() => readInputText(path, 9, "the thing"));
    expect(e).toBeInstanceOf(InputTooLargeError);
    expect((e as Error).message).toBe(`${path}: the thing is 10 bytes; the limit is 9`);
  });

  test("an oversized file is refused before any read, sync and async", async () => {
    const path = sparseFile(join(dir, "huge.bin"));
    expect((thrown(() => readInputBytes(path, 100, "the block file")) as Error).message).toBe(`${path}: ${tooLarge("the block file", 100)}`);
    await expect(readInputTextAsync(path, 100, "the cookie file")).rejects.toThrow(`${path}: ${tooLarge("the cookie file", 100)}`);
  });

  test("a missing file fails with node's own message, as a plain read does", async () => {
    const path = join(dir, "no-such-file");
    const plain = (thrown(() => readFileSync(path)) as Error).message;
    expect((thrown(() => readInputText(path, 100, "the thing")) as Error).message).toBe(plain);
    await expect(readInputTextAsync(path, 100, "the thing")).rejects.toThrow(plain);
  });

  test("a YAML input over its limit is a problem at its line 1, under its display name", () => {
    const path = sparseFile(join(dir, "huge.yaml"));
    const e = thrown(() => readInput(path, "cases/grpc/Huge.yaml", INPUT_LIMITS.caseFileBytes, "the case file"));
    expect(e).toBeInstanceOf(ProblemsError);
    expect((e as ProblemsError).problems.map(formatProblem)).toEqual([`cases/grpc/Huge.yaml:1: ${tooLarge("the case file", INPUT_LIMITS.caseFileBytes)}`]);
  });
});
