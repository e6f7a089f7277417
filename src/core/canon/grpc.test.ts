import { describe, expect, test } from "@jest/globals";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { CompactBlockSchema } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import { BlockIDSchema, CompactTxStreamer, GetMempoolTxRequestSchema, LightdInfoSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { canonGrpc, deadlineTimingUnclear, grpcCanonOptions, grpcJson, PAST_DEADLINE } from "./grpc.js";
import { bytes, grpcObs, sampleBlock } from "./testing.test-helper.js";
import { JSON_OPTIONS, messageJson } from "./grpc-json.js";

const ascii = (s: string) => [...Buffer.from(s)];
const unary = { streaming: false };
const stream = { streaming: true };

describe("gRPC canonical form", () => {
  test("canonical input: compared is the wire array itself, re-encoding identical, JSON with defaults", () => {
    const wire = toBinary(BlockIDSchema, create(BlockIDSchema, { height: 5n, hash: new Uint8Array([0xaa, 0xbb]) }));
    const c = canonGrpc(grpcObs([wire]), BlockIDSchema, unary);
    expect(c.status).toEqual({ code: 0, name: "OK", message: "" });
    expect(c.messages[0]!.compared).toBe(wire);
    expect(Buffer.compare(c.messages[0]!.reencoded!, wire)).toBe(0);
    expect(c.messages[0]!.json).toEqual({ height: "5", hash: "qrs=" });
    const empty = canonGrpc(grpcObs([new Uint8Array()]), LightdInfoSchema, unary);
    expect(Object.keys(empty.messages[0]!.json as object)).toHaveLength(18); // every field, defaults included
    expect(grpcJson(empty)).toBe(empty.messages[0]!.json);
  });

  test("cancelAfter: an answer with at least that many messages compares as those and OK; a shorter one as it is", () => {
    const blocks = [1, 2, 3].map((n) => toBinary(BlockIDSchema, create(BlockIDSchema, { height: BigInt(n) })));
    const whole = canonGrpc(grpcObs(blocks), BlockIDSchema, { ...stream, cancelAfter: 2 });
    const cut = canonGrpc(
      { ...grpcObs(blocks.slice(0, 2), { code: 1, message: "cancelled by the client after 2 messages" }), endedBy: "cancelled" },
      BlockIDSchema,
      { ...stream, cancelAfter: 2 },
    );
    for (const c of [whole, cut]) {
      expect(c.status).toEqual({ code: 0, name: "OK", message: "" });
      expect(c.messages.map((m) => m.json)).toEqual([
        { height: "1", hash: "" },
        { height: "2", hash: "" },
      ]);
    }
    expect(whole.excluded.map((e) => e.path)).toEqual(["status", "[2]"]);
    const short = canonGrpc(grpcObs(blocks.slice(0, 1), { code: 5, message: "not found" }), BlockIDSchema, { ...stream, cancelAfter: 2 });
    expect([short.status.name, short.messages.length]).toEqual(["NOT_FOUND", 1]);
  });

  test("deadlineMs: a call held past it compares as PAST_DEADLINE; the server's DEADLINE_EXCEEDED and an OK sent inside it as they are", () => {
    const blocks = [1, 2].map((n) => toBinary(BlockIDSchema, create(BlockIDSchema, { height: BigInt(n) })));
    const at = (totalMs: number, firstByteMs?: number) => ({ startedAt: 0, totalMs, ...(firstByteMs !== undefined ? { firstByteMs } : {}) });
    const opts = { ...stream, deadlineMs: 100 };
    const held = {
      ...grpcObs(blocks, { code: 1, message: "still open 1000 ms after the 100 ms deadline it was sent; ended by the client" }),
      endedBy: "deadline" as const,
      timing: at(1100, 2),
    };
    // Headers and the messages at once, the OK 228 ms later: the server held the stream past the deadline.
    const heldThenOk = { ...grpcObs(blocks), timing: at(230, 2) };
    for (const o of [held, heldThenOk]) {
      const c = canonGrpc(o, BlockIDSchema, opts);
      expect(c.status).toEqual({ code: 1, name: PAST_DEADLINE, message: "" });
      expect(c.messages).toHaveLength(2);
      expect(c.excluded.map((e) => e.path)).toEqual(["status"]);
    }
    const enforced = canonGrpc({ ...grpcObs(blocks, { code: 4, message: "context deadline exceeded" }), timing: at(104, 2) }, BlockIDSchema, opts);
    expect(enforced.status).toEqual({ code: 4, name: "DEADLINE_EXCEEDED", message: "context deadline exceeded" });
    expect(canonGrpc({ ...grpcObs(blocks), timing: at(40, 2) }, BlockIDSchema, opts).status.name).toBe("OK");
    // A trailers-only OK the server sent at once that reached a loaded client after the
    // deadline (real lightwalletd's first stream after a start: 11 ms quiet, past 100 ms
    // under load): the client's clock is not the server's, so it is the server's OK.
    const okLate = canonGrpc({ ...grpcObs([]), timing: at(230, 230) }, BlockIDSchema, opts);
    expect([okLate.status.name, okLate.excluded]).toEqual(["OK", []]);
    // Without the declaration an OK is an OK, however long it was held.
    expect(canonGrpc(heldThenOk, BlockIDSchema, stream).status.name).toBe("OK");
    expect(grpcCanonOptions(CompactTxStreamer.method.getMempoolStream, { deadlineMs: 100 }).deadlineMs).toBe(100);
  });

  test("deadlineMs: an OK whose hold the client's stall could have moved across the deadline is unclear; anything else is clear", () => {
    const ok = (firstByteMs: number, totalMs: number, stalledMs?: number) => ({
      code: 0,
      timing: { firstByteMs, totalMs, ...(stalledMs !== undefined ? { stalledMs } : {}) },
    });
    // Held 250 ms as seen, the loop stalled 300 ms of it: maybe held only 0 ms.
    expect(deadlineTimingUnclear(ok(5, 255, 300), 100)).toBe(true);
    // Held 50 ms as seen, stalled 120 ms: maybe held 170 ms.
    expect(deadlineTimingUnclear(ok(5, 55, 120), 100)).toBe(true);
    // A stall too short to move the hold across the deadline, either way.
    expect(deadlineTimingUnclear(ok(5, 255, 20), 100)).toBe(false);
    expect(deadlineTimingUnclear(ok(5, 55, 20), 100)).toBe(false);
    // No stall measured (a trailers-only answer has no hold to blur), no deadline sent,
    // an error, a fault, or a call the client ended itself: nothing to ask again.
    expect(deadlineTimingUnclear(ok(5, 255), 100)).toBe(false);
    expect(deadlineTimingUnclear(ok(5, 255, 300), undefined)).toBe(false);
    expect(deadlineTimingUnclear({ ...ok(5, 255, 300), code: 4 }, 100)).toBe(false);
    expect(deadlineTimingUnclear({ ...ok(5, 255, 300), fault: { kind: "reset" } }, 100)).toBe(false);
    expect(deadlineTimingUnclear({ ...ok(5, 1100, 300), endedBy: "deadline" }, 100)).toBe(false);
  });

  test("re-encoding differs from the wire for non-canonical input; the wire bytes are kept", () => {
    const wire = bytes(0x12, 0x02, 0xaa, 0xbb, 0x08, 0x05); // hash before height
    const m = canonGrpc(grpcObs([wire]), BlockIDSchema, unary).messages[0]!;
    expect(m.compared).toBe(wire);
    expect([...m.reencoded!]).toEqual([0x08, 0x05, 0x12, 0x02, 0xaa, 0xbb]);
  });

  test("unknown fields are surfaced, at top level and nested", () => {
    const top = canonGrpc(grpcObs([bytes(0x08, 0x05, 0x4a, 0x02, 0x68, 0x69)]), BlockIDSchema, unary).messages[0]!;
    expect(top.unknown).toEqual([{ path: "$unknown[9]", no: 9, wireType: 2, hex: "026869" }]);
    expect((top.json as Record<string, unknown>).$unknown).toEqual({ "9": [{ wireType: 2, hex: "026869" }] });
    const tx = [0x12, 0x02, 0xaa, 0xbb, 0x60, 0x01];
    const nested = canonGrpc(grpcObs([bytes(0x10, 0x05, 0x3a, tx.length, tx)]), CompactBlockSchema, stream).messages[0]!;
    expect(nested.unknown!.map((u) => u.path)).toEqual(["vtx[0].$unknown[12]"]);
  });

  test("a message that does not decode is a form of its own, with the offset", () => {
    const c = canonGrpc(grpcObs([bytes(0x08, 0x05, 0x12, 0x20, 1, 2, 3)]), BlockIDSchema, unary);
    expect(c.messages[0]!.undecodable).toEqual({ offset: 3, reason: "length 32 runs past the end" });
    expect(c.messages[0]!.reencoded).toBeUndefined();
    expect(c.messages[0]!.json).toEqual({ $undecodable: { offset: 3, reason: "length 32 runs past the end", bytes: "08051220010203" } });
    const utf8 = canonGrpc(grpcObs([bytes(0x38, 0x01, 0x0a, 0x02, 0xff, 0xfe)]), LightdInfoSchema, unary);
    expect(utf8.messages[0]!.undecodable).toEqual({ offset: 4, reason: "invalid UTF-8 in string field version" });
    const badTag = canonGrpc(grpcObs([bytes(0x08, 0x05, 0x07)]), BlockIDSchema, unary);
    expect(badTag.messages[0]!.undecodable?.offset).toBe(2);
  });

  test("volatile: exactly the named field is cut from the wire bytes, the rest stays as received", () => {
    // blockHeight, vendor, version: reverse field order, which must survive.
    const wire = bytes(0x38, 0x64, 0x12, 0x03, ascii("ECC"), 0x0a, 0x07, ascii("v0.4.17"));
    const c = canonGrpc(grpcObs([wire]), LightdInfoSchema, { ...unary, volatile: ["version"] });
    expect([...c.messages[0]!.compared]).toEqual([0x38, 0x64, 0x12, 0x03, ...ascii("ECC")]);
    expect(c.excluded).toEqual([{ pattern: "version", path: "version", value: "v0.4.17" }]);
    expect(c.messages[0]!.json).not.toHaveProperty("version");
    expect(c.messages[0]!.json).toHaveProperty("vendor", "ECC");
    expect(c.volatile).toEqual(["version"]);
  });

  test("volatile inside a repeated message keeps the width of the shortened length prefix", () => {
    const tx = [0x12, 0x02, 0xaa, 0xbb, 0x18, 0x07];
    const wire = bytes(0x10, 0x05, 0x3a, 0x86, 0x00, tx); // padded 2-byte length
    const c = canonGrpc(grpcObs([wire, wire]), CompactBlockSchema, { ...stream, volatile: ["vtx[*].fee"] });
    expect([...c.messages[0]!.compared]).toEqual([0x10, 0x05, 0x3a, 0x84, 0x00, 0x12, 0x02, 0xaa, 0xbb]);
    expect(fromBinary(CompactBlockSchema, c.messages[0]!.compared).vtx[0]!.fee).toBe(0);
    expect(c.excluded.map((e) => [e.path, e.value])).toEqual([
      ["[0].vtx[0].fee", 7],
      ["[1].vtx[0].fee", 7],
    ]);
  });

  test("volatile on a real-shaped block stream: each message, nothing else", () => {
    const blocks = [sampleBlock(10), sampleBlock(11)];
    const wires = blocks.map((b) => toBinary(CompactBlockSchema, b));
    const c = canonGrpc(grpcObs(wires), CompactBlockSchema, { ...stream, volatile: ["[*].vtx[1].outputs[0].ciphertext", "chainMetadata"] });
    expect(c.excluded.map((e) => e.path)).toEqual([
      "[0].vtx[1].outputs[0].ciphertext",
      "[0].chainMetadata",
      "[1].vtx[1].outputs[0].ciphertext",
      "[1].chainMetadata",
    ]);
    for (const [i, m] of c.messages.entries()) {
      const expected = structuredClone(blocks[i]!);
      expected.vtx[1]!.outputs[0]!.ciphertext = new Uint8Array();
      expected.chainMetadata = undefined;
      expect(Buffer.compare(m.compared, toBinary(CompactBlockSchema, expected))).toBe(0);
    }
  });

  test("a leading index selects stream messages; an index alone drops a message", () => {
    const ids = [1n, 2n, 3n].map((h) => toBinary(BlockIDSchema, create(BlockIDSchema, { height: h, hash: new Uint8Array([1]) })));
    const c = canonGrpc(grpcObs(ids), BlockIDSchema, { ...stream, volatile: ["[2].height", "[0]"] });
    expect(c.messages.map((m) => m.arrival)).toEqual([1, 2]);
    expect(c.messages[1]!.json).toEqual({ hash: "AQ==" });
    expect(c.excluded.map((e) => e.path)).toEqual(["[0]", "[2].height"]);
  });

  test("volatile element of a packed repeated field", () => {
    const wire = bytes(0x1a, 0x03, 0x01, 0x02, 0x03);
    const c = canonGrpc(grpcObs([wire]), GetMempoolTxRequestSchema, { ...unary, volatile: ["poolTypes[1]"] });
    expect([...c.messages[0]!.compared]).toEqual([0x1a, 0x02, 0x01, 0x03]);
    expect(c.excluded).toEqual([{ pattern: "poolTypes[1]", path: "poolTypes[1]", value: "SAPLING" }]);
    expect((c.messages[0]!.json as Record<string, unknown>).poolTypes).toEqual(["TRANSPARENT", "ORCHARD"]);
  });

  test("status.message can be volatile; status.code cannot; bad paths are refused", () => {
    const c = canonGrpc(grpcObs([], { code: 13, message: "height 5 out of range" }), BlockIDSchema, { ...unary, volatile: ["status.message"] });
    expect(c.status).toEqual({ code: 13, name: "INTERNAL", message: "" });
    expect(c.excluded).toEqual([{ pattern: "status.message", path: "status.message", value: "height 5 out of range" }]);
    const obs = grpcObs([]);
    expect(() => canonGrpc(obs, BlockIDSchema, { ...unary, volatile: ["status.code"] })).toThrow("always compared");
    expect(() => canonGrpc(obs, BlockIDSchema, { ...unary, volatile: ["heigth"] })).toThrow('has no field "heigth"');
    expect(() => canonGrpc(obs, CompactBlockSchema, { ...unary, volatile: ["vtx.fee"] })).toThrow("vtx[*]");
    expect(() => canonGrpc(obs, BlockIDSchema, { ...unary, volatile: ["height.x"] })).toThrow("scalar");
    expect(() => canonGrpc(obs, BlockIDSchema, { ...unary, volatile: ["$unknown[1]"] })).toThrow("known as height");
    expect(() => canonGrpc(obs, BlockIDSchema, { ...unary, volatile: ["vtx["] })).toThrow("bad field path");
  });

  test("unordered streams are sorted by their compared bytes, and that is recorded", () => {
    const ids = [3n, 1n, 2n].map((h) => toBinary(BlockIDSchema, create(BlockIDSchema, { height: h })));
    const sorted = canonGrpc(grpcObs(ids), BlockIDSchema, { ...stream, unordered: true });
    expect(sorted.unordered).toBe(true);
    expect(sorted.messages.map((m) => m.arrival)).toEqual([1, 2, 0]);
    const kept = canonGrpc(grpcObs(ids), BlockIDSchema, stream);
    expect(kept.unordered).toBe(false);
    expect(kept.messages.map((m) => m.arrival)).toEqual([0, 1, 2]);
  });

  test("options from the rpc descriptor", () => {
    expect(grpcCanonOptions(CompactTxStreamer.method.getBlockRange, { volatile: ["height"], unordered: false }).streaming).toBe(true);
    expect(grpcCanonOptions(CompactTxStreamer.method.getBlock, {}).streaming).toBe(false);
  });
});

describe("bytes fields in the JSON form", () => {
  // The JSON form writes them itself (grpc-json.ts); it must say what toJson says.
  test("base64 as toJson writes it, for nested, repeated and empty bytes fields", () => {
    const block = sampleBlock(7);
    const request = create(GetMempoolTxRequestSchema, { excludeTxidSuffixes: [Uint8Array.of(1, 2, 3), new Uint8Array(0), Uint8Array.of(0xff, 0xfe)] });
    expect(messageJson(CompactBlockSchema, block).json).toEqual(toJson(CompactBlockSchema, block, JSON_OPTIONS));
    expect(messageJson(GetMempoolTxRequestSchema, request).json).toEqual(toJson(GetMempoolTxRequestSchema, request, JSON_OPTIONS));
  });
});
