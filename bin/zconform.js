#!/usr/bin/env node
// Runs the compiled CLI from dist/ when it is current (dist-current.js), so a start does
// not compile TypeScript; otherwise (no build, or sources edited since) tsx's loader runs
// the sources.
import { fileURLToPath, pathToFileURL } from "node:url";
import { distIsCurrent } from "./dist-current.js";

const root = fileURLToPath(new URL("..", import.meta.url));

if (distIsCurrent(root)) {
  await import(pathToFileURL(`${root}dist/cli/main.js`).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
