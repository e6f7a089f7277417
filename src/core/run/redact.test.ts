import { describe, expect, test } from "@jest/globals";
import { scrubber } from "./redact.js";
import { redactBytes, secretForms } from "../targets/secrets.js";

const SECRET = "s3cret/T0ken+=";

describe("scrubber", () => {
  const scrub = scrubber([SECRET]);
  const hex = (s: string) => Buffer.from(s).toString("hex");

  test("masks a secret in every string of a nested value, in every spelling", () => {
    const event = {
      message: `denied: ${SECRET}`,
      list: [encodeURIComponent(SECRET), Buffer.from(SECRET).toString("base64"), { deep: `x${Buffer.from(SECRET).toString("base64url")}x` }],
      hex: [`00${hex(`"token":"${SECRET}"`)}ff`],
      [`key-${SECRET}`]: 1,
      n: 5,
      ok: true,
      none: null,
    };
    expect(scrub(event)).toEqual({
      message: "denied: ***",
      list: ["***", "***", { deep: "x***x" }],
      // The hex of the secret becomes the hex of the mask: the string stays hex.
      hex: [`00${hex('"token":"***"')}ff`],
      "key-***": 1,
      n: 5,
      ok: true,
      none: null,
    });
  });

  test("a long string seen again is masked the same way", () => {
    const long = `${"ab".repeat(200)}${SECRET}${"cd".repeat(200)}`;
    const clean = "ef".repeat(300);
    for (let i = 0; i < 3; i++) {
      expect(scrub({ long, clean, again: [long] })).toEqual({
        long: `${"ab".repeat(200)}***${"cd".repeat(200)}`,
        clean,
        again: [`${"ab".repeat(200)}***${"cd".repeat(200)}`],
      });
    }
  });

  test("copies, never changes the value it was given", () => {
    const event = { a: [SECRET] };
    const copy = scrub(event);
    expect(event.a[0]).toBe(SECRET);
    expect(copy.a[0]).toBe("***");
  });

  test("without secrets it hands the value back as it is", () => {
    const event = { a: [SECRET] };
    expect(scrubber([])(event)).toBe(event);
  });

  test("short secrets are masked as written only: their encodings would match by chance", () => {
    const s = scrubber(["abcd"]);
    expect(s({ t: "xabcdx", h: hex("abcd") })).toEqual({ t: "x***x", h: hex("abcd") });
  });

  test("bytes written whole (a spilled answer) have every form of the secret masked", () => {
    const forms = secretForms([SECRET]);
    const raw = Buffer.concat([Buffer.from([0, 1]), Buffer.from(`a${SECRET}b${encodeURIComponent(SECRET)}`), Buffer.from([0xff])]);
    const out = redactBytes(raw, forms);
    expect([...out]).toEqual([0, 1, ...Buffer.from("a***b***"), 0xff]);
  });
});
