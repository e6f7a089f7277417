// Real zainod as an operator runs it: a zainod.toml written by hand on a node (the
// fixture's Zebra-style JSON-RPC, cookie auth), its gRPC and its own JSON-RPC server on,
// nothing asked of it before the user's run, a config written as the README shows with no
// version, and `zconform run` once: the first run gives the verdict every later run gives,
// exit 0 with every divergence known, over both of its endpoints.

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { ChildProcess } from "node:child_process";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { expectClean, firstRun, type FirstRun } from "./tools/first-run.js";
import { realGate } from "./tools/real-gate.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";
import { zainodByHand } from "./tools/zainod-by-hand.js";

const { pin, installed, realTest } = realGate("zainod");

describe(`real zainod ${pin.version} started by hand, first run`, () => {
  let net: FixtureNetwork;
  let dir: TempDir;
  let zainod: ChildProcess | undefined;
  let run: FirstRun;

  beforeAll(async () => {
    if (!installed) return;
    net = await startFixtureNetwork({ profiles: ["reference"] });
    dir = tempDir("zconform-field-zaino-");
    const started = await zainodByHand(pin, dir, { url: net.jsonrpc, cookieFile: net.cookie }, Number(net.anchors.tip));
    zainod = started.child;
    run = await firstRun(dir, net, [
      "  - name: my-zaino",
      "    implementation: zaino",
      `    grpc: { url: ${started.grpcUrl} }`,
      `    jsonrpc: { url: ${started.jsonRpcUrl}, cookieFile: ${started.cookieFile} }`,
    ]);
  }, 600_000);

  afterAll(async () => {
    zainod?.kill("SIGKILL");
    await net?.close();
    dir?.remove();
  });

  realTest("the first run exits 0: every divergence is in the ledger, nothing is stale", () => {
    expectClean(run);
  });

  realTest("both its endpoints were asked: the gRPC corpus and the JSON-RPC methods Zaino serves", () => {
    const asked = (transport: string) => run.report.cases.filter((c) => c.transport === transport && c.answers.some((a) => a.side === "my-zaino")).length;
    expect(asked("grpc")).toBeGreaterThan(200);
    expect(asked("jsonrpc")).toBeGreaterThan(100);
  });

  realTest("the build's version is what the server reports", () => {
    expect(run.report.builds[0]).toMatchObject({ name: "my-zaino", version: pin.version, versionSource: "server" });
  });
});
