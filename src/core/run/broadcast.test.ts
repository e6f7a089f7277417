import { describe, expect, test } from "@jest/globals";
import { create, toBinary } from "@bufbuild/protobuf";
import type { Case } from "../corpus/case.js";
import { syntheticChain } from "../../zcash/fixture/chain/index.js";
import { CompactTxStreamer, RawTransactionSchema } from "../../zcash/gen/walletrpc/service_pb.js";
import { BROADCAST_REFUSED, broadcastRisk } from "./broadcast.js";
import type { PlannedCase } from "./plan.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

const tx = syntheticChain().blocks[30]!.block.rawTransactions[0]!;
const hex = Buffer.from(tx).toString("hex");
const kase = (transport: "grpc" | "jsonrpc", method: string): Case => ({
  id: `${method}/x`,
  transport,
  method,
  request: null,
  expect: { kind: "agree" },
  volatile: [],
  unordered: false,
  tags: [],
  source: { file: "f", line: 1 },
});
const send = (request: PlannedCase["request"]): PlannedCase => ({
  case: kase("grpc", "SendTransaction"),
  rpc: CompactTxStreamer.method.sendTransaction,
  request,
});
const rpc = (params: unknown[]): PlannedCase => ({ case: kase("jsonrpc", "sendrawtransaction"), request: params });

describe("broadcastRisk", () => {
  test("a valid transaction, however it is spelled in the request, is refused", () => {
    expect(broadcastRisk(send(create(RawTransactionSchema, { data: tx })), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
    expect(broadcastRisk(send(toBinary(RawTransactionSchema, create(RawTransactionSchema, { data: tx, height: 5n }))), lightwalletProtocol)).toBe(
      BROADCAST_REFUSED,
    );
    expect(broadcastRisk(rpc([hex]), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
    expect(broadcastRisk(rpc([hex.toUpperCase(), false]), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
    // A node deserializes one transaction and ignores what follows it.
    const trailing = Uint8Array.from([...tx, 0x00]);
    expect(broadcastRisk(send(create(RawTransactionSchema, { data: trailing })), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
    expect(broadcastRisk(rpc([`${hex}00ff`]), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
    // An overwintered version the decoder does not know (v6): a node may accept it.
    expect(broadcastRisk(rpc(["06000080" + "77777777" + "00".repeat(40)]), lightwalletProtocol)).toBe(BROADCAST_REFUSED);
  });

  test("what no node can read as a transaction goes through", () => {
    expect(broadcastRisk(send(create(RawTransactionSchema, { data: tx.subarray(0, tx.length - 1) })), lightwalletProtocol)).toBeUndefined();
    expect(broadcastRisk(send(Uint8Array.from([0xff, 0xff, 0xff])), lightwalletProtocol)).toBeUndefined(); // not a RawTransaction
    expect(broadcastRisk(rpc([hex.slice(1)]), lightwalletProtocol)).toBeUndefined(); // odd-length hex
    expect(broadcastRisk(rpc([`0x${hex}`]), lightwalletProtocol)).toBeUndefined();
    expect(broadcastRisk(rpc([""]), lightwalletProtocol)).toBeUndefined();
    expect(broadcastRisk(rpc([42]), lightwalletProtocol)).toBeUndefined();
  });

  test("only the broadcasting methods are looked at", () => {
    expect(broadcastRisk({ case: kase("jsonrpc", "decoderawtransaction"), request: [hex] }, lightwalletProtocol)).toBeUndefined();
    expect(
      broadcastRisk(
        { case: kase("grpc", "GetTransaction"), rpc: CompactTxStreamer.method.getTransaction, request: create(RawTransactionSchema, { data: tx }) },
        lightwalletProtocol,
      ),
    ).toBeUndefined();
  });
});
