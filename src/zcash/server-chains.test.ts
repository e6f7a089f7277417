import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { createServer, type Server } from "node:http";
import { jsonRpcTarget, type JsonRpcTarget } from "../core/targets/jsonrpc.js";
import { REGTEST_GENESIS_HASH, serverChains } from "./server-chains.js";

// Testnet's genesis, from the testnet chain profile (block-test-0-000-000 in the chain data).
const TESTNET_GENESIS = "05a60a92d99d85997cce3b87616c089f6124d7342af37106edc76126334a2c38";

/** A JSON-RPC node that names its chain `chain` and answers getblockhash 0 with `genesis`. */
function node(chain: string, genesis: string): Promise<Server> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const result = method === "getblockchaininfo" ? { chain, blocks: 1, bestblockhash: genesis } : method === "getblockhash" ? genesis : null;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
    });
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r(server)));
}

const servers: Server[] = [];
const targets: JsonRpcTarget[] = [];
const url = (s: Server) => `http://127.0.0.1:${(s.address() as { port: number }).port}`;

beforeAll(async () => {
  servers.push(await node("test", REGTEST_GENESIS_HASH), await node("test", TESTNET_GENESIS), await node("regtest", "00".repeat(32)));
});
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

test('a node that says "test" over the regtest genesis is on regtest; over testnet\'s genesis it stays "test"', async () => {
  const [zebradRegtest, testnet, zcashdRegtest] = servers.map((s) => {
    const t = jsonRpcTarget({ url: url(s) });
    targets.push(t);
    return t;
  });
  const limits = { concurrency: 1, deadlineMs: 5000, maxMessageBytes: 1 << 20, maxCallBytes: 1 << 20, maxStreamMessages: 10 };
  const build = (name: string) => ({ name, implementation: "other", emulated: false, ...limits, source: { file: "(test)", line: 0 } });
  const chains = await serverChains({
    builds: [build("a"), build("b")],
    connections: {
      grpc: new Map(),
      jsonrpc: new Map([
        ["a", testnet!],
        ["b", zcashdRegtest!],
      ]),
    },
    oracle: zebradRegtest!,
  });
  expect(Object.fromEntries(chains)).toEqual({
    "a (getblockchaininfo.chain)": "test",
    "b (getblockchaininfo.chain)": "regtest",
    "oracle (getblockchaininfo.chain)": "regtest",
  });
});
