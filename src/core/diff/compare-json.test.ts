import { describe, expect, test } from "@jest/globals";
import { rpcObs } from "../canon/testing.test-helper.js";
import { compareObservations } from "./compare.js";
import type { Divergence } from "./divergence.js";
import { formatPatch } from "./patch.js";

const names = { left: "zebrad", right: "zaino" };
const kinds = (ds: readonly Divergence[]) => ds.map((d) => [d.kind, d.path]);
const ok = (result: unknown) => rpcObs(JSON.stringify({ jsonrpc: "2.0", id: 1, result }));
const err = (code: number, message: string) => rpcObs(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code, message } }));
const txHex = "0400008085202f89" + "00".repeat(20);

describe("compareObservations (JSON-RPC)", () => {
  test("identical bodies: no divergence", () => {
    const r = compareObservations(ok("abc"), ok("abc"), names);
    expect(r).toMatchObject({ identical: true, divergences: [] });
  });

  test("getrawtransaction verbosity 0: a hex string vs an object is json-shape at result", () => {
    const r = compareObservations(ok(txHex), ok({ hex: txHex, height: 100, confirmations: 3 }), names);
    expect(kinds(r.divergences)).toEqual([["json-shape", "result"]]);
    expect(r.divergences[0]!.detail).toBe("string vs object");
    expect(r.patch).toEqual([{ op: "replace", path: "/result", value: { hex: txHex, height: 100, confirmations: 3 }, old: txHex }]);
    expect(formatPatch(r.patch)[0]).toMatch(/^replace \/result: "0400/);
  });

  test("different error codes: error-code at error.code; error vs result: error-vs-ok", () => {
    const r = compareObservations(err(-8, "Block not found"), err(-5, "No such block"), names);
    expect(kinds(r.divergences)).toEqual([
      ["error-code", "error.code"],
      ["value", "error.message"],
    ]);
    expect(r.divergences[0]).toMatchObject({ leftValue: -8, rightValue: -5 });
    const vs = compareObservations(ok("00"), err(-8, "Block not found"), names);
    expect(kinds(vs.divergences)).toEqual([["error-vs-ok", "error.code"]]);
  });

  test("missing and extra members, and values deep inside", () => {
    const r = compareObservations(ok({ a: 1, b: { c: "x" } }), ok({ b: { c: "y" }, d: true }), names);
    expect(kinds(r.divergences)).toEqual([
      ["missing-field", "result.a"],
      ["value", "result.b.c"],
      ["extra-field", "result.d"],
    ]);
  });

  test("a hash in the other byte order, an amount doubled", () => {
    const h = "00000000" + "0123456789abcdef".repeat(3) + "11223344";
    const rev = Buffer.from(h, "hex").reverse().toString("hex");
    const r = compareObservations(ok({ hash: h, valueZat: 1500 }), ok({ hash: rev, valueZat: 3000 }), names);
    expect(kinds(r.divergences)).toEqual([
      ["byte-order", "result.hash"],
      ["multiplicity", "result.valueZat"],
    ]);
  });

  test("arrays: count, order, multiplicity, item values", () => {
    expect(kinds(compareObservations(ok([1, 2, 3]), ok([1, 3]), names).divergences)).toEqual([["count", "result"]]);
    expect(kinds(compareObservations(ok([1, 2, 3]), ok([3, 1, 2]), names).divergences)).toEqual([["order", "result"]]);
    expect(kinds(compareObservations(ok(["a", "b"]), ok(["a", "b", "a", "b"]), names).divergences)).toEqual([["multiplicity", "result"]]);
    expect(kinds(compareObservations(ok([{ t: "a" }, { t: "b" }]), ok([{ t: "a" }, { t: "c" }]), names).divergences)).toEqual([["value", "result[1].t"]]);
  });

  test("the envelope is not the answer: id and jsonrpc members in another order, other spacing between them", () => {
    const r = compareObservations(rpcObs('{"jsonrpc":"2.0","id":1,"result":300}'), rpcObs('{ "result":300,\n "id": 1, "jsonrpc": "2.0" }\n'), names);
    expect(r.identical).toBe(false);
    expect(r.divergences).toEqual([]);
  });

  test("same values in another encoding: encoding-only, saying what differs where, each side's text as its value", () => {
    const r = compareObservations(
      rpcObs('{"id":1,"result":{"a":1,"b":[2, "x"],"c":"a"}}'),
      rpcObs('{"id":1,"result":{"b":[2.0,"x"],"a":1,"c":"\\u0061"}}'),
      names,
    );
    expect(r.divergences.map((d) => [d.kind, d.path, d.encoding, d.leftValue, d.rightValue])).toEqual([
      ["encoding-only", "result.b[0]", "number", "2", "2.0"],
      ["encoding-only", "result.c", "string-escapes", '"a"', '"\\u0061"'],
      ["encoding-only", "result", "key-order", '"a","b","c"', '"b","a","c"'],
      ["encoding-only", "", "whitespace", ", ", ","],
    ]);
    expect(r.divergences[0]!.detail).toBe("equal values, different bytes: number spelled 2 vs 2.0");
  });

  test("numbers are compared by their exact value, never through a double", () => {
    const num = (t: string) => rpcObs(`{"id":1,"result":${t}}`);
    const one = (a: string, b: string) => compareObservations(num(a), num(b), names).divergences.map((d) => [d.kind, d.path, d.encoding]);
    expect(one("300", "300.0")).toEqual([["encoding-only", "result", "number"]]);
    expect(one("300", "3.00e2")).toEqual([["encoding-only", "result", "number"]]);
    expect(one("300", "300.0000000000000000001")).toEqual([["value", "result", undefined]]);
    expect(one("12345678901234567891", "12345678901234567890")).toEqual([["value", "result", undefined]]);
    expect(one("1e999999", "10e999998")).toEqual([["encoding-only", "result", "number"]]);
    expect(one("1e999999", "1e999998")).toEqual([["value", "result", undefined]]);
    expect(one(`1e1${"0".repeat(30)}`, `10e${"9".repeat(30)}`)).toEqual([["encoding-only", "result", "number"]]);
    expect(one("-0", "0")).toEqual([["encoding-only", "result", "number"]]);
    // A factor between integers of any size is still named.
    expect(one("123456789012345678901234567890", "246913578024691357802469135780")).toEqual([["multiplicity", "result", undefined]]);
  });

  test("a repeated key: encoding-only when first-wins and last-wins readers agree, else a value divergence naming both readings", () => {
    const made = compareObservations(rpcObs('{"id":1,"result":300}'), rpcObs('{"id":1,"result":1,"result":300}'), names);
    expect(made.divergences.map((d) => [d.kind, d.path])).toEqual([["value", "result"]]);
    expect(made.divergences[0]!.detail).toBe(
      "key sent 1 time on the left, 2 on the right: a first-wins parser reads 300 on the left and 1 on the right, a last-wins parser 300 and 300",
    );
    const twice = compareObservations(rpcObs('{"id":1,"result":{"a":5}}'), rpcObs('{"id":1,"result":{"a":5,"a":5.0}}'), names);
    expect(twice.divergences.map((d) => [d.kind, d.path, d.encoding])).toEqual([
      ["encoding-only", "result.a", "duplicate-key"],
      ["encoding-only", "result.a", "number"],
    ]);
    expect(twice.divergences[0]!.detail).toBe(
      "equal values, different bytes: key sent 1 time on the left, 2 on the right; a first-wins and a last-wins parser both read 5",
    );
  });

  test("an encoding difference beside a value divergence is reported too", () => {
    const r = compareObservations(ok({ a: 1, b: 2 }), rpcObs('{"jsonrpc":"2.0","id":1,"result":{"a":1.0,"b":3}}'), names);
    expect(kinds(r.divergences)).toEqual([
      ["value", "result.b"],
      ["encoding-only", "result.a"],
    ]);
  });

  test("arrays: items equal in value are paired for their encoding, in any order", () => {
    const r = compareObservations(rpcObs('{"result":[1,2,3]}'), rpcObs('{"result":[3,1.0,2]}'), names);
    expect(kinds(r.divergences)).toEqual([
      ["order", "result"],
      ["encoding-only", "result[0]"],
    ]);
  });

  test("values a double cannot hold and lone surrogates are compared like any other", () => {
    expect(kinds(compareObservations(rpcObs('{"result":"\\ud800"}'), rpcObs('{"result":"\\ud801"}'), names).divergences)).toEqual([["value", "result"]]);
    expect(kinds(compareObservations(rpcObs('{"result":"\\ud800"}'), rpcObs('{"result":"\\uD800"}'), names).divergences)).toEqual([
      ["encoding-only", "result"],
    ]);
    const inf = compareObservations(rpcObs('{"jsonrpc":"2.0","id":1,"result":1e999999}'), ok(300), names);
    expect(inf.divergences.map((d) => [d.kind, d.leftValue, d.rightValue])).toEqual([["value", "1e999999", 300]]);
    expect(inf.patch).toEqual([{ op: "replace", path: "/result", value: 300, old: "1e999999" }]);
  });

  test("an answer of thousands of differences lists a bounded number of them and says there are more", () => {
    const many = (f: (i: number) => string) => rpcObs(`{"id":1,"result":[${Array.from({ length: 5000 }, (_, i) => f(i)).join(",")}]}`);
    const values = compareObservations(
      many((i) => `"a${i}"`),
      many((i) => `"b${i}"`),
      names,
    ).divergences;
    expect(values.length).toBe(1001);
    expect(values.at(-1)).toMatchObject({ kind: "value", path: "", detail: "more differences, not listed: a comparison lists at most 1000" });
    const spellings = compareObservations(
      many((i) => `${i}`),
      many((i) => `${i}.0`),
      names,
    ).divergences;
    expect(spellings.length).toBe(21);
    expect(spellings.at(-1)).toMatchObject({
      kind: "encoding-only",
      path: "",
      detail: "equal values, different bytes: 4980 more encoding differences (number)",
    });
  });

  test("a body over 1 MiB gets no patch (reports keep no JSON of it); its divergences still say where", () => {
    const big = (last: number) => rpcObs(`{"id":1,"result":[${"0,".repeat(600_000)}${last}]}`);
    const r = compareObservations(big(2), big(3), names);
    expect(r.divergences.map((d) => [d.kind, d.path, d.leftValue, d.rightValue])).toEqual([["value", "result[600000]", 2, 3]]);
    expect(r.patch).toEqual([]);
  });

  test("a large string deep in arrays is keyed once, not copied at every level", () => {
    const deep = (last: string) => rpcObs(`{"id":1,"result":${"[".repeat(200)}"${"ab".repeat(2_000_000)}${last}"${"]".repeat(200)}}`);
    const t0 = performance.now();
    const r = compareObservations(deep("x"), deep("y"), { ...names, patch: false });
    expect(r.divergences.map((d) => [d.kind, d.path.length])).toEqual([["value", "result".length + 3 * 200]]);
    expect(performance.now() - t0).toBeLessThan(60_000); // not forever: copying the string at every level ran out of memory
  });

  test("a body that is not JSON; an HTTP status that differs", () => {
    const r = compareObservations(ok(1), rpcObs("", 401), names);
    expect(kinds(r.divergences)).toEqual([
      ["error-vs-ok", "http.status"],
      ["json-shape", ""],
    ]);
    expect(kinds(compareObservations(rpcObs("x", 500), rpcObs("y", 500), names).divergences)).toEqual([["value", ""]]);
  });

  test("volatile result.subversion: not reported, recorded", () => {
    const info = (v: string, blocks: number) => ok({ subversion: v, blocks });
    const r = compareObservations(info("/Zebra:2.0.0/", 10), info("/Zebra:2.1.0/", 10), { ...names, volatile: ["result.subversion"] });
    expect(r.divergences).toEqual([]);
    expect(r.excluded.right).toEqual([{ pattern: "result.subversion", path: "result.subversion", value: "/Zebra:2.1.0/" }]);
    const other = compareObservations(info("/Zebra:2.0.0/", 10), info("/Zebra:2.1.0/", 11), { ...names, volatile: ["result.subversion"] });
    expect(kinds(other.divergences)).toEqual([["value", "result.blocks"]]);
  });
});
