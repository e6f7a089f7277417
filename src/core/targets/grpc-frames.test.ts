import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { encodeFrame, FrameReader, isFrameError } from "./grpc-frames.js";
import { decodeGrpcMessage, encodeGrpcTimeout, grpcCodeName } from "./grpc-status.js";

function readAll(reader: FrameReader): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (;;) {
    const next = reader.next();
    if (next === undefined) return out;
    if (isFrameError(next)) throw new Error(next.detail);
    out.push(next);
  }
}

describe("FrameReader", () => {
  test("any chunking of any frames yields the same payloads", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
        (payloads, cuts) => {
          const wire = Buffer.concat(payloads.map(encodeFrame));
          const reader = new FrameReader(1000);
          const got: Uint8Array[] = [];
          let at = 0;
          let i = 0;
          while (at < wire.length) {
            const n = cuts[i++ % cuts.length]!;
            reader.push(wire.subarray(at, at + n));
            at += n;
            got.push(...readAll(reader));
          }
          expect(reader.finish()).toBeUndefined();
          expect(got.map((g) => Buffer.from(g).toString("hex"))).toEqual(payloads.map((p) => Buffer.from(p).toString("hex")));
        },
      ),
    );
  });

  test("a payload inside one chunk is a view of it; one across chunks is a fresh copy", () => {
    const reader = new FrameReader(100);
    const chunk = Buffer.from([...encodeFrame(Uint8Array.from([1, 2, 3])), ...encodeFrame(Uint8Array.from([4, 5, 6]))]);
    reader.push(chunk.subarray(0, 14));
    const inside = reader.next() as Uint8Array;
    expect([...inside]).toEqual([1, 2, 3]);
    expect(inside.buffer).toBe(chunk.buffer);
    reader.push(chunk.subarray(14));
    const across = reader.next() as Uint8Array;
    expect([...across]).toEqual([4, 5, 6]);
    expect(across.buffer).not.toBe(chunk.buffer);
  });

  test("a header split across chunks is read the same as a whole one", () => {
    const wire = encodeFrame(new Uint8Array(300).fill(7));
    for (let cut = 1; cut < 5; cut++) {
      const reader = new FrameReader(1000);
      reader.push(wire.subarray(0, cut));
      expect(reader.next()).toBeUndefined();
      reader.push(wire.subarray(cut));
      expect((reader.next() as Uint8Array).length).toBe(300);
      expect(reader.finish()).toBeUndefined();
    }
  });

  test("errors", () => {
    const bad = new FrameReader(100);
    bad.push(Uint8Array.from([2, 0, 0, 0, 0]));
    expect(bad.next()).toMatchObject({ kind: "malformed-frame" });
    expect(bad.next()).toMatchObject({ kind: "malformed-frame" });

    const compressed = new FrameReader(100);
    compressed.push(Uint8Array.from([1, 0, 0, 0, 1, 9]));
    expect(compressed.next()).toMatchObject({ kind: "compressed" });

    const big = new FrameReader(10);
    big.push(Uint8Array.from([0, 0, 0, 0, 11]));
    expect(big.next()).toMatchObject({ kind: "too-large" });

    const exact = new FrameReader(10);
    exact.push(encodeFrame(new Uint8Array(10)));
    expect((exact.next() as Uint8Array).length).toBe(10);

    const short = new FrameReader(100);
    short.push(Uint8Array.from([0, 0, 0, 0, 4, 1, 2]));
    expect(short.next()).toBeUndefined();
    expect(short.finish()).toMatchObject({ kind: "malformed-frame" });
    expect(short.finish()!.detail).toMatch(/2 of 4/);

    const header = new FrameReader(100);
    header.push(Uint8Array.from([0, 0]));
    expect(header.next()).toBeUndefined();
    expect(header.finish()!.detail).toMatch(/frame header/);
  });
});

describe("status helpers", () => {
  test("grpc-message decoding", () => {
    expect(decodeGrpcMessage(undefined)).toBe("");
    expect(decodeGrpcMessage("no%20such%20block%3A%20%C3%BC")).toBe("no such block: ü");
    expect(decodeGrpcMessage("100%")).toBe("100%");
    expect(decodeGrpcMessage("%zz%4")).toBe("%zz%4");
    expect(decodeGrpcMessage("%E2%9C%93 ok")).toBe("✓ ok");
  });

  test("grpc-timeout encoding stays within 8 digits", () => {
    expect(encodeGrpcTimeout(1500)).toBe("1500m");
    expect(encodeGrpcTimeout(0.2)).toBe("1m");
    expect(encodeGrpcTimeout(99_999_999)).toBe("99999999m");
    expect(encodeGrpcTimeout(100_000_000)).toBe("100000S");
  });

  test("code names", () => {
    expect(grpcCodeName(5)).toBe("NOT_FOUND");
    expect(grpcCodeName(99)).toBe("CODE_99");
  });
});
