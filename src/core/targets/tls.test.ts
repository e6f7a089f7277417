import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BlockIDSchema, ChainSpecSchema, CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";
import type { GrpcEndpoint } from "./endpoint.js";
import { grpcTarget } from "./grpc.js";
import { jsonRpcTarget } from "./jsonrpc.js";
import { haveOpenssl, selfSignedCert } from "./self-signed.test-helper.js";
import { closedPort, endWithStatus, rawFrame, respondGrpc, startRawServer, type TestServer } from "./test-servers.test-helper.js";
import { INPUT_LIMITS } from "../io/input-limits.js";
import { sparseFile, tooLarge } from "../io/oversized.test-helper.js";
import { describeIf } from "../../../test/tools/skips.js";

const M = CompactTxStreamer.method;
const answer = toBinary(BlockIDSchema, create(BlockIDSchema, { height: 9n, hash: new Uint8Array([1, 2]) }));

const openssl = haveOpenssl();
const maybe = describeIf(openssl, "need the openssl command (apt-get install openssl)");

maybe("TLS with a throwaway self-signed certificate", () => {
  let dir: string;
  let server: TestServer;
  let caFile: string;
  let rpc: https.Server;
  let rpcUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zconform-tls-"));
    const { keyFile, certFile } = selfSignedCert(dir);
    caFile = certFile;
    server = await startRawServer(
      (stream) => {
        respondGrpc(stream);
        stream.write(rawFrame(answer));
        endWithStatus(stream, 0);
      },
      { key: readFileSync(keyFile), cert: readFileSync(caFile) },
    );
    rpc = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":7}'));
    });
    await new Promise<void>((r) => rpc.listen(0, "127.0.0.1", () => r()));
    rpcUrl = `https://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await server?.close();
    rpc?.closeAllConnections();
    await new Promise((r) => rpc?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  async function callWith(extra: Partial<GrpcEndpoint>) {
    const t = grpcTarget({ url: server.url, ...extra });
    try {
      return await t.call(M.getLatestBlock, create(ChainSpecSchema), { deadlineMs: 5000 });
    } finally {
      await t.close();
    }
  }

  test("verification fails without the CA", async () => {
    const obs = await callWith({});
    expect(obs.fault?.kind).toBe("unreachable");
    expect(obs.code).toBe(14);
    expect(obs.fault?.detail).toMatch(/self[- ]signed/i);
  });

  test("succeeds with caFile", async () => {
    const obs = await callWith({ caFile });
    expect(obs.fault).toBeUndefined();
    expect(Buffer.from(obs.messages[0]!)).toEqual(Buffer.from(answer));
  });

  test("succeeds with insecureSkipVerify", async () => {
    const obs = await callWith({ insecureSkipVerify: true });
    expect(obs.fault).toBeUndefined();
    expect(obs.code).toBe(0);
  });

  test("a name the certificate does not cover fails even with the CA", async () => {
    const obs = await callWith({ caFile, serverName: "other.example" });
    expect(obs.fault?.kind).toBe("unreachable");
    expect(obs.fault?.detail).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
  });

  test("an unreadable caFile is an unreachable fault naming the file", async () => {
    const obs = await callWith({ caFile: join(dir, "missing.pem") });
    expect(obs.fault?.kind).toBe("unreachable");
    expect(obs.fault?.detail).toContain("missing.pem");
  });

  test("jsonrpc over https: fails without the CA, works with caFile or insecureSkipVerify", async () => {
    const call = async (extra: Partial<GrpcEndpoint>) => {
      const t = jsonRpcTarget({ url: rpcUrl, ...extra }, { deadlineMs: 5000 });
      try {
        return await t.call("getblockcount");
      } finally {
        await t.close();
      }
    };
    const bad = await call({});
    expect(bad.fault?.kind).toBe("unreachable");
    expect(bad.fault?.detail).toMatch(/self[- ]signed/i);
    expect((await call({ caFile })).fault).toBeUndefined();
    expect((await call({ insecureSkipVerify: true })).fault).toBeUndefined();
  });
});

describe("an oversized caFile", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "zconform-tls-limit-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a caFile over the size limit: an unreachable fault of that build naming the file and the limit, gRPC and JSON-RPC, before it is read", async () => {
    const caFile = sparseFile(join(dir, "huge.pem"));
    const url = `https://127.0.0.1:${await closedPort()}`;
    const detail = `cannot read caFile ${caFile}: ${tooLarge("the CA file", INPUT_LIMITS.caFileBytes)}`;
    const grpc = grpcTarget({ url, caFile });
    const rpc = jsonRpcTarget({ url, caFile }, { deadlineMs: 5000 });
    try {
      expect((await grpc.call(M.getLatestBlock, create(ChainSpecSchema), { deadlineMs: 5000 })).fault).toEqual({ kind: "unreachable", detail });
      expect((await rpc.call("getblockcount")).fault).toEqual({ kind: "unreachable", detail });
    } finally {
      await grpc.close();
      await rpc.close();
    }
  });
});
