// The project's proof that its reference server equals the oracle: the whole corpus
// against the fixture's reference profile alone, anchored to the fixture's Zebra-style
// JSON-RPC, with no ledger — every case must pass with zero divergences.

import { afterAll, beforeAll } from "@jest/globals";
import { conformanceSuite } from "../src/jest/index.js";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import { DEFAULT_LIMITS, type RunConfig } from "../src/core/targets/config.js";

let net: FixtureNetwork | undefined;
beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
});
afterAll(async () => {
  await net?.close();
});

conformanceSuite({
  name: "reference vs oracle",
  ledger: false,
  builds: [{ name: "reference", implementation: "other" }],
  chain: "fixture",
  config: (): RunConfig => {
    if (!net) throw new Error("the fixture network did not start");
    return {
      file: "(test: fixture reference)",
      chain: "fixture",
      oracle: { jsonrpc: { url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } }, source: { file: "(test)", line: 0 } },
      defaults: DEFAULT_LIMITS,
      builds: net.builds({ deadlineMs: 15_000 }),
    };
  },
});
