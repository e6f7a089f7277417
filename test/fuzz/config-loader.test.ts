// Fuzzing the builds config loader (parseConfig) with documented configs mutated and
// with random text, under an environment where some `${VAR}`s are set and some not.
//
// "Clear" for the config loader: a ConfigError whose every problem names the config
// file, a line inside it (1 .. number of lines + 1), and a message in words. A config
// that loads has builds whose limits are whole numbers in their allowed ranges.

import { afterAll, describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { join } from "node:path";
import { ConfigError, parseConfig } from "../../src/core/targets/config.js";
import { tempDir } from "../tools/temp-corpus.js";
import { expectClear, fuzz, FUZZ_RUNS, mutatedText, yamlishText } from "./fuzz.js";
import { lightwalletProtocol } from "../../src/zcash/protocol.js";

const FILE = "zconform.config.yaml";
const ENV = { ZAINO_RPC_PASSWORD: "hunter2-zaino", API_KEY: "key-abc-123", EMPTY: "" };
const dir = tempDir("zconform-fuzz-config-");
dir.write("ca.pem", "-----BEGIN CERTIFICATE-----\n");
dir.write(".cookie", "__cookie__:c00kie/T0ken+xyz=");
afterAll(() => dir.remove());

const DOCUMENTED = `chain: testnet                 # a chain profile in cases/chains/
oracle:
  jsonrpc: { url: http://127.0.0.1:18232, cookieFile: .cookie }
defaults: { concurrency: 8, deadlineMs: 30000, maxMessageBytes: 16777216, maxStreamMessages: 10000000 }
builds:
  - name: lightwalletd
    implementation: lightwalletd
    version: 0.5.3
    grpc: { url: https://lwd.example.com:9067, caFile: ./ca.pem, serverName: lwd.example.com }
  - name: zaino
    implementation: zaino
    version: 0.10.1
    protocolVersion: v0.4.0
    grpc: { url: http://127.0.0.1:8137, headers: { x-api-key: \${API_KEY} } }
    jsonrpc: { url: http://127.0.0.1:8237, user: zaino, password: \${ZAINO_RPC_PASSWORD} }
    concurrency: 2
    deadlineMs: 10000
  - name: zebrad
    implementation: zebrad
    version: 6.3.0
    grpc:
      url: https://127.0.0.1:9067
      insecureSkipVerify: true
      bearerToken: "tok-\${EMPTY}x"
    jsonrpc: { url: "http://user:p%40ss@127.0.0.1:18232/" }
  - name: zaino-0.9.0
    implementation: zaino
    emulated: true
    profile: zaino-0.9.0
    grpc: { url: http://127.0.0.1:1 }
    maxStreamMessages: 100
`;

function check(text: string): void {
  let config;
  try {
    config = parseConfig(text, FILE, lightwalletProtocol, { env: ENV, baseDir: dir.path });
  } catch (e) {
    const lines = text.split("\n").length;
    expectClear(e, ConfigError, (err) => {
      const problems = (err as ConfigError).problems;
      if (problems.length === 0) return "no problems listed";
      for (const p of problems) {
        if (p.file !== FILE) return `problem names file ${p.file}`;
        if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1) return `line ${p.line} outside 1..${lines + 1}`;
        if (p.message.trim().length < 3 || p.message.includes("[object Object]")) return `message ${JSON.stringify(p.message)}`;
      }
      return undefined;
    });
    return;
  }
  for (const b of config.builds) {
    for (const k of ["concurrency", "deadlineMs", "maxMessageBytes", "maxStreamMessages"] as const) {
      if (!Number.isInteger(b[k]) || b[k] < 1) throw new Error(`build ${b.name}: ${k} = ${b[k]}`);
    }
  }
}

describe("config loader fuzzing", () => {
  test("the documented config loads", () => {
    const c = parseConfig(DOCUMENTED, FILE, lightwalletProtocol, { env: ENV, baseDir: join(dir.path) });
    expect(c.builds.map((b) => b.name)).toEqual(["lightwalletd", "zaino", "zebrad", "zaino-0.9.0"]);
  });

  test("mutated and random configs fail only with clear problems", () => {
    const input = fc.oneof({ weight: 5, arbitrary: mutatedText([DOCUMENTED]) }, { weight: 1, arbitrary: yamlishText });
    const stats = fuzz("parseConfig", 0xc0f1601, input, check);
    expect(stats.runs).toBe(FUZZ_RUNS);
  });
});
