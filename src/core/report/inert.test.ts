import { describe, expect, test } from "@jest/globals";
import { inert, inertDeep, inertLines } from "./inert.js";

// What a hostile server puts in a string it knows will be printed: a window title, a
// screen clear, an OSC 8 link, a forged line, bidi overrides and isolates, a C1 CSI.
const [TITLE, CLEAR, LINK, FORGED, BIDI, C1_CSI] = [
  "\x1b]0;pwned\x07",
  "\x1b[2J",
  "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
  "main\r\ncould not check nothing: all is well",
  "abc\u202edcba\u2066x\u2069",
  "\u009b2J",
] as const;

/** Every character a terminal would obey rather than show. */
const OBEYED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("inert", () => {
  test.each([TITLE, CLEAR, LINK, FORGED, BIDI, C1_CSI, "a\u2028b\tc\u007f"])("%j is shown, not obeyed", (text) => {
    const shown = inert(text);
    expect(shown).not.toMatch(OBEYED);
    expect(shown.length).toBeGreaterThan(0);
  });

  test("escapes read as what they stand for", () => {
    expect(inert(TITLE)).toBe("\\x1b]0;pwned\\x07");
    expect(inert(FORGED)).toBe("main\\r\\ncould not check nothing: all is well");
    expect(inert("x\u202ey")).toBe("x\\u202ey");
    expect(inert(C1_CSI)).toBe("\\x9b2J");
  });

  test("plain text, accents and emoji are left alone", () => {
    for (const s of ["main", "zebrad 7.0.0", "Zcash — ✓ ~ é 漢字 🦓", ""]) expect(inert(s)).toBe(s);
  });

  test("inertDeep reaches every string of plain data, keys included, and leaves other values", () => {
    const data = { chainName: CLEAR, n: 3, ok: true, none: null, list: [TITLE, { [FORGED]: BIDI }], bytes: new Uint8Array([27]) };
    const copy = inertDeep(data);
    const strings: string[] = [];
    JSON.stringify(copy, (k, v: unknown) => {
      strings.push(k);
      if (typeof v === "string") strings.push(v);
      return v;
    });
    expect(strings.filter((x) => OBEYED.test(x))).toEqual([]);
    expect(copy.n).toBe(3);
    expect(copy.none).toBeNull();
    expect(copy.bytes).toBe(data.bytes);
    expect(data.chainName).toBe(CLEAR);
  });
});

describe("inertLines, the last guard before the terminal", () => {
  test("keeps line feeds and, where asked, colours; escapes everything else", () => {
    const red = "\x1b[31mfail\x1b[39m";
    expect(inertLines(`a\n${red}`, { colours: true })).toBe(`a\n${red}`);
    expect(inertLines(red, { colours: false })).toBe("\\x1b[31mfail\\x1b[39m");
    const hostile = `${TITLE}${CLEAR}${LINK}\r${BIDI}${C1_CSI}`;
    expect(inertLines(hostile, { colours: true })).not.toMatch(OBEYED);
  });
});
