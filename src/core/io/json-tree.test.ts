import { describe, expect, test } from "@jest/globals";
import { ARRAY, childrenOf, DEEP, kindOf, membersOf, NUMBER, OBJECT, readError, readJson, STRING, type JsonRead, type JsonTree } from "./json-tree.js";
import { textOf } from "./json-values.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const tree = (s: string, depth = 256): JsonTree => {
  const r = readJson(bytes(s), depth);
  if (!r.ok) throw new Error(readError(r));
  return r.tree;
};
const failure = (r: JsonRead) => (r.ok ? "ok" : readError(r));

describe("readJson", () => {
  test("every value is a node holding its text as sent", () => {
    const t = tree(' {"a" : [1, 2.50e1, "x\\u0079"], "b":{}, "a":null} ');
    expect(kindOf(t, 0)).toBe(OBJECT);
    const members = membersOf(t, 0);
    expect(members.map((m) => textOf(t, m.key))).toEqual(['"a"', '"b"', '"a"']);
    const items = childrenOf(t, members[0]!.value);
    expect(items.map((i) => textOf(t, i))).toEqual(["1", "2.50e1", '"x\\u0079"']);
    expect(items.map((i) => kindOf(t, i))).toEqual([NUMBER, NUMBER, STRING]);
    expect(textOf(t, 0)).toBe('{"a" : [1, 2.50e1, "x\\u0079"], "b":{}, "a":null}');
    expect(childrenOf(t, members[1]!.value)).toEqual([]);
  });

  test("what JSON.parse accepts it accepts, lone surrogate escapes included; what it rejects it rejects with a byte offset", () => {
    for (const ok of ['"\\ud800"', "1e999999", "-0", "[]", "{}", "null", " true ", `${"9".repeat(400)}`]) expect(failure(readJson(bytes(ok), 8))).toBe("ok");
    expect(failure(readJson(bytes('{"a":1,}'), 8))).toBe("expected a string key at byte 7");
    expect(failure(readJson(bytes("[01]"), 8))).toBe('expected "," or "]" at byte 2');
    expect(failure(readJson(bytes("[1] x"), 8))).toBe("unexpected data after the JSON value at byte 4");
    expect(failure(readJson(bytes('"a\nb"'), 8))).toBe("control character in a string at byte 2");
    expect(failure(readJson(bytes('"\\x"'), 8))).toBe("bad escape at byte 1");
    expect(failure(readJson(bytes("[1.]"), 8))).toBe("bad number: no digit after the point at byte 3");
    expect(failure(readJson(bytes("tru"), 8))).toBe('unexpected "t" at byte 0');
    expect(failure(readJson(bytes(""), 8))).toBe("unexpected end of the body at byte 0");
    expect(failure(readJson(bytes("[1"), 8))).toBe("unexpected end of the body at byte 2");
    expect(failure(readJson(Uint8Array.from([0x22, 0xff, 0x22]), 8))).toBe("the body is not valid UTF-8");
    expect(failure(readJson(bytes("\ufeff{}"), 8))).toBe("unexpected byte 0xef at byte 0");
  });

  test("containers deeper than the tree depth are one DEEP node, checked but not kept", () => {
    const t = tree('{"id":1,"result":[[[1]]]}', 2);
    expect(t.deep).toBe(true);
    const result = membersOf(t, 0)[1]!.value;
    expect(kindOf(t, result)).toBe(ARRAY);
    const inner = childrenOf(t, result)[0]!;
    expect(kindOf(t, inner)).toBe(DEEP);
    expect(textOf(t, inner)).toBe("[[1]]");
    expect(t.size).toBe(6); // the object, two keys, 1, the result array, the deep node
    expect(tree("[[1]]", 2).deep).toBe(false);
    expect(failure(readJson(bytes(`${"[".repeat(1000)}1${"]".repeat(999)}`), 4))).toBe("unexpected end of the body at byte 2000");
  });

  test("a body nested 8 million levels is read in bounded memory, without recursion", () => {
    const n = 8_000_000;
    const body = new Uint8Array(2 * n + 1);
    body.fill(0x5b, 0, n);
    body[n] = 0x31;
    body.fill(0x5d, n + 1);
    const before = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
    const r = readJson(body, 256);
    const after = process.memoryUsage().arrayBuffers + process.memoryUsage().heapUsed;
    expect(r.ok && r.tree.deep).toBe(true);
    expect(r.ok && r.tree.size).toBe(257);
    // The reader's own allocations: far below the 1.3 GB JSON.parse took for the same body.
    expect(after - before).toBeLessThan(64 * 1024 * 1024);
  });
});
