#!/usr/bin/env node
// Runs the compiled CLI from dist/ when it is at least as new as every source file, so a
// start does not compile TypeScript; otherwise (no build, or sources edited since) tsx's
// loader runs the sources. An installed package has both with the same timestamps.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = `${root}dist/cli/main.js`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtIsCurrent() {
  try {
    return statSync(built).mtimeMs >= newestSource(`${root}src`);
  } catch {
    return false;
  }
}

if (builtIsCurrent()) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
