import { describe, expect, test } from "@jest/globals";
import { bytesToHex, hexToBytes, HexError } from "./hex.js";

describe("hex", () => {
  test("round trip, either case", () => {
    expect(bytesToHex(hexToBytes("00ff10Ab"))).toBe("00ff10ab");
    expect(hexToBytes("")).toEqual(new Uint8Array(0));
  });

  test("a view into a larger buffer is written as the view's bytes only", () => {
    const whole = Uint8Array.of(1, 2, 3, 4, 5);
    expect(bytesToHex(whole.subarray(1, 3))).toBe("0203");
  });

  test("odd length names the position and the length", () => {
    expect(() => hexToBytes("abc")).toThrow(HexError);
    expect(() => hexToBytes("abc")).toThrow("odd number of hex digits (3) at character 2");
  });

  test("a non-hex character is named with its position", () => {
    expect(() => hexToBytes("00x0")).toThrow('not hex: "x" at character 2');
    let err: unknown;
    try {
      hexToBytes("0011 22");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HexError);
    expect((err as HexError).position).toBe(4);
  });
});
