// The envelope every mode's JSON document shares (sweep, latency, wirecost): what it is
// ("kind", with a schema file schemas/<kind>.schema.json), which version of that schema,
// which zconform wrote it, when, against which chain and builds, and the exit code the
// command returned. The corpus run's report (schemas/report.schema.json, kind "run")
// carries the same fields, with finishedAt and exitCode null while it is partial.

import { VERSION } from "../../version.js";
import type { BuildInfo } from "./events.js";

export interface Envelope<K extends string> {
  kind: K;
  schemaVersion: number;
  tool: { name: "zconform"; version: string };
  startedAt: string;
  finishedAt: string;
  exitCode: number;
  chain: string;
  builds: BuildInfo[];
}

export interface EnvelopeContext {
  startedAt: Date;
  chain: string;
  builds: BuildInfo[];
}

/** The envelope of a document finished now. */
export function envelope<K extends string>(kind: K, schemaVersion: number, c: EnvelopeContext, exitCode: number): Envelope<K> {
  return {
    kind,
    schemaVersion,
    tool: { name: "zconform", version: VERSION },
    startedAt: c.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    exitCode,
    chain: c.chain,
    builds: c.builds,
  };
}
