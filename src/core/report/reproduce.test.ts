import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import { CompactBlockSchema } from "../../zcash/gen/walletrpc/compact_formats_pb.js";
import { startFixtureNetwork, type FixtureNetwork } from "../../zcash/fixture/network.js";
import { bufCurlCommand, curlJsonRpcCommand, grpcurlCommand, INLINE_LIMIT, rawGrpcCurlCommand, reproduceCommands, shellQuote } from "./reproduce.js";

const run = promisify(execFile);
// Commands run where a reader of a report would run them: anywhere but zconform's checkout.
const sh = (cmd: string, o: { encoding?: "buffer" } = {}) =>
  run("bash", ["-c", cmd], {
    cwd: tmpdir(),
    env: { ...process.env, PATH: `${join(process.cwd(), "node_modules/.bin")}:${process.env.PATH}` },
    maxBuffer: 64 << 20,
    ...(o.encoding ? { encoding: "buffer" as const } : {}),
  });

describe("shellQuote", () => {
  test("leaves plain words alone and single-quotes the rest, quotes included", async () => {
    expect(shellQuote("abc-1.2:3/x")).toBe("abc-1.2:3/x");
    expect(shellQuote(`{"a":"it's"}`)).toBe(`'{"a":"it'\\''s"}'`);
    const nasty = `$(touch /nonexistent) \`x\` "q" 'y' \n\\ ; | &`;
    const { stdout } = await sh(`printf %s ${shellQuote(nasty)}`);
    expect(stdout).toBe(nasty);
  });
});

describe("command builders", () => {
  const url = "http://127.0.0.1:9067";
  test("grpcurl: plaintext for http, host:port, the full method name, the installed package's protos by absolute path", () => {
    const c = grpcurlCommand({ url, rpc: "GetBlock", request: { height: "11" } });
    const protos = join(process.cwd(), "proto");
    expect(c.command).toBe(
      `grpcurl -plaintext -import-path ${shellQuote(protos)} -proto walletrpc/service.proto -d '{"height":"11"}' 127.0.0.1:9067 cash.z.wallet.sdk.rpc.CompactTxStreamer/GetBlock`,
    );
    expect(readFileSync(join(protos, "walletrpc/service.proto"), "utf8")).toContain("service CompactTxStreamer");
    const tls = grpcurlCommand({ url: "https://zec.example.org", rpc: "GetLightdInfo", request: {} });
    expect(tls.command).not.toContain("-plaintext");
    expect(tls.command).toContain(" zec.example.org:443 ");
  });

  test("a client stream is several JSON messages", () => {
    const c = grpcurlCommand({ url, rpc: "GetTaddressBalanceStream", request: [{ address: "t1a" }, { address: "t1b" }] });
    expect(c.command).toContain(`-d '{"address":"t1a"} {"address":"t1b"}'`);
    expect(bufCurlCommand({ url, rpc: "GetTaddressBalanceStream", request: [{ address: "t1a" }, { address: "t1b" }] }).command).toContain(
      `-d '{"address":"t1a"}\n{"address":"t1b"}'`,
    );
  });

  test("raw requests: the exact bytes, framed, with octal escapes any printf understands", () => {
    const c = rawGrpcCurlCommand({ url, rpc: "GetBlock", request: { $wire: "080b", decoded: { height: "11" } } })!;
    expect(c.command).toBe(
      `printf '\\000\\000\\000\\000\\002\\010\\013' | curl -sS --http2-prior-knowledge -H 'content-type: application/grpc' -H 'te: trailers' --data-binary @- http://127.0.0.1:9067/cash.z.wallet.sdk.rpc.CompactTxStreamer/GetBlock | xxd`,
    );
    expect(rawGrpcCurlCommand({ url, rpc: "GetBlock", request: { height: "1" } })).toBeUndefined();
    // Undecodable bytes have no JSON form: only the raw command is offered.
    expect(reproduceCommands({ transport: "grpc", method: "GetBlock", request: { $wire: "ff" }, url }).map((x) => x.tool)).toEqual(["curl"]);
    expect(reproduceCommands({ transport: "grpc", method: "GetBlock", request: { $wire: "080b", decoded: { height: "11" } }, url }).map((x) => x.tool)).toEqual(
      ["curl", "grpcurl", "buf curl"],
    );
  });

  test("JSON-RPC: the envelope zconform sends, and a note on credentials instead of credentials", () => {
    const c = curlJsonRpcCommand({ url: "http://127.0.0.1:8232/", method: "getblock", params: ["1", 1], auth: "cookie" });
    expect(c.command).toBe(
      `curl -s --data-binary '{"jsonrpc":"2.0","id":1,"method":"getblock","params":["1",1]}' -H 'content-type: application/json' http://127.0.0.1:8232/`,
    );
    expect(c.note).toContain("--user __cookie__:$(cut -d: -f2 <cookie file>)");
    expect(curlJsonRpcCommand({ url: "http://h:1/", method: "getinfo", params: [] }).note).toMatch(/up to you/);
  });

  test("never a credential: userinfo and query strings are dropped, auth notes use placeholders", () => {
    const secret = "s3cr3t-T0KEN";
    for (const auth of ["basic", "bearer", "cookie", "headers", undefined] as const) {
      const all = [
        ...reproduceCommands({
          transport: "grpc",
          method: "GetBlock",
          request: { height: "1" },
          url: `https://user:${secret}@h.example:443/?key=${secret}`,
          ...(auth ? { auth } : {}),
        }),
        ...reproduceCommands({
          transport: "jsonrpc",
          method: "getinfo",
          request: [],
          url: `http://u:${secret}@h:8232/?apikey=${secret}`,
          ...(auth ? { auth } : {}),
        }),
      ];
      for (const c of all) expect(`${c.command} ${c.note ?? ""}`).not.toContain(secret);
      expect(all.every((c) => c.note?.includes("query string was left out"))).toBe(true);
    }
  });

  test("large requests are read from a file, with a note saying what to put in it", () => {
    const big = "00".repeat(INLINE_LIMIT);
    const [raw, grpcurl, buf] = reproduceCommands({
      transport: "grpc",
      method: "SendTransaction",
      request: { $wire: `0a${"00"}`, decoded: { data: Buffer.from(big, "hex").toString("base64") } },
      url,
    });
    expect(raw!.command.length).toBeLessThan(400);
    expect(grpcurl!.command).toContain("-d @ ");
    expect(grpcurl!.command).toMatch(/< request\.json$/);
    expect(buf!.command).toContain("-d @request.json");
    expect(grpcurl!.note).toContain("request.json");
    const rawBig = rawGrpcCurlCommand({ url, rpc: "SendTransaction", request: { $wire: big } })!;
    expect(rawBig.command).toMatch(/^xxd -r -p request\.bin\.hex \| curl/);
    expect(curlJsonRpcCommand({ url, method: "sendrawtransaction", params: [big] }).command).toContain("--data-binary @request.json");
  });
});

