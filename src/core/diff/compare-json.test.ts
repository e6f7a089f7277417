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
    expect(r.divergences[0].detail).toBe("string vs object");
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

  test("same JSON value, different bytes: encoding-only", () => {
    const r = compareObservations(rpcObs('{"id":1,"result":{"a":1,"b":2}}'), rpcObs('{ "result": { "b": 2.0, "a": 1 }, "id": 1 }\n'), names);
    expect(kinds(r.divergences)).toEqual([["encoding-only", ""]]);
  });

  test("integers beyond 2^53 that JCS would round alike are not called encoding-only", () => {
    const r = compareObservations(rpcObs('{"result":12345678901234567891}'), rpcObs('{"result":12345678901234567890}'), names);
    expect(kinds(r.divergences)).toEqual([["value", ""]]);
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
