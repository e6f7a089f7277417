// `npm run real:install`: installs every real server pinned in real-servers.yaml into the
// cache (~/.cache/zconform/<name>-<version>/bin, or $ZCONFORM_REAL_CACHE), skipping what
// is already there, and prints how long each took.
//
//   npm run real:install [-- --only lightwalletd] [--only zainod]
//
// Exit code 1 when any install failed (its command and last output lines are printed).

import { parseArgs } from "node:util";
import { installPin } from "../src/zcash/real/install.js";
import { cacheRoot, loadPins, SERVER_NAMES, type ServerName } from "../src/zcash/real/pins.js";

const { values } = parseArgs({ options: { only: { type: "string", multiple: true }, verbose: { type: "boolean" } } });
const only = values.only ?? [];
for (const name of only) {
  if (!(SERVER_NAMES as readonly string[]).includes(name)) {
    process.stderr.write(`--only ${name}: expected one of ${SERVER_NAMES.join(", ")}\n`);
    process.exit(2);
  }
}
const pins = loadPins().filter((p) => only.length === 0 || only.includes(p.name as ServerName));
process.stdout.write(`installing into ${cacheRoot()}\n`);
let failed = 0;
for (const pin of pins) {
  process.stdout.write(`${pin.name} ${pin.version}: `);
  const outcome = await installPin(pin, values.verbose ? (l) => process.stderr.write(`  ${l}\n`) : undefined);
  if (outcome.status === "present") process.stdout.write(`present, skipped (${outcome.binary})\n`);
  else if (outcome.status === "installed") process.stdout.write(`installed in ${outcome.seconds.toFixed(0)} s (${outcome.binary})\n`);
  else {
    failed++;
    process.stdout.write(`FAILED after ${outcome.seconds.toFixed(0)} s\n${outcome.error}\n`);
  }
}
process.exit(failed > 0 ? 1 : 0);
