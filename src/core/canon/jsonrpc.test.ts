import { describe, expect, test } from "@jest/globals";
import { canonJsonRpc, lossyIntegers, MAX_JSON_DEPTH, nestedDeeperThan, outcomeOf } from "./jsonrpc.js";
import { rpcObs } from "./testing.test-helper.js";

const text = (u: Uint8Array | undefined) => new TextDecoder().decode(u);

describe("JSON-RPC canonical form", () => {
  test("parsed body, RFC 8785 bytes, result split", () => {
    const c = canonJsonRpc(rpcObs('{ "result": {"b": 1.0, "a": "\\u0041"}, "id": 1,\n "jsonrpc": "2.0" }'));
    expect(text(c.compared)).toBe('{"id":1,"jsonrpc":"2.0","result":{"a":"A","b":1}}');
    expect(c.compared).toBe(c.jcsAll);
    expect(c.outcome).toEqual({ kind: "result", result: { a: "A", b: 1 } });
    expect(c.excluded).toEqual([]);
  });

  test("error split: code and message; zcashd's error:null is a success", () => {
    const e = canonJsonRpc(rpcObs('{"jsonrpc":"2.0","id":1,"error":{"code":-8,"message":"Block not found"}}'));
    expect(e.outcome).toEqual({ kind: "error", code: -8, message: "Block not found" });
    expect(outcomeOf({ result: "00", error: null, id: 1 })).toEqual({ kind: "result", result: "00" });
    expect(outcomeOf({ id: 1 })).toEqual({ kind: "none" });
    expect(outcomeOf({ error: "boom" })).toEqual({ kind: "error", code: null, message: "boom" });
  });

  test("a body that is not JSON is kept as bytes", () => {
    const raw = rpcObs("<html>502 Bad Gateway</html>", 502);
    const c = canonJsonRpc(raw, { volatile: ["result.subversion"] });
    expect(c.body).toBeUndefined();
    expect(c.compared).toBe(raw.body);
    expect(c.notJson).toMatch(/JSON/);
    expect(c.excluded).toEqual([{ pattern: "result.subversion", path: "", note: "not applied: the body is not JSON" }]);
    expect(canonJsonRpc(rpcObs("")).notJson).toBe("empty body");
  });

  test("volatile paths are removed and recorded; the compared bytes lack them", () => {
    const c = canonJsonRpc(rpcObs('{"result":{"subversion":"/Zebra:2.1.0/","peers":[{"addr":"a","ping":3},{"addr":"b","ping":4}]},"id":1}'), {
      volatile: ["result.subversion", "result.peers[*].ping", "result.absent"],
    });
    expect(text(c.compared)).toBe('{"id":1,"result":{"peers":[{"addr":"a"},{"addr":"b"}]}}');
    expect(text(c.jcsAll)).toContain("Zebra");
    expect(c.excluded).toEqual([
      { pattern: "result.subversion", path: "result.subversion", value: "/Zebra:2.1.0/" },
      { pattern: "result.peers[*].ping", path: "result.peers[0].ping", value: 3 },
      { pattern: "result.peers[*].ping", path: "result.peers[1].ping", value: 4 },
    ]);
  });

  test("array elements removed by index all refer to the answer as received", () => {
    const c = canonJsonRpc(rpcObs('{"result":[10,11,12,13]}'), { volatile: ["result[1]", "result[2]"] });
    expect(text(c.compared)).toBe('{"result":[10,13]}');
    expect(c.excluded.map((e) => e.value)).toEqual([11, 12]);
  });

  test("integers a double cannot hold are noted", () => {
    expect(lossyIntegers('{"a":12345678901234567891,"b":"12345678901234567891","c":9007199254740993,"d":1.5,"e":9007199254740992}')).toEqual([
      "12345678901234567891",
      "9007199254740993",
    ]);
  });

  test("a body nested deeper than MAX_JSON_DEPTH is compared as bytes, not recursed into", () => {
    // Found by fuzzing: 20,000 levels (40 kB) made canonicalize exhaust the stack.
    const deep = (n: number, inner = "") => `{"jsonrpc":"2.0","id":1,"result":${"[".repeat(n)}${inner}${"]".repeat(n)}}`;
    const c = canonJsonRpc(rpcObs(deep(20_000)), { volatile: ["result"] });
    expect(c.body).toBeUndefined();
    expect(c.notJson).toBe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels (compared as bytes)`);
    expect(text(c.compared)).toBe(deep(20_000));
    expect(c.excluded).toEqual([{ pattern: "result", path: "", note: "not applied: the body is nested too deep to compare as JSON" }]);
    expect(canonJsonRpc(rpcObs(deep(MAX_JSON_DEPTH - 1))).body).toBeDefined();
    expect(nestedDeeperThan([[[1]]], 3)).toBe(false);
    expect(nestedDeeperThan([[[[]]]], 3)).toBe(true);
  });
});
