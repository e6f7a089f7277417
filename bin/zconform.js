#!/usr/bin/env node
// Runs the compiled CLI from dist/ when it is current (dist-current.js): one bundled file
// (scripts/build-cli.ts), so a start neither compiles TypeScript nor loads hundreds of
// modules; otherwise (no build, or sources edited since) tsx's loader runs the sources.
import { fileURLToPath, pathToFileURL } from "node:url";
import { distIsCurrent } from "./dist-current.js";

const root = fileURLToPath(new URL("..", import.meta.url));

if (distIsCurrent(root)) {
  await import(pathToFileURL(`${root}dist/bundle/zconform.mjs`).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
