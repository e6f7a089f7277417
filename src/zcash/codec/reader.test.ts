import { describe, expect, test } from "@jest/globals";
import { bytesToHex, hexToBytes } from "./bytes.js";
import { ByteReader, DecodeError } from "./reader.js";
import { ByteWriter } from "./writer.js";

describe("ByteReader / ByteWriter", () => {
  test("little-endian integers round trip", () => {
    const w = new ByteWriter(1).u8(0xab).u16(0x1234).u32(0xdeadbeef).i32(-2).u64(0xffffffffffffffffn).i64(-5n);
    const bytes = w.finish();
    expect(bytesToHex(bytes)).toBe("ab" + "3412" + "efbeadde" + "feffffff" + "ffffffffffffffff" + "fbffffffffffffff");
    const r = new ByteReader(bytes);
    expect([r.u8("a"), r.u16("b"), r.u32("c"), r.i32("d"), r.u64("e"), r.i64("f")]).toEqual([0xab, 0x1234, 0xdeadbeef, -2, 0xffffffffffffffffn, -5n]);
    expect(r.remaining).toBe(0);
  });

  test.each([
    [0, "00"],
    [0xfc, "fc"],
    [0xfd, "fdfd00"],
    [0xffff, "fdffff"],
    [0x10000, "fe00000100"],
    [0x02000000, "fe00000002"],
  ])("CompactSize %i is %s", (n, hex) => {
    expect(bytesToHex(new ByteWriter().compactSize(n).finish())).toBe(hex);
    expect(new ByteReader(hexToBytes(hex)).compactSize("n")).toBe(n);
  });

  test.each([
    ["fdfc00", "non-canonical CompactSize 252"],
    ["feffff0000", "non-canonical CompactSize 65535"],
    ["ff0000000001000000", "too large"],
    ["fe01000002", "CompactSize 33554433 too large"],
  ])("CompactSize %s is rejected (%s)", (hex, msg) => {
    expect(() => new ByteReader(hexToBytes(hex)).compactSize("n")).toThrow(msg);
  });

  test("slices are views, not copies", () => {
    const buf = hexToBytes("0102030405");
    const s = new ByteReader(buf, 1).bytes(3, "x");
    expect(s.buffer).toBe(buf.buffer);
    expect(bytesToHex(s)).toBe("020304");
  });

  test("reading past the end names the offset and the field in context", () => {
    const r = new ByteReader(hexToBytes("0102030405"));
    r.tx = 0;
    r.at("vout", 1);
    r.u32("value");
    let err: unknown;
    try {
      r.u32("value");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DecodeError);
    expect((err as DecodeError).offset).toBe(4);
    expect((err as Error).message).toBe("offset 4: truncated reading tx 0 vout[1].value (need 4 bytes, 1 left)");
  });

  test("a count larger than the remaining bytes fails at once", () => {
    const r = new ByteReader(hexToBytes("fd1027" + "00".repeat(10)));
    expect(() => r.count("vin count", 41)).toThrow("offset 0: vin count is 10000 but only 10 bytes are left");
  });

  test("varBytes checks the declared length", () => {
    expect(() => new ByteReader(hexToBytes("0501020304")).at("vin", 0).varBytes("scriptSig")).toThrow(
      "offset 0: truncated reading vin[0].scriptSig (length 5, 4 bytes left)",
    );
  });

  test("fixed-size writes check the length", () => {
    expect(() => new ByteWriter().fixed(new Uint8Array(31), 32, "prevHash")).toThrow("prevHash must be 32 bytes, got 31");
  });
});
