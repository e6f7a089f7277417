import { describe, expect, test } from "@jest/globals";
import { bytesEqual, bytesToHex, concatBytes, displayHex, hexToBytes, isAllZero, reverseBytes, wireFromDisplay } from "./bytes.js";
import { blake2b256, personalization, sha256d } from "./hash.js";

describe("bytes", () => {
  test("display order is the wire order reversed", () => {
    const wire = hexToBytes("0102030405");
    expect(displayHex(wire)).toBe("0504030201");
    expect(wireFromDisplay("0504030201")).toEqual(wire);
    expect(reverseBytes(wire)).toEqual(hexToBytes("0504030201"));
    expect(wire).toEqual(hexToBytes("0102030405")); // reverse copies
  });

  test("equality, concatenation, zero check", () => {
    expect(bytesEqual(hexToBytes("0102"), hexToBytes("0102"))).toBe(true);
    expect(bytesEqual(hexToBytes("0102"), hexToBytes("0103"))).toBe(false);
    expect(bytesEqual(hexToBytes("0102"), hexToBytes("01"))).toBe(false);
    expect(bytesToHex(concatBytes(hexToBytes("01"), new Uint8Array(0), hexToBytes("0203")))).toBe("010203");
    expect(isAllZero(new Uint8Array(32))).toBe(true);
    expect(isAllZero(hexToBytes("0001"))).toBe(false);
  });
});

describe("hashes", () => {
  // Expected digests computed independently with Python's hashlib
  // (sha256(sha256(b"abc")), blake2b(..., digest_size=32, person=...)).
  test("double SHA-256", () => {
    expect(bytesToHex(sha256d(new TextEncoder().encode("abc")))).toBe("4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358");
    expect(bytesToHex(sha256d(new TextEncoder().encode("a"), new TextEncoder().encode("bc")))).toBe(
      "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358",
    );
  });

  test("personalized BLAKE2b-256", () => {
    expect(bytesToHex(blake2b256(personalization("ZTxIdHeadersHash"), new TextEncoder().encode("abc")))).toBe(
      "b3270eee3d6f04890d9b52c2612a1268129b57153001b1e5ef36819b3149631b",
    );
    expect(bytesToHex(blake2b256(personalization("ZTxIdTranspaHash")))).toBe("c33f2e95705faab35f8d533fa61e95c3b7aaba0776b874a9f74fc12784376a59");
  });

  test("personalization must be 16 bytes", () => {
    expect(() => personalization("ZcashTxHash_")).toThrow("must be 16 bytes, got 12");
  });
});
