import { describe, expect, test } from "@jest/globals";
import { sameCanonical } from "./index.js";
import { canonJsonRpc, MAX_JSON_DEPTH } from "./jsonrpc.js";
import { rpcObs } from "./testing.test-helper.js";

const text = (u: Uint8Array | undefined) => new TextDecoder().decode(u);

describe("JSON-RPC canonical form", () => {
  test("the compared bytes are the answer's members as sent, without the envelope's id, jsonrpc and member order", () => {
    const c = canonJsonRpc(rpcObs('{ "result": {"b": 1.0, "a": "\\u0041"}, "id": 1,\n "jsonrpc": "2.0" }'));
    expect(text(c.compared)).toBe('"result":{"b": 1.0, "a": "\\u0041"}');
    expect(c.body).toEqual({ result: { b: 1, a: "A" }, id: 1, jsonrpc: "2.0" });
    expect(c.outcome).toEqual({ kind: "result" });
    expect(c.excluded).toEqual([]);
    const reordered = canonJsonRpc(rpcObs('{"jsonrpc":"2.0","id":1,"result":{"b": 1.0, "a": "\\u0041"}}'));
    expect(reordered.compared).toEqual(c.compared);
  });

  test("a repeated member stays repeated; zcashd's error:null beside the result is part of the answer", () => {
    expect(text(canonJsonRpc(rpcObs('{"id":1,"result":1,"result":300}')).compared)).toBe('"result":1,"result":300');
    expect(text(canonJsonRpc(rpcObs('{"result":"00","error":null,"id":1}')).compared)).toBe('"error":null,"result":"00"');
  });

  test("error split: code and message; zcashd's error:null is a success", () => {
    const e = canonJsonRpc(rpcObs('{"jsonrpc":"2.0","id":1,"error":{"code":-8,"message":"Block not found"}}'));
    expect(e.outcome).toEqual({ kind: "error", code: -8, message: "Block not found" });
    expect(canonJsonRpc(rpcObs('{"result":"00","error":null,"id":1}')).outcome).toEqual({ kind: "result" });
    expect(canonJsonRpc(rpcObs('{"id":1}')).outcome).toEqual({ kind: "none" });
    expect(canonJsonRpc(rpcObs('{"error":"boom"}')).outcome).toEqual({ kind: "error", code: null, message: "boom" });
    expect(canonJsonRpc(rpcObs('{"error":{"code":-8,"message":"x","data":[1]}}')).outcome).toEqual({ kind: "error", code: -8, message: "x", data: [1] });
  });

  test("numbers a double cannot hold and lone surrogates are answers like any other, shown as their text", () => {
    const c = canonJsonRpc(rpcObs('{"id":1,"result":{"inf":1e999999,"big":123456789012345678901234567890,"exact":3.00e2,"s":"\\ud800"}}'));
    expect(c.notJson).toBeUndefined();
    expect(c.body).toEqual({ id: 1, result: { inf: "1e999999", big: "123456789012345678901234567890", exact: 300, s: "\ud800" } });
    expect(JSON.stringify(c.body)).toContain('"s":"\\ud800"');
  });

  test("a body that is not JSON is kept as bytes", () => {
    const raw = rpcObs("<html>502 Bad Gateway</html>", 502);
    const c = canonJsonRpc(raw, { volatile: ["result.subversion"] });
    expect(c.body).toBeUndefined();
    expect(c.compared).toBe(raw.body);
    expect(c.notJson).toBe('unexpected "<" at byte 0');
    expect(c.excluded).toEqual([{ pattern: "result.subversion", path: "", note: "not applied: the body is not JSON" }]);
    expect(canonJsonRpc(rpcObs("")).notJson).toBe("empty body");
    // Its bytes are never the same answer as a JSON body's members that happen to spell them.
    expect(sameCanonical(canonJsonRpc(rpcObs('{"result":300}')), canonJsonRpc(rpcObs('"result":300')))).toBe(false);
  });

  test("volatile paths are cut from the text and recorded; every other byte stays as sent", () => {
    const c = canonJsonRpc(rpcObs('{"result":{"subversion":"/Zebra:2.1.0/", "peers":[{"addr":"a","ping":3},{"addr":"b" ,"ping":4}]},"id":1}'), {
      volatile: ["result.subversion", "result.peers[*].ping", "result.absent"],
    });
    // A member goes with the separator after it, or before it when it was the last.
    expect(text(c.compared)).toBe('"result":{"peers":[{"addr":"a"},{"addr":"b"}]}');
    expect(c.excluded).toEqual([
      { pattern: "result.subversion", path: "result.subversion", value: "/Zebra:2.1.0/" },
      { pattern: "result.peers[*].ping", path: "result.peers[0].ping", value: 3 },
      { pattern: "result.peers[*].ping", path: "result.peers[1].ping", value: 4 },
    ]);
    expect(c.body).toEqual({ result: { peers: [{ addr: "a" }, { addr: "b" }] }, id: 1 });
  });

  test("array elements removed by index all refer to the answer as received; a whole member can go", () => {
    const c = canonJsonRpc(rpcObs('{"result":[10, 11, 12, 13]}'), { volatile: ["result[1]", "result[2]"] });
    expect(text(c.compared)).toBe('"result":[10, 13]');
    expect(c.excluded.map((e) => e.value)).toEqual([11, 12]);
    expect(text(canonJsonRpc(rpcObs('{"result":[10, 11]}'), { volatile: ["result[1]"] }).compared)).toBe('"result":[10]');
    expect(text(canonJsonRpc(rpcObs('{"result":[ 10 ]}'), { volatile: ["result[*]"] }).compared)).toBe('"result":[  ]');
    expect(text(canonJsonRpc(rpcObs('{"result":5,"error":null}'), { volatile: ["result"] }).compared)).toBe('"error":null');
  });

  test("a repeated key is cut in every occurrence", () => {
    const c = canonJsonRpc(rpcObs('{"result":{"size":1,"a":2,"size":3}}'), { volatile: ["result.size"] });
    expect(text(c.compared)).toBe('"result":{"a":2}');
    expect(c.excluded.map((e) => e.value)).toEqual([1, 3]);
  });

  test("a body nested deeper than MAX_JSON_DEPTH is compared as bytes, not read into", () => {
    const deep = (n: number, inner = "") => `{"jsonrpc":"2.0","id":1,"result":${"[".repeat(n)}${inner}${"]".repeat(n)}}`;
    const c = canonJsonRpc(rpcObs(deep(20_000)), { volatile: ["result"] });
    expect(c.body).toBeUndefined();
    expect(c.notJson).toBe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels (compared as bytes)`);
    expect(text(c.compared)).toBe(deep(20_000));
    expect(c.excluded).toEqual([{ pattern: "result", path: "", note: "not applied: the body is nested too deep to compare as JSON" }]);
    // The body object is one level: the result may nest MAX_JSON_DEPTH - 1 more.
    expect(canonJsonRpc(rpcObs(deep(MAX_JSON_DEPTH - 1))).notJson).toBeUndefined();
    expect(canonJsonRpc(rpcObs(deep(MAX_JSON_DEPTH))).notJson).toBeDefined();
  });
});
