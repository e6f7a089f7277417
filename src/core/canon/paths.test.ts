import { describe, expect, test } from "@jest/globals";
import { formatPath, matchesPath, parsePath, PathSyntaxError } from "./paths.js";

describe("field paths", () => {
  test("parses dotted names, indexes, wildcards and unknown fields", () => {
    expect(parsePath("vtx[1].outputs[0].ciphertext")).toEqual([
      { kind: "field", name: "vtx" },
      { kind: "index", index: 1 },
      { kind: "field", name: "outputs" },
      { kind: "index", index: 0 },
      { kind: "field", name: "ciphertext" },
    ]);
    expect(parsePath("[3].vtx[*].txid")).toEqual([
      { kind: "index", index: 3 },
      { kind: "field", name: "vtx" },
      { kind: "any" },
      { kind: "field", name: "txid" },
    ]);
    expect(parsePath("vtx[0].$unknown[12]")).toEqual([
      { kind: "field", name: "vtx" },
      { kind: "index", index: 0 },
      { kind: "unknown", no: 12 },
    ]);
    expect(parsePath("$unknown[9]")).toEqual([{ kind: "unknown", no: 9 }]);
    expect(parsePath("result.upgrades.5ba81b19.name")).toHaveLength(4);
    expect(parsePath('result["a.b"][""]')).toEqual([
      { kind: "field", name: "result" },
      { kind: "field", name: "a.b" },
      { kind: "field", name: "" },
    ]);
    expect(parsePath("")).toEqual([]);
  });

  test.each([
    "version",
    "vtx[*].fee",
    "result.subversion",
    "[*].height",
    "[3].vtx[0].txid",
    "status.code",
    "vtx[0].$unknown[12]",
    'result["a.b"].c',
    '[""]',
    "[0][1]",
  ])("format(parse(%s)) round-trips", (p) => {
    expect(formatPath(parsePath(p))).toBe(p);
  });

  test.each([
    ["vtx[", "expected digits"],
    ["vtx[01]", "leading zero"],
    ["vtx[1", 'expected "]"'],
    ["a..b", "empty field name"],
    [".a", "empty field name"],
    ["a.", "empty field name"],
    ["a]", 'expected "." or "["'],
    ["$unknown[0]", "field number out of range"],
    ['a["x]', "unterminated"],
  ])("rejects %s", (p, why) => {
    expect(() => parsePath(p)).toThrow(PathSyntaxError);
    expect(() => parsePath(p)).toThrow(why);
  });

  test("matching: [*] matches any index, names and indexes must be equal", () => {
    const pat = parsePath("vtx[*].fee");
    expect(matchesPath(parsePath("vtx[4].fee"), pat)).toBe(true);
    expect(matchesPath(parsePath("vtx[4].txid"), pat)).toBe(false);
    expect(matchesPath(parsePath("vtx[4]"), pat)).toBe(false);
    expect(matchesPath(parsePath("vtx[2]"), parsePath("vtx[2]"))).toBe(true);
    expect(matchesPath(parsePath("vtx[3]"), parsePath("vtx[2]"))).toBe(false);
    expect(matchesPath(parsePath("$unknown[7]"), parsePath("$unknown[7]"))).toBe(true);
  });
});
