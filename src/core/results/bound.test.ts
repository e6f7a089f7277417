import { describe, expect, test } from "@jest/globals";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { boundPatch, boundStrings, cutString, DEFAULT_KEEPING, elide } from "./bound.js";
import { redactBytes, redactForms, secretForms } from "../targets/secrets.js";

const keep = { ...DEFAULT_KEEPING, edgeBytes: 3, maxStringChars: 40, maxPatchOps: 2 };

describe("what results keep of large answers", () => {
  test("an answer split over messages is kept as its length, hash, and first and last bytes across message borders", () => {
    const parts = [Uint8Array.of(1, 2), Uint8Array.of(3, 4, 5), Uint8Array.of(6)];
    const whole = Buffer.from([1, 2, 3, 4, 5, 6]);
    expect(elide(parts, keep)).toEqual({
      bytes: 6,
      sha256: createHash("sha256").update(whole).digest("hex"),
      head: "010203",
      tail: "040506",
    });
  });

  test("asked to, the whole bytes go to a file named by their hash", () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-spill-"));
    try {
      const e = elide([Uint8Array.of(9, 8), Uint8Array.of(7)], { ...keep, spillDir: dir });
      expect(e.file).toBe(join(dir, `${e.sha256}.bin`));
      expect([...readFileSync(e.file!)]).toEqual([9, 8, 7]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("long strings are cut to head and tail with their length and hash; short ones and other values stay", () => {
    const long = "a".repeat(30) + "b".repeat(30);
    const cut = cutString(long, keep);
    expect(cut).toMatch(/^a{10}…\[60 characters, sha256 [0-9a-f]{64}\]…b{10}$/);
    const value = { short: "x", n: 5, list: [long, "y"] };
    expect(boundStrings(value, keep)).toEqual({ short: "x", n: 5, list: [cut, "y"] });
    const small = { a: ["b"] };
    expect(boundStrings(small, keep)).toBe(small);
  });

  test("a secret straddling the cut of the head, the tail or a long string is masked whole, not left as two halves", () => {
    const marker = "zcfSTRADDLEmarker5e6f";
    const forms = secretForms([marker]);
    const masked = {
      ...keep,
      edgeBytes: 24,
      maxStringChars: 40,
      maskBytes: (b: Buffer) => redactBytes(b, forms),
      maskText: (t: string) => redactForms(t, forms),
    };
    // The marker starts 10 bytes before the head's cut and ends 10 bytes before the tail's.
    const answer = Buffer.from(`${"h".repeat(14)}${marker}${"m".repeat(30)}${marker}${"t".repeat(10)}`);
    const e = elide([answer.subarray(0, 20), answer.subarray(20)], masked);
    const head = Buffer.from(e.head, "hex").toString();
    const tail = Buffer.from(e.tail, "hex").toString();
    expect(head).toBe(`${"h".repeat(14)}***${"m".repeat(7)}`);
    expect(tail).toBe(`${"m".repeat(11)}***${"t".repeat(10)}`);
    expect(e.bytes).toBe(answer.length);
    expect(e.sha256).toBe(createHash("sha256").update(answer).digest("hex"));
    // Without masking first, each half of the marker would be left behind.
    const bare = elide([answer], { ...keep, edgeBytes: 24 });
    expect(Buffer.from(bare.head, "hex").toString()).toContain(marker.slice(0, 10));

    const text = `${"a".repeat(5)}${marker}${"b".repeat(40)}`;
    const cut = cutString(text, masked);
    expect(cut).not.toContain(marker.slice(0, 5));
    expect(cut.startsWith(`${"a".repeat(5)}***`)).toBe(true);
  });

  test("a patch keeps its first operations and counts the rest", () => {
    const ops = [1, 2, 3, 4, 5];
    expect(boundPatch({ left: "l", right: "r", ops }, keep)).toEqual({ left: "l", right: "r", ops: [1, 2], omittedOps: 3 });
  });
});
