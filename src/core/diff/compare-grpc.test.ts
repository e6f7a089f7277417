import { describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import { CompactBlockSchema, type CompactBlock } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import {
  BalanceSchema,
  BlockIDSchema,
  CompactTxStreamer,
  GetMempoolTxRequestSchema,
  LightdInfoSchema,
  SubtreeRootSchema,
} from "../../zcash/gen/walletrpc/service_pb.js";
import { bytes, grpcObs, sampleBlock, seq } from "../canon/testing.test-helper.js";
import type { GrpcObservation } from "../targets/observation.js";
import { compareObservations, type CompareOptions } from "./compare.js";
import type { Divergence } from "./divergence.js";

const names = { left: "lightwalletd", right: "zaino" };
const M = CompactTxStreamer.method;
const unary = (o: Partial<CompareOptions> = {}): CompareOptions => ({ ...names, method: M.getLatestBlock, ...o });
const kinds = (ds: readonly Divergence[]) => ds.map((d) => [d.kind, d.path]);
const blockId = (height: bigint, hash: Uint8Array) => toBinary(BlockIDSchema, create(BlockIDSchema, { height, hash }));
const blockObs = (...blocks: CompactBlock[]) => grpcObs(blocks.map((b) => toBinary(CompactBlockSchema, b)));

describe("compareObservations (gRPC)", () => {
  test("byte-identical answers: no divergence, nothing decoded (no schema needed)", () => {
    const junk = bytes(0xff, 0xff, 0xff);
    const r = compareObservations(grpcObs([junk, seq(10)]), grpcObs([bytes(0xff, 0xff, 0xff), seq(10)]), { ...names });
    expect(r.identical).toBe(true);
    expect(r.divergences).toEqual([]);
    expect(r.patch).toEqual([]);
  });

  test("a hash in reversed byte order: byte-order at hash", () => {
    const h = seq(32, 0x10);
    const r = compareObservations(grpcObs([blockId(100n, h)]), grpcObs([blockId(100n, h.slice().reverse())]), unary());
    expect(kinds(r.divergences)).toEqual([["byte-order", "hash"]]);
    expect(r.divergences[0]!.leftValue).toBe(Buffer.from(h).toString("hex"));
    expect(r.divergences[0]).toMatchObject({ left: "lightwalletd", right: "zaino" });
  });

  test("a reversed completingBlockHash in a SubtreeRoot stream: byte-order at [0].completingBlockHash", () => {
    const root = (hash: Uint8Array, height: bigint) =>
      toBinary(SubtreeRootSchema, create(SubtreeRootSchema, { rootHash: seq(32, 1), completingBlockHash: hash, completingBlockHeight: height }));
    const h = seq(32, 0x40);
    const left = grpcObs([root(h, 1000n), root(seq(32, 9), 2000n)]);
    const right = grpcObs([root(h.slice().reverse(), 1000n), root(seq(32, 9), 2000n)]);
    const r = compareObservations(left, right, { ...names, method: M.getSubtreeRoots });
    expect(kinds(r.divergences)).toEqual([["byte-order", "[0].completingBlockHash"]]);
  });

  test("a balance doubled: multiplicity at valueZat", () => {
    const bal = (v: bigint) => grpcObs([toBinary(BalanceSchema, create(BalanceSchema, { valueZat: v }))]);
    const r = compareObservations(bal(123456789n), bal(246913578n), { ...names, method: M.getTaddressBalance });
    expect(kinds(r.divergences)).toEqual([["multiplicity", "valueZat"]]);
    expect(r.divergences[0]).toMatchObject({ factor: 2, leftValue: "123456789", rightValue: "246913578" });
    const halved = compareObservations(bal(300n), bal(100n), { ...names, method: M.getTaddressBalance });
    expect(halved.divergences[0]).toMatchObject({ kind: "multiplicity", factor: 1 / 3 });
    const other = compareObservations(bal(300n), bal(301n), { ...names, method: M.getTaddressBalance });
    expect(kinds(other.divergences)).toEqual([["value", "valueZat"]]);
  });

  test("INTERNAL vs INVALID_ARGUMENT: error-code at status.code; OK vs error: error-vs-ok", () => {
    const r = compareObservations(grpcObs([], { code: 13, message: "internal" }), grpcObs([], { code: 3, message: "bad height" }), unary());
    expect(kinds(r.divergences)).toEqual([["error-code", "status.code"]]);
    expect(r.divergences[0]).toMatchObject({ leftValue: "INTERNAL", rightValue: "INVALID_ARGUMENT" });
    const ok = compareObservations(grpcObs([blockId(1n, seq(32))]), grpcObs([], { code: 5, message: "not found" }), unary());
    expect(kinds(ok.divergences)).toEqual([["error-vs-ok", "status.code"]]);
    const msg = compareObservations(grpcObs([], { code: 5, message: "a" }), grpcObs([], { code: 5, message: "b" }), unary());
    expect(kinds(msg.divergences)).toEqual([["value", "status.message"]]);
  });

  test("a stream one message short: count", () => {
    const blocks = [sampleBlock(1), sampleBlock(2), sampleBlock(3)];
    const r = compareObservations(blockObs(...blocks), blockObs(blocks[0]!, blocks[2]!), { ...names, method: M.getBlockRange });
    expect(kinds(r.divergences)).toEqual([["count", ""]]);
    expect(r.divergences[0]).toMatchObject({ leftValue: 3, rightValue: 2 });
    expect(r.divergences[0]!.detail).toContain("right lacks left [1]");
  });

  test("a stream that errs midway: status and count both reported", () => {
    const blocks = [sampleBlock(1), sampleBlock(2)];
    const right = blockObs(blocks[0]!);
    right.code = 14;
    const r = compareObservations(blockObs(...blocks), right, { ...names, method: M.getBlockRange });
    expect(kinds(r.divergences)).toEqual([
      ["error-vs-ok", "status.code"],
      ["count", ""],
    ]);
  });

  test("the same messages reordered: order, and nothing when the case is unordered", () => {
    const txs = [1, 2, 3].map((i) => sampleBlock(i).vtx[0]!).map((t, i) => ({ ...t, index: BigInt(i) }));
    const enc = (order: number[]) => grpcObs(order.map((i) => toBinary(M.getMempoolTx.output, create(M.getMempoolTx.output, txs[i]!))));
    const r = compareObservations(enc([0, 1, 2]), enc([2, 0, 1]), { ...names, method: M.getMempoolTx });
    expect(kinds(r.divergences)).toEqual([["order", ""]]);
    const u = compareObservations(enc([0, 1, 2]), enc([2, 0, 1]), { ...names, method: M.getMempoolTx, unordered: true });
    expect(u.divergences).toEqual([]);
    expect(u.unordered).toBe(true);
    expect(u.identical).toBe(false);
    // Unordered, and one transaction differs: the path names it as it arrived.
    const changed = enc([2, 0, 1]);
    const tx = create(M.getMempoolTx.output, { ...txs[0]!, fee: 12345 });
    changed.messages[1] = toBinary(M.getMempoolTx.output, tx);
    const c = compareObservations(enc([0, 1, 2]), changed, { ...names, method: M.getMempoolTx, unordered: true });
    expect(kinds(c.divergences)).toEqual([["value", "[0].fee"]]);
    expect(c.divergences[0]!.detail).toContain("(right message [1])");
    const short = compareObservations(enc([0, 1, 2]), enc([2, 0]), { ...names, method: M.getMempoolTx, unordered: true });
    expect(short.divergences[0]!.detail).toContain("right lacks left [1]");
  });

  test("every message sent twice: multiplicity of the whole stream", () => {
    const a = [sampleBlock(1), sampleBlock(2)];
    const r = compareObservations(blockObs(...a), blockObs(a[0]!, a[0]!, a[1]!, a[1]!), { ...names, method: M.getBlockRange });
    expect(kinds(r.divergences)).toEqual([["multiplicity", ""]]);
    expect(r.divergences[0]!.factor).toBe(2);
  });

  test("the same values in another field order: encoding-only", () => {
    const r = compareObservations(grpcObs([bytes(0x08, 0x05, 0x12, 0x02, 0xaa, 0xbb)]), grpcObs([bytes(0x12, 0x02, 0xaa, 0xbb, 0x08, 0x05)]), unary());
    expect(kinds(r.divergences)).toEqual([["encoding-only", ""]]);
    expect(r.divergences[0]!.detail).toContain("right: height (field 1) after field 2");
    expect(r.patch).toEqual([]);
  });

  test("an explicit default (08 00): encoding-only", () => {
    const r = compareObservations(grpcObs([bytes(0x12, 0x02, 0xaa, 0xbb)]), grpcObs([bytes(0x08, 0x00, 0x12, 0x02, 0xaa, 0xbb)]), unary());
    expect(kinds(r.divergences)).toEqual([["encoding-only", ""]]);
    expect(r.divergences[0]!.detail).toContain("explicit default for height");
  });

  test("packed vs unpacked repeated field: encoding-only", () => {
    const r = compareObservations(grpcObs([bytes(0x1a, 0x02, 0x01, 0x02)]), grpcObs([bytes(0x18, 0x01, 0x18, 0x02)]), {
      ...names,
      schema: GetMempoolTxRequestSchema,
      streaming: false,
    });
    expect(kinds(r.divergences)).toEqual([["encoding-only", ""]]);
    expect(r.divergences[0]!.detail).toContain("poolTypes unpacked");
  });

  test("a missing field and an extra field", () => {
    const b = sampleBlock(7);
    const noMeta = { ...b, chainMetadata: undefined };
    const missing = compareObservations(blockObs(b), blockObs(noMeta), { ...names, method: M.getBlock });
    expect(kinds(missing.divergences)).toEqual([["missing-field", "chainMetadata"]]);
    expect(missing.divergences[0]!.leftValue).toEqual({ saplingCommitmentTreeSize: 1007, orchardCommitmentTreeSize: 507, ironwoodCommitmentTreeSize: 0 });
    const extra = compareObservations(blockObs(noMeta), blockObs(b), { ...names, method: M.getBlock });
    expect(kinds(extra.divergences)).toEqual([["extra-field", "chainMetadata"]]);
    // A field the schema does not know, and transparent data where the other has none.
    const wire = toBinary(CompactBlockSchema, b);
    const unknown = compareObservations(grpcObs([wire]), grpcObs([bytes(wire, 0x4a, 0x01, 0x00)]), { ...names, method: M.getBlock });
    expect(kinds(unknown.divergences)).toEqual([["extra-field", "$unknown[9]"]]);
    const vinless = structuredClone(b);
    vinless.vtx[1]!.vin = [];
    const vin = compareObservations(blockObs(vinless), blockObs(b), { ...names, method: M.getBlock });
    expect(kinds(vin.divergences)).toEqual([["extra-field", "vtx[1].vin"]]);
  });

  test("a value change deep inside: value at vtx[1].outputs[0].ciphertext, and the patch shows it", () => {
    const a = sampleBlock(9);
    const b = structuredClone(a);
    b.vtx[1]!.outputs[0]!.ciphertext[5]! ^= 0xff;
    const r = compareObservations(blockObs(a), blockObs(b), { ...names, method: M.getBlock });
    expect(kinds(r.divergences)).toEqual([["value", "vtx[1].outputs[0].ciphertext"]]);
    expect(r.patch).toHaveLength(1);
    expect(r.patch[0]).toMatchObject({ op: "replace", path: "/vtx/1/outputs/0/ciphertext" });
    const s = compareObservations(blockObs(a, a), blockObs(a, b), { ...names, method: M.getBlockRange });
    expect(kinds(s.divergences)).toEqual([["value", "[1].vtx[1].outputs[0].ciphertext"]]);
    expect(s.patch[0]!.path).toBe("/1/vtx/1/outputs/0/ciphertext");
  });

  test("a transaction missing from a block: count at vtx, not a cascade of values", () => {
    const a = sampleBlock(9);
    const b = structuredClone(a);
    b.vtx.splice(0, 1);
    const r = compareObservations(blockObs(a), blockObs(b), { ...names, method: M.getBlock });
    expect(kinds(r.divergences)).toEqual([["count", "vtx"]]);
  });

  test("volatile: a changed LightdInfo.version is not reported, and the exclusion is recorded", () => {
    const info = (version: string) => grpcObs([toBinary(LightdInfoSchema, create(LightdInfoSchema, { version, vendor: "ECC", blockHeight: 3000000n }))]);
    const opts = { ...names, method: M.getLightdInfo, volatile: ["version"] };
    const r = compareObservations(info("v0.4.17"), info("v0.4.18"), opts);
    expect(r.divergences).toEqual([]);
    expect(r.identical).toBe(false);
    expect(r.volatile).toEqual(["version"]);
    expect(r.excluded.left).toEqual([{ pattern: "version", path: "version", value: "v0.4.17" }]);
    expect(r.excluded.right).toEqual([{ pattern: "version", path: "version", value: "v0.4.18" }]);
    const without = compareObservations(info("v0.4.17"), info("v0.4.18"), { ...opts, volatile: [] });
    expect(kinds(without.divergences)).toEqual([["value", "version"]]);
    // Declared volatile, yet another field changed: still reported.
    const both = compareObservations(
      info("v0.4.17"),
      grpcObs([toBinary(LightdInfoSchema, create(LightdInfoSchema, { version: "x", vendor: "ECC", blockHeight: 3000001n }))]),
      opts,
    );
    expect(kinds(both.divergences)).toEqual([["value", "blockHeight"]]);
  });

  test("an undecodable message against a good one: value, with the offset", () => {
    const good = blockId(5n, seq(4));
    const r = compareObservations(grpcObs([good]), grpcObs([bytes(0x08, 0x05, 0x12, 0x20, 1)]), unary());
    expect(kinds(r.divergences)).toEqual([["value", ""]]);
    expect(r.divergences[0]!.detail).toBe("left decodes; right undecodable at offset 3: length 32 runs past the end");
  });

  test("a changed message in a reordered-and-changed stream is paired with its counterpart", () => {
    const ids = [1n, 2n, 3n].map((h) => blockId(h, seq(32, Number(h))));
    const changed = blockId(2n, seq(32, 99));
    const r = compareObservations(grpcObs(ids), grpcObs([ids[0]!, ids[2]!, changed]), { ...names, schema: BlockIDSchema, streaming: true });
    expect(kinds(r.divergences)).toEqual([["value", "[1].hash"]]);
    expect(r.divergences[0]!.detail).toContain("right message [2]");
  });

  test("a fault with the same synthesized status still differs from a real answer", () => {
    const a: GrpcObservation = grpcObs([], { code: 14, message: "unavailable" });
    const b: GrpcObservation = grpcObs([], { code: 14, message: "unavailable", fault: { kind: "unreachable", detail: "ECONNREFUSED" } });
    const r = compareObservations(a, b, unary());
    expect(kinds(r.divergences)).toEqual([["value", "fault"]]);
  });

  test("the client's deadline is its own timeout, never the server's DEADLINE_EXCEEDED", () => {
    const detail = "no complete answer within 30000 ms (client deadline)";
    const timedOut = grpcObs([], { code: 4, message: detail, fault: { kind: "timeout", detail } });
    const ok = compareObservations(grpcObs([blockId(1n, seq(32))]), timedOut, unary());
    expect(ok.divergences).toEqual([expect.objectContaining({ kind: "error-vs-ok", leftValue: "OK", rightValue: "fault:timeout" })]);
    expect(ok.divergences[0]!.detail).toBe(`OK vs fault:timeout (timeout: ${detail})`);
    expect(ok.divergences[0]!.detail).not.toContain("DEADLINE_EXCEEDED");
    // A server that really answers DEADLINE_EXCEEDED is told apart from the client giving up.
    const server = compareObservations(grpcObs([], { code: 4, message: "deadline exceeded" }), timedOut, unary());
    expect(server.divergences).toEqual([
      expect.objectContaining({ kind: "error-code", path: "status.code", leftValue: "DEADLINE_EXCEEDED", rightValue: "fault:timeout" }),
    ]);
  });
});
