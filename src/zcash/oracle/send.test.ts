// SendTransaction, safety first: the oracle never broadcasts. Bytes that decode as a
// transaction (or claim a newer transaction version) never reach sendrawtransaction;
// bytes that cannot be a transaction do, and the node's rejection is the answer.
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { SendResponseSchema } from "../gen/walletrpc/service_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../fixture/network.js";
import { GrpcCode } from "../../core/targets/grpc-status.js";
import { jsonRpcTarget, type JsonRpcTarget } from "../../core/targets/jsonrpc.js";
import { deriveFromOracle } from "./derive.js";
import { derived, plannedCase, recording, request } from "./oracle.test-helper.js";
import type { GrpcDeriver } from "./source.js";
import { mayBeTransaction } from "./transactions.js";

let net: FixtureNetwork;
let oracle: JsonRpcTarget;
let calls: { method: string; params: readonly unknown[] }[];
let derive: GrpcDeriver;

beforeAll(async () => {
  // The fixture would even acknowledge a transaction here: nothing may reach it.
  net = await startFixtureNetwork({ profiles: ["reference"], acceptTransactions: true });
  oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
  const r = recording(oracle);
  calls = r.calls;
  derive = deriveFromOracle(r.target);
});

afterAll(async () => {
  await oracle.close();
  await net.close();
});

const send = (data: Uint8Array) => plannedCase("SendTransaction", request("SendTransaction", { data }));

describe("SendTransaction", () => {
  test("a valid transaction (mempool or mined) is never sent: the answer is underivable", async () => {
    const mined = net.model.blockAt(net.model.tipHeight - 1)!.block.rawTransactions;
    for (const raw of [...net.model.mempool.map((t) => t.raw), ...mined]) {
      calls.length = 0;
      expect(await derive(send(raw))).toBeUndefined();
      expect(calls).toEqual([]);
    }
  });

  test("bytes claiming a transaction version the decoder does not know (v6) are not sent either", async () => {
    const v6 = Uint8Array.of(0x06, 0x00, 0x00, 0x80, 0x12, 0x34, 0x56, 0x78, 1, 2, 3, 4);
    expect(mayBeTransaction(v6)).toBe(true);
    // Without a version group id it is garbage: every overwintered format has one.
    expect(mayBeTransaction(Uint8Array.of(0x07, 0x00, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0))).toBe(false);
    // A version no format will have is garbage too.
    expect(mayBeTransaction(new Uint8Array(40).fill(0xee))).toBe(false);
    calls.length = 0;
    expect(await derive(send(v6))).toBeUndefined();
    expect(calls).toEqual([]);
  });

  test("garbage is sent, and the node's rejection is SendResponse{errorCode, errorMessage} with status OK", async () => {
    calls.length = 0;
    const garbage = Uint8Array.of(0xde, 0xad, 0xbe, 0xef, 0x00);
    const obs = await derived(derive, "SendTransaction", request("SendTransaction", { data: garbage }));
    expect(calls.map((c) => c.method)).toEqual(["sendrawtransaction"]);
    expect(calls[0]!.params).toEqual(["deadbeef00"]);
    expect(obs.code).toBe(GrpcCode.OK);
    const answer = fromBinary(SendResponseSchema, obs.messages[0]!);
    expect(answer.errorCode).toBe(-22);
    expect(answer.errorMessage).not.toBe("");
  });

  test("empty data is INVALID_ARGUMENT without asking the node", async () => {
    calls.length = 0;
    const obs = await derived(derive, "SendTransaction", request("SendTransaction", {}));
    expect([obs.code, obs.messages.length]).toEqual([GrpcCode.INVALID_ARGUMENT, 0]);
    expect(obs.message).toBe("oracle: bad transaction data");
    expect(calls).toEqual([]);
  });
});