// The commands must work, not only look right: run them against the fixture network.
// grpcurl is not packaged by Debian; buf (an npm dependency) and curl are.
describe("the commands reproduce the call", () => {
  let net: FixtureNetwork;
  let hasCurl = true;
  beforeAll(async () => {
    net = await startFixtureNetwork({ profiles: ["reference"] });
    hasCurl = await sh("command -v curl && command -v xxd").then(
      () => true,
      () => false,
    );
    if (!hasCurl) console.warn("curl or xxd is not installed: the live reproduce checks of curl commands are skipped");
  });
  afterAll(async () => {
    await net.close();
  });

  test("buf curl, run from a folder other than zconform's, answers the block the fixture serves", async () => {
    const buf = reproduceCommands({
      transport: "grpc",
      method: "GetBlockRange",
      request: { start: { height: "11" }, end: { height: "12" } },
      url: net.grpc.reference!,
    }).find((c) => c.tool === "buf curl");
    const { stdout } = await sh(buf!.command);
    const heights = stdout
      .trim()
      .split(/\n(?=\{)/)
      .map((m) => JSON.parse(m).height);
    expect(heights).toEqual(["11", "12"]);
  });

  test("the raw curl command sends the exact bytes and gets gRPC frames back", async () => {
    if (!hasCurl) return;
    const [raw] = reproduceCommands({ transport: "grpc", method: "GetBlock", request: { $wire: "080b" }, url: net.grpc.reference! });
    const { stdout } = await sh(`${raw!.command.replace(/ \| xxd$/, "")} | xxd -p`);
    const bytes = Buffer.from(String(stdout).replace(/\s/g, ""), "hex");
    expect(bytes[0]).toBe(0);
    const block = fromBinary(CompactBlockSchema, bytes.subarray(5, 5 + bytes.readUInt32BE(1)));
    expect(block.height).toBe(11n);
  });

  test("the JSON-RPC curl command, with the credential the note describes", async () => {
    if (!hasCurl) return;
    const [c] = reproduceCommands({ transport: "jsonrpc", method: "getblockhash", request: [11], url: net.jsonrpc, auth: "cookie" });
    expect(c!.command).not.toContain(readFileSync(net.cookie, "utf8").split(":")[1]!);
    const { stdout } = await sh(`${c!.command} --user __cookie__:$(cut -d: -f2 ${shellQuote(net.cookie)})`);
    expect(JSON.parse(stdout).result).toBe(net.anchors.block_with_sapling_outputs_hash);
  });
});
