// The options and help shared by the commands that run the corpus and report like a run:
// run, demo, record and regtest (reports, --force) and the two that start the fixture
// network for it, demo and record (--chain, --network, --profile, --real).

import type { Command } from "commander";
import { NETWORK_NAMES, oneOf, profileOption } from "./options.js";

/** The exit codes of a run, after its --help (the README's table says the same). */
export const RUN_EXIT_CODES = [
  "",
  "Exit codes:",
  "  0    every case that ran checked, every divergence explained by the ledger",
  "  1    a new divergence, a stale or expired ledger entry, or drift from a golden",
  "  2    bad config, corpus, ledger or command line; servers on another chain than the",
  "       config's chain profile (--force runs anyway); or a report could not be written",
  "  3    a build or the oracle could not be checked on some case (unreachable, timeout,",
  "       TLS, credentials, broken answers; one the preflight cannot reach is asked",
  "       nothing more); takes precedence over 1",
  "  130  interrupted by SIGINT, 143 by SIGTERM: reports written with what finished, marked partial",
].join("\n");

/** --force of the commands whose run the preflight guards. */
export function forceOption(cmd: Command): Command {
  return cmd.option("--force", "run even when the preflight finds the servers on another chain, and send every case to servers it could not reach");
}

/** The report files of a run, --allow-stale, --strict and --quiet. */
export function reportOptions(cmd: Command): Command {
  return cmd
    .option("--json <file>", "write the JSON report (versioned schema) to this file")
    .option("--junit <file>", "write a JUnit XML report to this file (one testcase per case and build)")
    .option("--html <file>", "write a self-contained HTML report to this file (matrix, drill-down, reproduce commands)")
    .option("--allow-stale", "stale ledger entries do not fail the run")
    .option("--strict", "also exit 1 on an unjudged answer (an oracle case with no oracle, an agree case with one build) or a run without an oracle")
    .option("-q, --quiet", "no terminal report");
}

/** What the fixture network serves when a run starts it. */
export function fixtureOptions(cmd: Command): Command {
  return cmd
    .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain")
    .option("--network <name>", "fixture --chain: the blocks' network when they do not start at genesis (mainnet, testnet, regtest)", oneOf(NETWORK_NAMES))
    .addOption(profileOption("fixture: serve only these profiles"))
    .option(
      "--real",
      'fixture: also start the installed real servers of real-servers.yaml (lightwalletd, zainod) against the fixture\'s JSON-RPC, as builds labelled "<name> <version> (real)"',
    );
}
