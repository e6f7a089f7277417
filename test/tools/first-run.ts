// The user's first run against a server started by hand: a config written as the README
// shows (the fixture's node as the oracle, the build with no version), `zconform run`
// once, and its JSON report read back; and what such a run must show to be clean.

import { expect } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FixtureNetwork } from "../../src/zcash/fixture/network.js";
import { runCli } from "./cli.js";
import type { TempDir } from "./temp-corpus.js";

export interface FirstRunReport {
  exitCode: number;
  builds: { name: string; version?: string; versionSource?: string; node?: { implementation: string; version?: string } }[];
  cases: { caseId: string; transport: string; answers: { side: string }[] }[];
  divergences: { caseId: string; quirk: string | null }[];
  summary: { stale: unknown[]; outcomes: Record<string, number> };
}

export interface FirstRun {
  first: { code: number | null; stdout: string; stderr: string };
  report: FirstRunReport;
}

/** `build`: the config's lines for the one build, under `builds:`. */
export async function firstRun(dir: TempDir, net: FixtureNetwork, build: string[]): Promise<FirstRun> {
  const config = dir.write(
    "zconform.config.yaml",
    ["chain: fixture", "oracle:", `  jsonrpc: { url: ${net.jsonrpc}, cookieFile: ${net.cookie} }`, "builds:", ...build, ""].join("\n"),
  );
  const json = join(dir.path, "report.json");
  const first = await runCli(["run", "-c", config, "--json", json], 300_000);
  return { first, report: JSON.parse(readFileSync(json, "utf8")) as FirstRunReport };
}

/** Exit 0: every divergence in the ledger, nothing stale, nothing that could not be checked. */
export function expectClean({ first, report }: FirstRun): void {
  // One comparison, so that a failure shows every reason at once (the output's tail only when it failed).
  expect({
    code: first.code,
    reportExitCode: report.exitCode,
    newDivergences: report.divergences.filter((d) => d.quirk === null),
    stale: report.summary.stale,
    unchecked: report.summary.outcomes.unchecked,
    tail: first.code === 0 ? "" : first.stdout.slice(-1500) + first.stderr.slice(-1500),
  }).toEqual({ code: 0, reportExitCode: 0, newDivergences: [], stale: [], unchecked: 0, tail: "" });
}
