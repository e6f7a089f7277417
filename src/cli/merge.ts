// `zconform merge A.json B.json … [--json OUT]`: joins the JSON reports of a sharded run
// (src/modes/shard/merge.ts) and shows the result as a run would: the terminal report, and any
// file format asked for, fed the merged cases as one event stream. Exit code: the merged
// run's (0 all known, 1 new, stale or expired), 2 when the reports cannot be merged.

import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadLedger } from "../core/ledger/quirk.js";
import { reportContext } from "../core/report/context.js";
import { HASH_FIELDS } from "../zcash/lightwallet-rpcs.js";
import type { JsonReport } from "../core/report/json.js";
import { expandReport, readJsonReportFile, writeJsonReport, type JsonReportFile } from "../core/report/json-file.js";
import { InputTooLargeError } from "../core/io/input-limits.js";
import type { RunEvent } from "../core/results/events.js";
import { checkRunReport, mergeReports, MergeError, type ShardReport } from "../modes/shard/merge.js";
import { guarded, InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { commandReports } from "./reporters.js";
import { writeErrorText } from "../core/io/atomic-write.js";
import { EXIT } from "../core/run/session.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface MergeCommandOptions {
  json?: string;
  junit?: string;
  html?: string;
  quiet?: boolean;
  allowStale?: boolean;
  ledger?: string;
  cases?: string;
}

/** A report file with every answer in full (files write repeated answers as `sameAs`). */
function readReport(file: string): ShardReport {
  let doc: JsonReportFile & { kind?: unknown };
  try {
    doc = readJsonReportFile(file);
  } catch (e) {
    if (e instanceof InputTooLargeError) throw new InputError(e.message);
    throw new InputError(`${file}: not a readable JSON report: ${(e as Error).message}`);
  }
  try {
    checkRunReport(file, doc);
  } catch (e) {
    throw new InputError(`cannot merge: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc.cases)) throw new InputError(`${file}: not a corpus run report (no cases)`);
  try {
    return { file, report: expandReport(doc, file) };
  } catch (e) {
    throw new InputError(`${file}: ${(e as Error).message}`);
  }
}

/** The merged report as the event stream a run would have emitted. */
export function eventsOf(r: JsonReport): RunEvent[] {
  return [
    {
      type: "run-start",
      schemaVersion: r.schemaVersion,
      tool: r.tool,
      startedAt: r.startedAt,
      chain: r.chain,
      builds: r.builds,
      ...(r.oracle ? { oracle: r.oracle } : {}),
      conditions: r.conditions,
      cases: r.cases.length,
    },
    ...r.cases.map((result, i): RunEvent => ({ type: "case-result", result, done: i + 1, total: r.cases.length, index: i })),
    ...(r.summary
      ? [
          {
            type: "run-end" as const,
            summary: r.summary,
            partial: r.partial,
            finishedAt: r.finishedAt ?? r.startedAt,
            exitCode: r.exitCode ?? 1,
            ...(r.interrupted ? { interrupted: r.interrupted } : {}),
          },
        ]
      : []),
  ];
}

export async function mergeCommand(files: readonly string[], o: MergeCommandOptions, out: Output): Promise<number> {
  const merged = await guarded(out, () => {
    const ledgerPath = o.ledger ?? join(o.cases ?? SHIPPED_CASES, "quirks.yaml");
    if (o.ledger && !existsSync(o.ledger)) throw new InputError(`ledger file not found: ${o.ledger}`);
    const ledger = existsSync(ledgerPath) ? loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) : undefined;
    try {
      return { report: mergeReports(files.map(readReport), { ...(ledger ? { ledger } : {}), allowStale: o.allowStale }), ledger };
    } catch (e) {
      if (e instanceof MergeError) throw new InputError(`cannot merge: ${e.message}`);
      throw e;
    }
  });
  if (typeof merged === "number") return merged;
  const { report, ledger } = merged;
  // The merged JSON is the report itself (shards and all), not one rebuilt from events.
  if (o.json) {
    try {
      writeJsonReport(o.json, report);
    } catch (e) {
      out.stderr(`could not write the JSON report ${o.json} (--json): ${writeErrorText(e)}`);
      return EXIT.usage;
    }
  }
  const { reporters, conclude } = commandReports({ ...o, json: undefined }, out, reportContext(ledger ?? [], undefined, HASH_FIELDS));
  for (const e of eventsOf(report)) for (const r of reporters) r.onEvent(e);
  let exitCode = report.exitCode ?? 1;
  try {
    for (const r of reporters) await r.finish();
  } catch (e) {
    out.stderr(`report not written: ${(e as Error).message}`);
    exitCode = EXIT.usage;
  }
  if (!o.quiet) out.stderr(`merged ${files.length} shard report(s): ${report.cases.length} cases${o.json ? `; JSON ${o.json}` : ""}`);
  conclude(exitCode);
  return exitCode;
}

/** Declares `zconform merge` on the program. */
export function registerMerge(program: Command, io: Output): void {
  program
    .command("merge")
    .description(
      "join the JSON reports of a sharded run (--shard k/n) into the report an unsharded run would have written: " +
        "cases in corpus order, summary and ledger findings recomputed over all shards",
    )
    .argument("<reports...>", "the shard reports, one per shard")
    .option("--json <file>", "write the merged JSON report to this file")
    .option("--junit <file>", "write a JUnit XML report of the merged run")
    .option("--html <file>", "write an HTML report of the merged run")
    .addOption(casesOption("corpus folder (for the default ledger <cases>/quirks.yaml)"))
    .option("--ledger <file>", "the ledger the shards ran with (needed to judge stale entries)")
    .option("--allow-stale", "stale ledger entries do not fail the merged run")
    .option("-q, --quiet", "no terminal report")
    .action(async (files: string[], opts) => {
      process.exitCode = await mergeCommand(files, opts, io);
    });
}
