// Whether a suite about a real server runs: the pinned binary is installed, or the suite is
// skipped saying so. lightwalletd builds in minutes and CI installs it, so under CI=true its
// absence fails loudly; zainod and zebrad take tens of minutes of cargo build, longer than
// CI waits, so CI skips them and says why.

import { existsSync } from "node:fs";
import { CHAIN_DATA, haveChainData } from "../chain-data.js";
import { binaryPath, isInstalled, loadPins, pinsOf, type Pin } from "../../src/zcash/real/pins.js";
import { type DeclareTest, testIf } from "./skips.js";

export interface RealGate {
  pin: Pin;
  installed: boolean;
  /** `test`, or a recorded skip when the server is not installed. */
  realTest: DeclareTest;
}

export function realGate(name: "lightwalletd" | "zainod" | "zebrad"): RealGate {
  const pin = pinsOf(loadPins(), name)[0]!;
  const installed = isInstalled(pin);
  const install = `npm run real:install -- --only ${name}`;
  if (!installed && name === "lightwalletd" && process.env.CI === "true") {
    throw new Error(`real lightwalletd ${pin.version} is not installed at ${binaryPath(pin)}: CI installs it with ${install}`);
  }
  // zainod and zebrad take over an hour of cargo build, longer than CI waits: CI skips them.
  return { pin, installed, realTest: testIf(installed, `need real ${name} ${pin.version} (${install})`) };
}

/**
 * For the suites that run lightwalletd in darkside mode over the real chain data: `test`
 * when both are here, a skip naming the missing one otherwise. Under CI, where .ci/run
 * installs lightwalletd, a missing binary fails loudly.
 */
export function darksideGate(binary: string): DeclareTest {
  const haveBinary = existsSync(binary);
  const install = "npm run real:install -- --only lightwalletd, or set ZCONFORM_LIGHTWALLETD";
  if (!haveBinary && process.env.CI === "true") throw new Error(`lightwalletd not found at ${binary}: the darkside suites cannot run (${install})`);
  return testIf(haveBinary && haveChainData, haveBinary ? `need the chain data at ${CHAIN_DATA}` : `need lightwalletd at ${binary} (${install})`);
}
