// Where tests find the real chain data. It lives beside the repository and is never
// copied in; without it the tests that need it are skipped locally and fail under CI.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { testIf } from "./tools/skips.js";

const here = dirname(fileURLToPath(import.meta.url));

export const CHAIN_DATA = resolve(process.env.ZCONFORM_CHAIN_DATA ?? join(here, "..", "..", "shared", "chain-data"));

export const haveChainData = existsSync(join(CHAIN_DATA, "README.md"));

if (!haveChainData && process.env.CI === "true") {
  throw new Error(`chain data not found at ${CHAIN_DATA}: tests that read real Zcash data cannot run (set ZCONFORM_CHAIN_DATA)`);
}

/** `test` when the chain data is present, a recorded skip otherwise (never under CI, see above). */
export const chainTest = testIf(haveChainData, `need the chain data at ${CHAIN_DATA}`);

export function chainPath(...parts: string[]): string {
  return join(CHAIN_DATA, ...parts);
}

export function readChainText(...parts: string[]): string {
  return readFileSync(chainPath(...parts), "utf8");
}

/** Every non-blank line of a file of hex blocks, trimmed. */
export function readHexLines(...parts: string[]): string[] {
  return readChainText(...parts)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}
