// jest's global setup: the default synthetic chain is built once per jest run, by this
// checkout's code, into a temporary folder that ZCONFORM_SYNTHETIC_CACHE names to every
// worker and every command line they spawn (src/zcash/fixture/chain/synthetic-cache.ts).
// A run started with the variable already set keeps it; synthetic-cache-teardown.js
// removes what this made.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup() {
  if (process.env.ZCONFORM_SYNTHETIC_CACHE) return;
  const dir = mkdtempSync(join(tmpdir(), "zconform-synthetic-"));
  const writer = join(dirname(fileURLToPath(import.meta.url)), "write-synthetic-cache.ts");
  execFileSync(process.execPath, ["--import", "tsx", writer, dir], { stdio: "inherit" });
  process.env.ZCONFORM_SYNTHETIC_CACHE = dir;
  process.env.ZCONFORM_SYNTHETIC_CACHE_MADE = dir;
}
