// Where a folder of goldens came from. RECORDED.json beside them (schemas/recorded.schema.json)
// lists the recordings that wrote them: when, by which zconform and command, on which
// chain, and the build as the run knew it (implementation, version, the pin of
// real-servers.yaml a real server was started from, that binary's path and SHA-256).
// A golden recorded again moves to the new recording, so each golden in the folder is
// claimed by exactly one, and a partial re-record keeps the provenance of the rest.
// What a recording cannot know (goldens committed before this file existed) says "unknown".

import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/io/atomic-write.js";
import { INPUT_LIMITS, readInputText } from "../../core/io/input-limits.js";
import type { BuildInfo } from "../../core/results/events.js";
import { binaryPath, describePin, loadPins, DEFAULT_PINS_FILE } from "../../zcash/real/pins.js";

export const PROVENANCE_FILE = "RECORDED.json";
export const PROVENANCE_SCHEMA_VERSION = 1;

type Unknown = "unknown";

export interface RecordedBuild {
  /** The side whose answers the folder holds: a build's name, or "oracle". */
  name: string;
  implementation: string | Unknown;
  version: string | Unknown;
  versionSource?: BuildInfo["versionSource"];
  emulated: boolean;
  profile?: string;
  /** The pin of real-servers.yaml zconform started the server from; null when it did not start one. */
  pin: string | null | Unknown;
  /** The pinned server's binary and its SHA-256 as the recording ended. */
  binary?: { path: string; sha256: string } | Unknown;
  node?: BuildInfo["node"];
  /** Where it was reached (no credentials): gRPC and JSON-RPC endpoints. */
  endpoints?: string[];
}

export interface Recording {
  /** When the run started (ISO 8601). */
  recordedAt: string | Unknown;
  tool: { name: string; version: string } | Unknown;
  /** The recording process's script and arguments. */
  command: string[] | Unknown;
  chain: string;
  build: RecordedBuild;
  /** The recording was interrupted: the cases it did not reach keep their older goldens, if any. */
  partial?: true;
  /** For goldens committed before their provenance was: the commit that last wrote them. */
  commit?: { hash: string; date: string; subject: string };
  /** What is known and how, where the fields above cannot say it. */
  note?: string;
  /** The cases whose goldens in this folder this recording wrote. */
  cases: string[];
}

export interface Provenance {
  kind: "golden-provenance";
  schemaVersion: number;
  recordings: Recording[];
}

export function readProvenance(dir: string): Provenance | undefined {
  const path = join(dir, PROVENANCE_FILE);
  if (!existsSync(path)) return undefined;
  const p = JSON.parse(readInputText(path, INPUT_LIMITS.provenanceBytes, "the golden provenance")) as Provenance;
  if (p.schemaVersion !== PROVENANCE_SCHEMA_VERSION)
    throw new Error(`${path}: schemaVersion ${p.schemaVersion}, this zconform writes ${PROVENANCE_SCHEMA_VERSION}`);
  return p;
}

/** The provenance after `r`: its cases leave the recordings that wrote them before, and recordings left with none go. */
export function withRecording(before: Provenance | undefined, r: Recording): Provenance {
  const now = new Set(r.cases);
  const kept = (before?.recordings ?? []).map((old) => ({ ...old, cases: old.cases.filter((c) => !now.has(c)) })).filter((old) => old.cases.length > 0);
  return { kind: "golden-provenance", schemaVersion: PROVENANCE_SCHEMA_VERSION, recordings: [...kept, { ...r, cases: [...r.cases].sort() }] };
}

export function writeProvenance(dir: string, p: Provenance): void {
  writeFileAtomic(join(dir, PROVENANCE_FILE), `${JSON.stringify(p, null, 2)}\n`);
}

/** Where pinned servers are described (real-servers.yaml) and installed (its cache, from the environment). */
export interface PinsPlace {
  file?: string;
  env?: NodeJS.ProcessEnv;
}

/** A build of the run as a recording names it. */
export async function recordedBuild(b: BuildInfo, pins: PinsPlace = {}): Promise<RecordedBuild> {
  const endpoints = [b.grpc, b.jsonrpc].filter((e): e is string => e !== undefined);
  const binary = b.pin === undefined ? undefined : await pinnedBinary(b.pin, pins);
  return {
    name: b.name,
    implementation: b.implementation,
    version: b.version ?? "unknown",
    ...(b.versionSource ? { versionSource: b.versionSource } : {}),
    emulated: b.emulated,
    ...(b.profile ? { profile: b.profile } : {}),
    pin: b.pin ?? null,
    ...(binary ? { binary } : {}),
    ...(b.node ? { node: b.node } : {}),
    ...(endpoints.length > 0 ? { endpoints } : {}),
  };
}

/** A side the run does not describe as a build, such as the oracle: at most its endpoint is known, not what serves it. */
export function unknownSide(name: string, endpoint?: string): RecordedBuild {
  return { name, implementation: "unknown", version: "unknown", emulated: false, pin: "unknown", ...(endpoint ? { endpoints: [endpoint] } : {}) };
}

/** The binary a pin ("zainod 0.10.1 (crates.io zainod), real-servers.yaml") installs, hashed now; unknown when the pin is not in the file. */
async function pinnedBinary(pin: string, { file = DEFAULT_PINS_FILE, env = process.env }: PinsPlace): Promise<RecordedBuild["binary"]> {
  const found = existsSync(file) ? loadPins(file).find((p) => pin.startsWith(describePin(p))) : undefined;
  if (!found) return "unknown";
  const path = binaryPath(found, env);
  return existsSync(path) ? { path, sha256: await sha256File(path) } : "unknown";
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}
