import { describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import { BlockIDSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { canonOf, type Canonical } from "../canon/index.js";
import { bytes, grpcObs, rpcObs } from "../canon/testing.test-helper.js";
import type { Fault } from "../targets/observation.js";
import { expectationDivergences } from "./expect.js";
import { verdictAgainstEach, verdictOf } from "./verdict.js";

const id = (h: number) => canonOf(grpcObs([toBinary(BlockIDSchema, create(BlockIDSchema, { height: BigInt(h) }))]), { schema: BlockIDSchema });
const failed = (code: number, message = "") => canonOf(grpcObs([], { code, message }), { schema: BlockIDSchema });
const down: Fault = { kind: "unreachable", detail: "ECONNREFUSED" };
const faulted = () => canonOf(grpcObs([], { code: 14, fault: down }), { schema: BlockIDSchema });
const builds = (...answers: [string, Canonical][]) => new Map(answers);
const BUILDS = ["lightwalletd", "zaino-0.9.0", "zaino-0.10.1", "ztreamer-v0.1.0", "ztreamer-master", "zebrad-builtin"];
const six = (heights: number[]) => builds(...heights.map((h, i): [string, Canonical] => [BUILDS[i]!, id(h)]));

describe("verdictOf", () => {
  test("2 builds", () => {
    expect(verdictOf(builds(["a", id(1)], ["b", id(1)]))).toMatchObject({ verdict: "agree", deviants: [], groups: [["a", "b"]], reference: "none" });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)]))).toMatchObject({ verdict: "split", deviants: [], groups: [["a"], ["b"]] });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)]), id(2))).toMatchObject({ verdict: "deviant", deviants: ["a"], reference: "oracle" });
    expect(verdictOf(builds(["a", id(1)], ["b", id(1)]), id(1))).toMatchObject({ verdict: "agree", reference: "oracle" });
    expect(verdictOf(builds(["a", id(1)], ["b", id(1)]), id(3))).toMatchObject({ verdict: "all-vs-oracle", deviants: [] });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)]), id(3))).toMatchObject({ verdict: "split", reference: "oracle" });
  });

  test("3 builds", () => {
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)], ["c", id(1)]))).toMatchObject({
      verdict: "deviant",
      deviants: ["b"],
      groups: [["a", "c"], ["b"]],
      reference: "majority",
    });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)], ["c", id(3)]))).toMatchObject({ verdict: "split", groups: [["a"], ["b"], ["c"]] });
    // The oracle is ground truth even against a majority.
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)], ["c", id(1)]), id(2))).toMatchObject({ verdict: "deviant", deviants: ["a", "c"], reference: "oracle" });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)], ["c", id(3)]), id(3))).toMatchObject({ verdict: "deviant", deviants: ["a", "b"] });
    expect(verdictOf(builds(["a", id(4)], ["b", id(4)], ["c", id(4)]), id(4))).toMatchObject({ verdict: "agree" });
  });

  test("6 builds", () => {
    expect(verdictOf(six([1, 1, 1, 1, 1, 1]))).toMatchObject({ verdict: "agree", groups: [BUILDS] });
    expect(verdictOf(six([1, 1, 2, 1, 1, 2]))).toMatchObject({ verdict: "deviant", deviants: ["zaino-0.10.1", "zebrad-builtin"] });
    expect(verdictOf(six([1, 1, 1, 2, 2, 3]))).toMatchObject({ verdict: "split" }); // 3-2-1: no strict majority
    expect(verdictOf(six([1, 1, 1, 2, 2, 2]))).toMatchObject({ verdict: "split" });
    expect(verdictOf(six([1, 1, 1, 2, 2, 3]), id(1))).toMatchObject({ verdict: "deviant", deviants: BUILDS.slice(3) });
    expect(verdictOf(six([1, 1, 1, 1, 1, 1]), id(1))).toMatchObject({ verdict: "agree" });
    expect(verdictOf(six([1, 1, 1, 1, 1, 1]), id(2))).toMatchObject({ verdict: "all-vs-oracle" });
    expect(verdictOf(six([1, 2, 3, 4, 5, 6]), id(7))).toMatchObject({ verdict: "split" });
    const v = verdictOf(six([1, 1, 2, 1, 3, 1]));
    expect(v.groups).toEqual([["lightwalletd", "zaino-0.9.0", "ztreamer-v0.1.0", "zebrad-builtin"], ["zaino-0.10.1"], ["ztreamer-master"]]);
  });

  test("builds with a fault: unavailable when none answered, deviants otherwise", () => {
    expect(verdictOf(builds(["a", faulted()], ["b", faulted()]))).toMatchObject({ verdict: "unavailable", unavailable: ["a", "b"], groups: [["a", "b"]] });
    expect(verdictOf(new Map())).toMatchObject({ verdict: "unavailable" });
    const partial = verdictOf(builds(["a", id(1)], ["b", faulted()], ["c", id(1)]));
    expect(partial).toMatchObject({ verdict: "deviant", deviants: ["b"], unavailable: ["b"], groups: [["a", "c"], ["b"]] });
    expect(verdictOf(builds(["a", id(1)], ["b", faulted()]), id(1))).toMatchObject({ verdict: "deviant", deviants: ["b"] });
  });

  test("one build with nothing to measure it against is unjudged, not agreement", () => {
    expect(verdictOf(builds(["a", id(1)]))).toMatchObject({ verdict: "unjudged", reference: "none", deviants: [] });
    expect(verdictOf(builds(["a", id(1)]), id(1))).toMatchObject({ verdict: "agree", reference: "oracle" });
    expect(verdictOf(builds(["a", failed(3)]), undefined, { expect: { kind: "error" as const, codes: ["INVALID_ARGUMENT"] } })).toMatchObject({
      verdict: "agree",
      reference: "expectation",
    });
  });

  test("oracle-anchored: unavailable when the oracle could not answer", () => {
    expect(verdictOf(builds(["a", id(1)], ["b", id(1)]), faulted())).toMatchObject({ verdict: "unavailable", reference: "oracle" });
    expect(verdictOf(builds(["a", id(1)]), undefined, { expect: { kind: "oracle" } })).toMatchObject({ verdict: "unavailable" });
  });

  test("error expectations: any allowed code conforms, whatever the message", () => {
    const expect3 = { expect: { kind: "error" as const, codes: ["INVALID_ARGUMENT", "OUT_OF_RANGE"] } };
    expect(verdictOf(builds(["a", failed(3, "bad height")], ["b", failed(11, "height out of range")]), undefined, expect3)).toMatchObject({
      verdict: "agree",
      reference: "expectation",
      groups: [["a"], ["b"]],
    });
    expect(verdictOf(builds(["a", failed(3, "x")], ["b", failed(3, "y")], ["c", failed(13)]), undefined, expect3)).toMatchObject({
      verdict: "deviant",
      deviants: ["c"],
      groups: [["a", "b"], ["c"]],
    });
    expect(verdictOf(builds(["a", id(1)], ["b", id(1)]), undefined, expect3)).toMatchObject({ verdict: "all-vs-oracle" });
    expect(verdictOf(builds(["a", id(1)], ["b", failed(13)]), undefined, expect3)).toMatchObject({ verdict: "split" });
  });

  test("ok expectations: successful answers are the reference, however many builds fail", () => {
    const ok = { expect: { kind: "ok" as const } };
    // Four disabled builds outnumber three that answer: the three are still the reference.
    const pinged = builds(["ref", id(1)], ["zt1", id(1)], ["zt2", id(1)], ["lwd", failed(9)], ["z9", failed(12)], ["z10", failed(12)], ["zebra", failed(12)]);
    expect(verdictOf(pinged, undefined, ok)).toMatchObject({
      verdict: "deviant",
      reference: "expectation",
      deviants: ["lwd", "z9", "z10", "zebra"],
      groups: [["ref", "zt1", "zt2"], ["z9", "z10", "zebra"], ["lwd"]],
    });
    expect(verdictOf(builds(["a", id(1)], ["b", id(2)], ["c", failed(12)]), undefined, ok)).toMatchObject({ verdict: "split" });
    expect(verdictOf(builds(["a", failed(12)], ["b", failed(12)]), undefined, ok)).toMatchObject({ verdict: "all-vs-oracle", reference: "expectation" });
    expect(verdictOf(builds(["a", id(1)]), undefined, ok)).toMatchObject({ verdict: "agree", reference: "expectation" });
    expect(expectationDivergences("z9", failed(12), { kind: "ok" })).toMatchObject([
      { kind: "error-vs-ok", path: "status.code", leftValue: "OK", rightValue: "UNIMPLEMENTED" },
    ]);
    expect(expectationDivergences("ref", id(1), { kind: "ok" })).toEqual([]);
  });

  test("expectation divergences", () => {
    const e = { kind: "error" as const, codes: ["INVALID_ARGUMENT"] };
    expect(expectationDivergences("zaino", failed(3), e)).toEqual([]);
    expect(expectationDivergences("zaino", failed(13, "boom"), e)).toEqual([
      {
        kind: "error-code",
        path: "status.code",
        left: "expected",
        right: "zaino",
        leftValue: ["INVALID_ARGUMENT"],
        rightValue: "INTERNAL",
        detail: "expected INVALID_ARGUMENT, got INTERNAL",
      },
    ]);
    expect(expectationDivergences("zaino", id(1), e)[0]).toMatchObject({ kind: "error-vs-ok", rightValue: "OK" });
    expect(expectationDivergences("zaino", id(1), { kind: "agree" })).toEqual([]);
    // A case that expects the server's DEADLINE_EXCEEDED is not met by the client giving up.
    const detail = "no complete answer within 500 ms (client deadline)";
    const timedOut = canonOf(grpcObs([], { code: 4, message: detail, fault: { kind: "timeout", detail } }), { schema: BlockIDSchema });
    expect(expectationDivergences("zaino", timedOut, { kind: "error", codes: ["DEADLINE_EXCEEDED"] })).toEqual([
      {
        kind: "error-code",
        path: "status.code",
        left: "expected",
        right: "zaino",
        leftValue: ["DEADLINE_EXCEEDED"],
        rightValue: "fault:timeout",
        detail: `expected DEADLINE_EXCEEDED, got fault:timeout (timeout: ${detail})`,
      },
    ]);
    const rpc = (body: string) => canonOf(rpcObs(body));
    const re = { kind: "error" as const, codes: [-8, "-5"] };
    expect(expectationDivergences("zebrad", rpc('{"error":{"code":-5,"message":"x"},"id":1}'), re)).toEqual([]);
    expect(expectationDivergences("zebrad", rpc('{"error":{"code":-1,"message":"x"},"id":1}'), re)[0]).toMatchObject({
      kind: "error-code",
      path: "error.code",
      rightValue: -1,
    });
    expect(expectationDivergences("zebrad", rpc('{"result":"00","id":1}'), re)[0]).toMatchObject({ kind: "error-vs-ok", path: "error.code" });
  });
});

describe("verdictAgainstEach: each build against the oracle answer for its protocol version", () => {
  // BlockID{height: n}: field 1 varint.
  const ok = (n: number) => canonOf(grpcObs([bytes(0x08, n)]), { schema: BlockIDSchema, streaming: false });
  test("conforming to one's own oracle is agreement, even when the oracles differ", () => {
    const builds = new Map([
      ["new", ok(1)],
      ["old", ok(2)],
    ]);
    const oracles = new Map([
      ["new", ok(1)],
      ["old", ok(2)],
    ]);
    expect(verdictAgainstEach(builds, oracles).verdict).toBe("agree");
  });
  test("a build that matches the other version's answer instead of its own is the deviant", () => {
    const builds = new Map([
      ["new", ok(1)],
      ["old", ok(1)],
    ]);
    const oracles = new Map([
      ["new", ok(1)],
      ["old", ok(2)],
    ]);
    expect(verdictAgainstEach(builds, oracles)).toMatchObject({ verdict: "deviant", deviants: ["old"] });
  });
});
