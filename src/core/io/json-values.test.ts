import { describe, expect, test } from "@jest/globals";
import { readJson, type JsonTree } from "./json-tree.js";
import { numberKey, shownNumber, shownValue, stringValue, valueKey } from "./json-values.js";

const tree = (s: string): JsonTree => {
  const r = readJson(new TextEncoder().encode(s), 256);
  if (!r.ok) throw new Error(r.reason);
  return r.tree;
};

describe("numberKey: a literal's exact value", () => {
  test("spellings of one value share a key; different values never do", () => {
    const same = [
      ["300", "300.0", "3.00e2", "3e+2", "30000e-2", "0.3e3"],
      ["0", "-0", "0.000", "0e99"],
      ["-1.5", "-15e-1", "-0.15E1"],
    ];
    for (const group of same) expect(new Set(group.map(numberKey)).size).toBe(1);
    const keys = ["300", "300.0000000000000000001", "301", "-300", "3e-2", "1e999999", "1e999998", "12345678901234567891", "12345678901234567890"].map(
      numberKey,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("exponents of any length, carries and borrows included", () => {
    const e30 = `1${"0".repeat(30)}`;
    expect(numberKey(`10e${"9".repeat(30)}`)).toBe(numberKey(`1e${e30}`));
    expect(numberKey(`0.1e${e30}`)).toBe(`1e${"9".repeat(30)}`);
    expect(numberKey(`1e-${e30}`)).toBe(`1e-${e30}`);
    expect(numberKey(`0.1e-${"9".repeat(30)}`)).toBe(`1e-${e30}`);
  });

  test("a 16 MiB literal is keyed in linear time", () => {
    const big = `1${"0".repeat(16 * 1024 * 1024)}1`;
    const t0 = performance.now();
    expect(numberKey(big).length).toBe(big.length + 2);
    expect(numberKey(`${big}e${big}`).startsWith(big)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(10_000); // not forever: BigInt parsing would take minutes
  });

  test("shown as a number only when a double spells the exact value", () => {
    expect([shownNumber("300.0"), shownNumber("0.1"), shownNumber("1e999999"), shownNumber("9007199254740993"), shownNumber("-0")]).toEqual([
      300,
      0.1,
      "1e999999",
      "9007199254740993",
      -0,
    ]);
  });
});

describe("strings, keys and shown values", () => {
  test("escapes decode; a lone surrogate escape stays one code unit", () => {
    const t = tree('["a\\u0062\\n\\/\\"", "\\ud800x", "\\ud83d\\ude00", "é"]');
    expect([1, 2, 3, 4].map((i) => stringValue(t, i))).toEqual(['ab\n/"', "\ud800x", "😀", "é"]);
  });

  test("valueKey: equal values, equal keys, whatever their text; a repeated key counts by its first and last value", () => {
    const key = (s: string) => valueKey(tree(s), 0);
    expect(key('{ "b": [1.0, "\\u0061"], "a": null }')).toBe(key('{"a":null,"b":[1,"a"]}'));
    expect(key('{"a":1,"a":2}')).not.toBe(key('{"a":2}'));
    expect(key('{"a":1,"a":2}')).not.toBe(key('{"a":1}'));
    expect(key('{"a":1,"a":1.0}')).toBe(key('{"a":1}'));
    expect(key('{"a":1,"a":7,"a":1}')).toBe(key('{"a":1}'));
    expect(key("[1]")).not.toBe(key('["1"]'));
  });

  test("shownValue with a budget shows at most that many values and says how many it left out", () => {
    const t = tree(`{"a":[${Array.from({ length: 5000 }, (_, i) => i).join(",")}],"b":{"x":1,"y":2},"c":3}`);
    // The object and the array count too: eight items are shown.
    expect(shownValue(t, 0, undefined, { left: 10 })).toEqual({ a: [...Array.from({ length: 8 }, (_, i) => i), "… 4992 more items"], "…": "2 more members" });
  });

  test("shownValue reads a repeated key as JSON.parse does and keeps __proto__ as a key", () => {
    expect(shownValue(tree('{"a":1,"__proto__":{"x":1},"a":2}'), 0)).toEqual(JSON.parse('{"a":1,"__proto__":{"x":1},"a":2}'));
  });
});
