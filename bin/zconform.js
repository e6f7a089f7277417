#!/usr/bin/env node
// The package ships TypeScript sources; tsx's loader runs them without a build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
