// The pinned versions of the real servers (real-servers.yaml at the repository root) and
// where each one is installed: <cache>/<name>-<version>/bin/<binary>, the cache being
// $ZCONFORM_REAL_CACHE or ~/.cache/zconform. Problems in the file name its line and field.

import { Ajv } from "ajv";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { INPUT_LIMITS, readInput } from "../../core/io/input-limits.js";
import { parseLocated, ProblemsError } from "../../core/io/located-yaml.js";
import { schemaProblems, validatorOnFirstUse } from "../../core/io/schema-problems.js";

export const SERVER_NAMES = ["lightwalletd", "zainod", "zebrad"] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface Pin {
  name: ServerName;
  version: string;
  registry: "go" | "crates.io";
  /** Go module path (registry go). */
  module?: string;
  /** Crate name (registry crates.io). */
  crate?: string;
  cargoFlags?: string[];
  /**
   * Go: the package variable that holds the version a release build reports (set with
   * -ldflags -X as the project's own release builds do); without it the server reports
   * its development default.
   */
  versionVariable?: string;
  build?: string;
}

const schema = {
  type: "object",
  required: ["servers"],
  additionalProperties: false,
  properties: {
    servers: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "version", "registry"],
        additionalProperties: false,
        properties: {
          name: { enum: SERVER_NAMES },
          version: { type: "string", pattern: "^v?[0-9]+\\.[0-9]+\\.[0-9]+$" },
          registry: { enum: ["go", "crates.io"] },
          module: { type: "string" },
          crate: { type: "string" },
          cargoFlags: { type: "array", items: { type: "string" } },
          versionVariable: { type: "string", pattern: "^[A-Za-z0-9_./-]+\\.[A-Za-z_][A-Za-z0-9_]*$" },
          build: { type: "string" },
        },
      },
    },
  },
} as const;

const validate = validatorOnFirstUse(() => new Ajv({ allErrors: true, strict: false }).compile(schema));

/** real-servers.yaml of this checkout (two folders above src/zcash/real, or dist/zcash/real). */
export const DEFAULT_PINS_FILE = resolve(dirname(fileURLToPath(import.meta.url)), "../../../real-servers.yaml");

export function loadPins(file = DEFAULT_PINS_FILE): Pin[] {
  const located = parseLocated(readInput(file, file, INPUT_LIMITS.pinsBytes, "the pins file"), file);
  const problems = schemaProblems(validate(), located);
  const servers = (located.value as { servers?: Pin[] }).servers ?? [];
  servers.forEach((s, i) => {
    const need = s.registry === "go" ? "module" : "crate";
    if (problems.length === 0 && !s[need]) {
      problems.push({ file, line: located.lineOf(["servers", i]), field: `servers[${i}].${need}`, message: `is required for registry ${s.registry}` });
    }
  });
  if (problems.length > 0) throw new ProblemsError(problems);
  return servers;
}

/** The pins of one server, in file order (the first is the one runs use by default). */
export function pinsOf(pins: readonly Pin[], name: ServerName): Pin[] {
  return pins.filter((p) => p.name === name);
}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.ZCONFORM_REAL_CACHE || join(homedir(), ".cache", "zconform");
}

/** <cache>/<name>-<version>: the install root (cargo's --root; bin/ below it). */
export function installRoot(pin: Pin, env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), `${pin.name}-${pin.version}`);
}

export function binaryPath(pin: Pin, env: NodeJS.ProcessEnv = process.env): string {
  return join(installRoot(pin, env), "bin", pin.name);
}

export function isInstalled(pin: Pin, env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(binaryPath(pin, env));
}

/** How a pin reads in a report header: "lightwalletd v0.5.4 (go github.com/zcash/lightwalletd)". */
export function describePin(pin: Pin): string {
  return `${pin.name} ${pin.version} (${pin.registry === "go" ? `go ${pin.module}` : `crates.io ${pin.crate}`})`;
}
