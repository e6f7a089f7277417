// The unresponsive rule on its own: which answers count toward it, which start it again,
// and what a call sent after it tripped gets.

import { describe, expect, test } from "@jest/globals";
import { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import type { GrpcCallObservation, GrpcTarget } from "../targets/grpc.js";
import type { JsonRpcTarget } from "../targets/jsonrpc.js";
import type { Fault, JsonRpcObservation } from "../targets/observation.js";
import { responsiveGrpc, responsiveJsonRpc } from "./unresponsive.js";

type Answer = "timeout" | "answer" | "reset" | "quiet";
const TIMEOUT: Fault = { kind: "timeout", detail: "no complete answer within 500 ms (client deadline)" };

/** A target that answers each call with the next of `script`, counting the calls that reached it. */
function scriptedGrpc(script: Answer[]): GrpcTarget & { sent: number } {
  const t = {
    sent: 0,
    url: "http://scripted",
    endpoint: { url: "http://scripted" },
    close: async () => {},
    abort: () => {},
    call: async () => {
      const a = script[t.sent++]!;
      const obs: GrpcCallObservation = {
        transport: "grpc",
        method: "GetBlock",
        code: 0,
        message: "",
        messages: [],
        messageCount: 0,
        headers: {},
        trailers: {},
        wireBytes: 0,
        timing: { startedAt: 0, totalMs: 1, ...(a === "answer" || a === "reset" ? { firstByteMs: 1 } : {}) },
        ...(a === "timeout" ? { fault: TIMEOUT } : a === "reset" ? { fault: { kind: "reset", detail: "server reset the stream" } } : {}),
        ...(a === "quiet" ? { endedBy: "quiet" as const, code: 1 } : {}),
      };
      return obs;
    },
  };
  return t;
}

async function faults(target: GrpcTarget, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await target.call(CompactTxStreamer.method.getBlock, new Uint8Array(0))).fault?.kind ?? "answer");
  return out;
}

describe("a target that times out on `after` calls in a row is unresponsive", () => {
  test("its later calls are not sent and answer at once with an unresponsive fault naming the count and the deadline", async () => {
    const inner = scriptedGrpc(["timeout", "timeout", "timeout", "answer", "answer"]);
    const target = responsiveGrpc(inner, 3, 500);
    expect(await faults(target, 5)).toEqual(["timeout", "timeout", "timeout", "unresponsive", "unresponsive"]);
    expect(inner.sent).toBe(3);
    const obs = await target.call(CompactTxStreamer.method.getBlock, new Uint8Array(0));
    expect(obs.fault).toEqual({ kind: "unresponsive", detail: "after 3 timeouts in a row (client deadline 500 ms)" });
    expect(obs.code).toBe(14);
  });

  test("an answer or another fault starts the count again; a quiet stream leaves it as it is", async () => {
    const inner = scriptedGrpc(["timeout", "timeout", "answer", "timeout", "timeout", "reset", "timeout", "quiet", "timeout", "timeout", "answer"]);
    const target = responsiveGrpc(inner, 3);
    const got = await faults(target, 11);
    expect(got.slice(0, 10)).toEqual(["timeout", "timeout", "answer", "timeout", "timeout", "reset", "timeout", "answer", "timeout", "timeout"]);
    // timeout, quiet (no count), timeout, timeout: the third in a row.
    expect(got[10]).toBe("unresponsive");
    expect(inner.sent).toBe(10);
  });

  test("JSON-RPC targets the same; a call's own deadline is the one named", async () => {
    let sent = 0;
    const timedOut: JsonRpcObservation = {
      transport: "jsonrpc",
      method: "getblock",
      httpStatus: 0,
      body: new Uint8Array(0),
      wireBytes: 0,
      timing: { startedAt: 0, totalMs: 1 },
      fault: TIMEOUT,
    };
    const inner: JsonRpcTarget = {
      url: "http://scripted",
      endpoint: { url: "http://scripted" },
      close: async () => {},
      abort: async () => {},
      call: async () => {
        sent++;
        return timedOut;
      },
      batch: async () => {
        sent++;
        return timedOut;
      },
    };
    const target = responsiveJsonRpc(inner, 2, 30_000);
    await target.call("getblock", [], { deadlineMs: 700 });
    await target.batch("getblock", [[]], { deadlineMs: 700 });
    const obs = await target.call("getblock", []);
    expect(sent).toBe(2);
    expect([obs.fault, obs.httpStatus, obs.body.length]).toEqual([
      { kind: "unresponsive", detail: "after 2 timeouts in a row (client deadline 700 ms)" },
      0,
      0,
    ]);
  });
});
