import { describe, expect, test } from "@jest/globals";
import { GetMempoolTxRequestSchema, LightdInfoSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { bytes } from "../canon/testing.test-helper.js";
import { DIVERGENCE_KINDS, latencyDivergence } from "./divergence.js";
import { encodingNotes } from "./encoding.js";
import { classifyLeaf, isReversed, isReversedHex, multiplicityFactor } from "./kinds.js";
import { compareSequences } from "./sequence.js";

const s = { left: "a", right: "b" };

describe("leaf kinds", () => {
  test("byte order: reversed, not a palindrome, at least two bytes", () => {
    expect(isReversed(bytes(1, 2, 3), bytes(3, 2, 1))).toBe(true);
    expect(isReversed(bytes(1, 2, 1), bytes(1, 2, 1))).toBe(false);
    expect(isReversed(bytes(1), bytes(1))).toBe(false);
    expect(isReversed(bytes(1, 2), bytes(2, 1, 0))).toBe(false);
    expect(isReversedHex("0a0b0c", "0c0b0a")).toBe(true);
    expect(isReversedHex("0a0b0c", "c0b0a0")).toBe(false); // nibble reversal is not byte order
    expect(isReversedHex("zz0b", "0bzz")).toBe(false);
  });

  test("multiplicity: integer factor ≥ 2 either way, same sign, no zeros", () => {
    expect(multiplicityFactor(5, 10)).toBe(2);
    expect(multiplicityFactor(30n, 10n)).toBe(1 / 3);
    expect(multiplicityFactor(-4, -12)).toBe(3);
    expect(multiplicityFactor(0, 10)).toBeUndefined();
    expect(multiplicityFactor(4, -8)).toBeUndefined();
    expect(multiplicityFactor(4, 6)).toBeUndefined();
    expect(multiplicityFactor(1.5, 3)).toBe(2);
    expect(multiplicityFactor(2n ** 62n, 2n ** 63n)).toBe(2);
  });

  test("classifyLeaf falls back to value and shows values JSON-friendly", () => {
    expect(classifyLeaf("x", s, bytes(1, 2), bytes(1, 3))).toMatchObject({ kind: "value", leftValue: "0102", rightValue: "0103" });
    expect(classifyLeaf("x", s, 7n, 8n)).toMatchObject({ kind: "value", leftValue: "7", rightValue: "8" });
    expect(classifyLeaf("x", s, true, false).kind).toBe("value");
  });
});

describe("sequences", () => {
  test("equal, order, multiplicity, differ", () => {
    expect(compareSequences(["a", "b"], ["a", "b"])).toEqual({ kind: "equal" });
    expect(compareSequences(["a", "b", "c"], ["a", "c", "b"])).toEqual({ kind: "order", firstMoved: 1 });
    expect(compareSequences(["a", "b"], ["a", "a", "a", "b", "b", "b"])).toEqual({ kind: "multiplicity", factor: 3 });
    expect(compareSequences(["a", "a", "b", "b"], ["b", "a"])).toEqual({ kind: "multiplicity", factor: 0.5 });
    expect(compareSequences(["a", "b", "c"], ["a", "c"])).toEqual({ kind: "differ", pairs: [], leftOnly: [1], rightOnly: [] });
    expect(compareSequences(["a", "b", "c"], ["a", "x", "c", "y"])).toEqual({ kind: "differ", pairs: [[1, 1]], leftOnly: [], rightOnly: [3] });
    expect(compareSequences(["a", "b"], ["a", "a", "b"]).kind).toBe("differ"); // not every item repeated
  });
});

describe("encoding notes", () => {
  test("each non-canonical trait is named", () => {
    expect(encodingNotes(bytes(0x12, 0x01, 0x41, 0x0a, 0x01, 0x42), LightdInfoSchema)).toEqual(["version (field 1) after field 2"]);
    expect(encodingNotes(bytes(0x18, 0x00), LightdInfoSchema)).toEqual(["explicit default for taddrSupport"]);
    expect(encodingNotes(bytes(0x38, 0x85, 0x00), LightdInfoSchema)).toEqual(["padded varint in blockHeight"]);
    expect(encodingNotes(bytes(0x0a, 0x81, 0x00, 0x41), LightdInfoSchema)).toEqual(["padded length of version"]);
    expect(encodingNotes(bytes(0x38, 0x01, 0x38, 0x02), LightdInfoSchema)).toEqual(["blockHeight sent 2 times (the last counts)"]);
    expect(encodingNotes(bytes(0x18, 0x01, 0x18, 0x02), GetMempoolTxRequestSchema)).toEqual(["poolTypes unpacked", "poolTypes unpacked"]);
    expect(encodingNotes(bytes(0x08, 0x01), LightdInfoSchema)).toEqual(["version with wire type 0"]);
  });
});

describe("divergence type", () => {
  test("a latency divergence can be expressed", () => {
    expect(latencyDivergence("p50", "lightwalletd", "zaino", 40, 120)).toEqual({
      kind: "latency",
      path: "latency.p50",
      left: "lightwalletd",
      right: "zaino",
      leftValue: 40,
      rightValue: 120,
      factor: 3,
      detail: "p50 120 ms vs 40 ms (3.0×)",
    });
    expect(DIVERGENCE_KINDS).toHaveLength(12);
  });
});
