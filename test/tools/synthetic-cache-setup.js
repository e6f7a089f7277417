// jest's global setup: an empty folder for the run's synthetic chain, named by
// ZCONFORM_SYNTHETIC_CACHE to every worker and every command line they spawn; the first
// process that needs the chain builds it there (src/zcash/fixture/chain/synthetic-cache.ts).
// A run started with the variable already set keeps it; synthetic-cache-teardown.js
// removes what this made.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup() {
  if (process.env.ZCONFORM_SYNTHETIC_CACHE) return;
  const dir = mkdtempSync(join(tmpdir(), "zconform-synthetic-"));
  process.env.ZCONFORM_SYNTHETIC_CACHE = dir;
  process.env.ZCONFORM_SYNTHETIC_CACHE_MADE = dir;
}
