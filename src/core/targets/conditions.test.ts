import { describe, expect, test } from "@jest/globals";
import { parseConfig } from "./config.js";
import { runConditions } from "./conditions.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";

const conditions = (yaml: string) =>
  runConditions(parseConfig(yaml, "t.yaml", lightwalletProtocol, { checkFiles: false, env: { PW: "a-password-of-some-length" } })).map((c) => [c.kind, c.side]);

describe("how a run was made", () => {
  test("certificate checks off, for a build and for the oracle", () => {
    expect(
      conditions(
        [
          "chain: testnet",
          "oracle: { jsonrpc: { url: 'https://zebra.example:8232', insecureSkipVerify: true } }",
          "builds:",
          "  - { name: lwd, implementation: lightwalletd, grpc: { url: 'https://lwd.example:9067', insecureSkipVerify: true } }",
        ].join("\n"),
      ),
    ).toEqual([
      ["insecure-skip-verify", "lwd"],
      ["insecure-skip-verify", "oracle"],
    ]);
  });

  test("credentials over plain http count only when the host is not this machine", () => {
    expect(
      conditions(
        [
          "chain: testnet",
          "oracle: { jsonrpc: { url: 'http://127.0.0.1:8232', user: u, password: '${PW}' } }",
          "builds:",
          "  - { name: remote, implementation: zaino, jsonrpc: { url: 'http://10.1.2.3:8237', user: u, password: '${PW}' } }",
          "  - { name: local, implementation: zaino, jsonrpc: { url: 'http://localhost:8237', user: u, password: '${PW}' } }",
          "  - { name: open, implementation: zaino, jsonrpc: { url: 'http://10.1.2.4:8237' } }",
          "  - { name: tls, implementation: zaino, jsonrpc: { url: 'https://10.1.2.5:8237', user: u, password: '${PW}' } }",
        ].join("\n"),
      ),
    ).toEqual([["plaintext-credentials", "remote"]]);
  });

  test("no oracle", () => {
    expect(conditions("chain: testnet\nbuilds:\n  - { name: a, implementation: other, grpc: { url: 'https://a.example:1' } }\n")).toEqual([
      ["no-oracle", "run"],
    ]);
  });
});
