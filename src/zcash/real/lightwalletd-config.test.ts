import { expect, test } from "@jest/globals";
import { lightwalletdArgs, waitingForHeight, zcashConf } from "./lightwalletd-config.js";

const setup = {
  rpcUrl: "http://127.0.0.1:18232/",
  rpcUser: "__cookie__",
  rpcPassword: "tok+en/=",
  network: "regtest" as const,
  folder: "/tmp/lwd",
  grpcPort: 9067,
  httpPort: 9068,
};

test("zcash.conf names the node's JSON-RPC and credentials, and the network", () => {
  expect(zcashConf(setup)).toBe("rpcuser=__cookie__\nrpcpassword=tok+en/=\nrpcbind=127.0.0.1\nrpcport=18232\nregtest=1\n");
  expect(zcashConf({ ...setup, network: "mainnet" })).not.toMatch(/testnet|regtest/);
});

test("it runs without TLS, on its own ports, data dir and log in the folder; Ping only when asked", () => {
  const args = lightwalletdArgs(setup);
  expect(args).toEqual(
    expect.arrayContaining(["--no-tls-very-insecure", "127.0.0.1:9067", "127.0.0.1:9068", "/tmp/lwd/data", "/tmp/lwd/lightwalletd.log", "/tmp/lwd/zcash.conf"]),
  );
  expect(args).not.toContain("--ping-very-insecure");
  expect(lightwalletdArgs({ ...setup, ping: true })).toContain("--ping-very-insecure");
});

test("the height its ingestor waits for is the last one its log names", () => {
  const log = [
    '{"level":"info","msg":"Starting gRPC server on 127.0.0.1:9067"}',
    '{"level":"info","msg":"Waiting for block: 120"}',
    '{"level":"info","msg":"Adding block to cache 120 00ab"}',
    '{"level":"info","msg":"Waiting for block: 301"}',
  ].join("\n");
  expect(waitingForHeight(log)).toBe(301);
  expect(waitingForHeight('{"msg":"Starting"}')).toBeUndefined();
});
