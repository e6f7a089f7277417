// jest's global teardown: removes the folder synthetic-cache-setup.js made for the run.
import { rmSync } from "node:fs";

export default function teardown() {
  const dir = process.env.ZCONFORM_SYNTHETIC_CACHE_MADE;
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
  delete process.env.ZCONFORM_SYNTHETIC_CACHE;
  delete process.env.ZCONFORM_SYNTHETIC_CACHE_MADE;
}
