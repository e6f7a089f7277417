// Whether dist/ holds a build of the sources as they are: its bundled CLI, the last file
// `npm run build` writes, is at least as new as every source file. An installed package
// has both with the same timestamps.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `root` is the package's folder; false when dist/ is missing or older than a source. */
export function distIsCurrent(root) {
  try {
    return statSync(join(root, "dist", "bundle", "zconform.mjs")).mtimeMs >= newestSource(join(root, "src"));
  } catch {
    return false;
  }
}
