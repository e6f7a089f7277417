// A case may declare objects whose members a server sends in an order of its own making
// (zebrad's verbose getrawmempool is a hash map keyed by txid): their key order is not
// compared, and everything else in them still is, byte for byte.
import { expect, test } from "@jest/globals";
import { rpcObs } from "../canon/testing.test-helper.js";
import { canonOf, sameCanonical } from "../canon/index.js";
import { compareObservations } from "./compare.js";
import type { Divergence } from "./divergence.js";

const names = { left: "golden", right: "zebrad" };
const body = (result: string) => rpcObs(`{"jsonrpc":"2.0","id":1,"result":${result}}`);
const notes = (ds: readonly Divergence[]) => ds.map((d) => [d.kind, d.path, d.encoding ?? ""]);
const free = { ...names, unorderedKeys: ["result"] };

const ab = '{"aa":{"size":10,"time":5},"bb":{"size":20,"time":6}}';
const ba = '{"bb":{"size":20,"time":6},"aa":{"size":10,"time":5}}';

test("without the declaration another key order is an encoding difference", () => {
  expect(notes(compareObservations(body(ab), body(ba), names).divergences)).toEqual([["encoding-only", "result", "key-order"]]);
});

test("declared: the same members in another order are the same answer, and the same canonical bytes", () => {
  expect(compareObservations(body(ab), body(ba), free).divergences).toEqual([]);
  const opts = { unorderedKeys: ["result"] };
  expect(sameCanonical(canonOf(body(ab), opts), canonOf(body(ba), opts))).toBe(true);
  expect(sameCanonical(canonOf(body(ab)), canonOf(body(ba)))).toBe(false);
});

test("declared: a member's value, its spelling and its key's escapes are still compared", () => {
  const other = '{"bb":{"size":21,"time":6},"aa":{"size":10,"time":5}}';
  expect(notes(compareObservations(body(ab), body(other), free).divergences)).toEqual([["value", "result.bb.size", ""]]);
  const spelled = '{"bb":{"size":20.0,"time":6},"aa":{"size":10,"time":5}}';
  expect(notes(compareObservations(body(ab), body(spelled), free).divergences)).toEqual([["encoding-only", "result.bb.size", "number"]]);
  const escaped = '{"b\\u0062":{"size":20,"time":6},"aa":{"size":10,"time":5}}';
  expect(notes(compareObservations(body(ab), body(escaped), free).divergences)).toEqual([["encoding-only", "result.bb", "key-escapes"]]);
});

test("declared: only the named objects; the key order inside their members is still compared", () => {
  const inner = '{"bb":{"time":6,"size":20},"aa":{"size":10,"time":5}}';
  expect(notes(compareObservations(body(ab), body(inner), free).divergences)).toEqual([["encoding-only", "result.bb", "key-order"]]);
  expect(compareObservations(body(ab), body(inner), { ...names, unorderedKeys: ["result", "result[*]"] }).divergences).toEqual([]);
});

test("declared with a volatile path inside: the cut member and the order are both left out", () => {
  const later = '{"bb":{"size":20,"time":9},"aa":{"size":10,"time":8}}';
  expect(compareObservations(body(ab), body(later), { ...free, volatile: ["result[*].time"] }).divergences).toEqual([]);
});
