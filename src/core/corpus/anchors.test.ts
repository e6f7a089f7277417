import { describe, expect, test } from "@jest/globals";
import { AnchorSyntaxError, anchorsUsed, MissingAnchorError, resolveAnchors } from "./anchors.js";

const anchors = { tip: 300, tip_hash: "00ff10", addr: "tmXYZ" };

describe("anchors", () => {
  test("whole-string references keep the anchor's type; arithmetic on numbers", () => {
    expect(resolveAnchors({ start: { height: "${tip}" }, end: { height: "${tip+1}" }, x: "${tip-300}" }, anchors)).toEqual({
      start: { height: 300 },
      end: { height: 301 },
      x: 0,
    });
  });

  test("filters: str, le (reversed, base64), be (as is, base64), hexle", () => {
    expect(resolveAnchors(["${tip|str}", "${tip_hash|le}", "${tip_hash|be}", "${tip_hash|hexle}"], anchors)).toEqual([
      "300",
      Buffer.from([0x10, 0xff, 0x00]).toString("base64"),
      Buffer.from([0x00, 0xff, 0x10]).toString("base64"),
      "10ff00",
    ]);
  });

  test("utf8: a string field spelled inside a $hex literal, repeated", () => {
    const bytes = Buffer.from(resolveAnchors({ $hex: "0a05${addr|utf8}", $repeat: 2 }, anchors) as string, "base64");
    expect([...bytes]).toEqual([...Buffer.from("\n\x05tmXYZ\n\x05tmXYZ", "latin1")]);
  });

  test("interpolation inside a longer string", () => {
    expect(resolveAnchors("at ${tip}", anchors)).toBe("at 300");
  });

  test("$hex literals with $repeat", () => {
    expect(resolveAnchors({ hash: { $hex: "ab", $repeat: 3 } }, anchors)).toEqual({ hash: Buffer.from([0xab, 0xab, 0xab]).toString("base64") });
  });

  test("unknown anchors and bad expressions are distinct errors", () => {
    expect(() => resolveAnchors("${nope}", anchors)).toThrow(MissingAnchorError);
    expect(() => resolveAnchors("${tip*2}", anchors)).toThrow(AnchorSyntaxError);
    expect(() => resolveAnchors("${addr+1}", anchors)).toThrow(AnchorSyntaxError);
  });

  test("anchorsUsed lists the names referenced", () => {
    expect(anchorsUsed({ a: ["${tip+1}", { b: "${tip_hash|le}" }], c: "x ${addr}" }).sort()).toEqual(["addr", "tip", "tip_hash"]);
  });
});
