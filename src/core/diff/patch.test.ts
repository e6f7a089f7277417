import { describe, expect, test } from "@jest/globals";
import { formatPatch, jsonPatch } from "./patch.js";

describe("JSON Patch for reports", () => {
  test("operations carry the old value; formatting is one line each", () => {
    const ops = jsonPatch({ a: 1, b: [1, 2], c: "x" }, { a: 2, b: [1], d: true, c: "x" });
    expect(ops).toEqual([
      { op: "remove", path: "/b/1", old: 2 },
      { op: "replace", path: "/a", value: 2, old: 1 },
      { op: "add", path: "/d", value: true },
    ]);
    expect(formatPatch(ops)).toEqual(["remove  /b/1 (was 2)", "replace /a: 1 → 2", "add     /d: true"]);
  });

  test("different root shapes and scalars are one replace of the whole document", () => {
    expect(jsonPatch([1], { a: 1 })).toEqual([{ op: "replace", path: "", value: { a: 1 }, old: [1] }]);
    expect(jsonPatch(null, null)).toEqual([]);
    expect(formatPatch(jsonPatch("x", "y"))).toEqual(['replace (whole): "x" → "y"']);
  });

  test("keys that need escaping in a JSON Pointer", () => {
    expect(jsonPatch({ $unknown: { "9": ["a"] }, "a/b": 1 }, { $unknown: { "9": ["b"] }, "a/b": 2 }).map((o) => o.path)).toEqual(["/a~1b", "/$unknown/9/0"]);
  });
});
