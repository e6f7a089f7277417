import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { glob } from "./glob.js";
import { referenceGlob as reference } from "./glob-reference.test-helper.js";

describe("glob", () => {
  test("stars and path indexes", () => {
    expect(glob("GetBlock/*", "GetBlock/at-5")).toBe(true);
    expect(glob("GetBlock/*", "GetBlockRange/x")).toBe(false);
    expect(glob("*-5", "GetBlock/at-5")).toBe(true);
    expect(glob("a*b*c", "abc")).toBe(true);
    expect(glob("a*b*c", "acb")).toBe(false);
    expect(glob("vtx[*].outputs[*]", "vtx[12].outputs[0]", true)).toBe(true);
    expect(glob("vtx[*]", "vtx[]", true)).toBe(false);
    expect(glob("vtx[*]", "vtx[*]")).toBe(true);
    expect(glob("*[*]", "a[1][2]", true)).toBe(true);
    expect(glob("", "")).toBe(true);
    expect(glob("*", "")).toBe(true);
  });

  test("the pathological pattern ends in well under a second on a 1,000-character id", () => {
    const pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
    const id = "a".repeat(1000);
    const t0 = performance.now();
    expect(glob(pattern, id)).toBe(false);
    expect(glob(pattern, `${id}b`)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  test("agrees with the regular-expression reading on any short pattern and value", () => {
    const chars = fc.constantFrom("a", "b", "[", "]", "1", "*", ".");
    const text = fc.array(chars, { maxLength: 10 }).map((a) => a.join(""));
    fc.assert(
      fc.property(text, text, fc.boolean(), (p, v, pathLike) => glob(p, v, pathLike) === reference(p, v, pathLike)),
      { numRuns: 5000 },
    );
  });
});
