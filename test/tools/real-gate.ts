// Whether a suite about a real server runs: the pinned binary is installed, or the suite is
// skipped saying so. lightwalletd builds in minutes and CI installs it, so under CI=true its
// absence fails loudly; zainod and zebrad take tens of minutes of cargo build, longer than
// CI waits, so CI skips them and says why.

import { test } from "@jest/globals";
import { binaryPath, isInstalled, loadPins, pinsOf, type Pin } from "../../src/zcash/real/pins.js";

export interface RealGate {
  pin: Pin;
  installed: boolean;
  /** `test`, or `test.skip` when the server is not installed. */
  realTest: typeof test | typeof test.skip;
}

export function realGate(name: "lightwalletd" | "zainod" | "zebrad"): RealGate {
  const pin = pinsOf(loadPins(), name)[0]!;
  const installed = isInstalled(pin);
  const install = `npm run real:install -- --only ${name}`;
  if (!installed && name === "lightwalletd" && process.env.CI === "true") {
    throw new Error(`real lightwalletd ${pin.version} is not installed at ${binaryPath(pin)}: CI installs it with ${install}`);
  }
  if (!installed) {
    const slow = name === "lightwalletd" ? "" : "; its cargo build takes over an hour, longer than CI waits, so CI skips this suite too";
    console.warn(`skipped: real ${name} ${pin.version} is not installed at ${binaryPath(pin)} (${install}${slow})`);
  }
  return { pin, installed, realTest: installed ? test : test.skip };
}
