// Real lightwalletd as an operator runs it: started by hand on a node (the fixture's
// Zebra-style JSON-RPC), nothing asked of it before the user's run, a config written as the
// README shows with no version, and `zconform run` once. The first run after the server
// started must give the verdict every later run gives: exit 0, every divergence known.
// Its cold mempool caches (the first GetMempoolStream ends empty) are the server's own
// behaviour, known to the ledger, not something a warm-up hides.

import { afterAll, beforeAll, describe, expect } from "@jest/globals";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { expectClean, firstRun, type FirstRun } from "./tools/first-run.js";
import { lightwalletdByHand } from "./tools/lightwalletd-by-hand.js";
import { realGate } from "./tools/real-gate.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const { pin, installed, realTest } = realGate("lightwalletd");

describe(`real lightwalletd ${pin.version} started by hand, first run`, () => {
  let net: FixtureNetwork;
  let dir: TempDir;
  let lwd: ChildProcess | undefined;
  let run: FirstRun;

  beforeAll(async () => {
    if (!installed) return;
    net = await startFixtureNetwork({ profiles: ["reference"] });
    dir = tempDir("zconform-field-");
    const password = readFileSync(net.cookie, "utf8").trim().split(":")[1]!;
    const started = await lightwalletdByHand(pin, dir, { url: net.jsonrpc, user: "__cookie__", password }, Number(net.anchors.tip));
    lwd = started.child;
    run = await firstRun(dir, net, ["  - name: my-lwd", "    implementation: lightwalletd", `    grpc: { url: ${started.grpcUrl} }`]);
  }, 600_000);

  afterAll(async () => {
    lwd?.kill("SIGKILL");
    await net?.close();
    dir?.remove();
  });

  realTest("the first run exits 0: every divergence is in the ledger, nothing is stale", () => {
    expectClean(run);
  });

  realTest("the build's version is what the server reports, and its node what it names", () => {
    expect(run.report.builds[0]).toMatchObject({ name: "my-lwd", version: pin.version, versionSource: "server", node: { implementation: "zebrad" } });
  });

  realTest("its cold mempool shows as the known quirk it is, on this first run", () => {
    // The first GetMempoolStream after start ends at once with nothing, whichever case sends it:
    // a case expecting transactions gets none; the deadline case ends OK before its deadline.
    const coldQuirks = ["lwd-mempool-cold-after-start", "lwd-mempool-stream-cold-ends-ok"];
    const stream = run.report.divergences.filter((d) => d.caseId.startsWith("GetMempoolStream/"));
    expect({ stream, cold: stream.some((d) => coldQuirks.includes(d.quirk ?? "")) }).toMatchObject({ cold: true });
  });
});
