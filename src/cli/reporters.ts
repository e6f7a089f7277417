// The reporters a command asks for, from its options: always the terminal, plus any
// file formats named on the command line, written one after another once the run ends.
// A report that cannot be written is named with its flag and path; the others are still
// written, and every report on disk records the exit code the process ends with.

import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { Chalk } from "chalk";
import type { Reporter, RunEvent } from "../core/results/events.js";
import type { ReportContext } from "../core/report/context.js";
import { htmlReporter } from "../core/report/html.js";
import { inert } from "../core/report/inert.js";
import { jsonReporter } from "../core/report/json.js";
import { junitReporter } from "../core/report/junit.js";
import { terminalReporter, type ReportsOutcome, type TerminalReporter } from "../core/report/terminal.js";
import { EXIT } from "../core/run/session.js";
import type { Output } from "./output.js";
import { removeStaleTemps, writeErrorText } from "../core/io/atomic-write.js";

export interface ReportOptions {
  json?: string;
  junit?: string;
  html?: string;
  quiet?: boolean;
  allowStale?: boolean;
}

interface FileReport {
  /** "JSON", "JUnit", "HTML". */
  label: string;
  flag: string;
  path: string;
  /** A fresh writer: fed the whole event stream, it writes the file when it finishes. */
  make: () => Reporter;
}

/** Replays the run's events into a fresh writer and lets it write its file. */
async function write(report: FileReport, events: readonly RunEvent[]): Promise<void> {
  const r = report.make();
  for (const e of events) r.onEvent(e);
  await r.finish();
}

const failure = (r: FileReport, e: unknown) => `could not write the ${r.label} report ${r.path} (${r.flag}): ${writeErrorText(e)}`;

/**
 * The file reports as one reporter. Each is written in turn, whatever happened to the
 * others; when one fails the process exits 2, so the ones already written are written
 * again recording 2 (and removed if even that fails), never the code the run computed.
 */
function fileReports(reports: readonly FileReport[]): Reporter & { outcome(): ReportsOutcome } {
  const events: RunEvent[] = [];
  const outcome: ReportsOutcome = { written: [], failed: [] };
  return {
    onEvent: (e) => {
      events.push(e);
    },
    finish: async () => {
      if (!events.some((e) => e.type === "run-start")) return;
      const failures: string[] = [];
      const written: FileReport[] = [];
      for (const r of reports) {
        try {
          await write(r, events);
          written.push(r);
        } catch (e) {
          failures.push(failure(r, e));
          outcome.failed.push({ label: r.label, path: r.path });
        }
      }
      if (failures.length > 0) {
        const recorded = events.map((e) => (e.type === "run-end" ? { ...e, exitCode: EXIT.usage } : e));
        for (const r of [...written]) {
          try {
            await write(r, recorded);
          } catch (e) {
            failures.push(`${failure(r, e)}; removed it rather than leave it recording another exit code`);
            outcome.failed.push({ label: r.label, path: r.path });
            written.splice(written.indexOf(r), 1);
            removeReport(r.path);
          }
        }
      }
      outcome.written = written.map((r) => ({ label: r.label, path: resolve(r.path) }));
      if (failures.length > 0) throw new Error(failures.join("\n"));
    },
    outcome: () => outcome,
  };
}

function removeReport(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Nothing more can be done about a report that can be neither written nor removed.
  }
}

export interface CommandReports {
  reporters: Reporter[];
  /**
   * After the run, with the exit code the command returns: where the reports went and
   * the verdict line, printed even with --quiet. `lead` says what the command did when
   * it exits 0 whatever the run found ("goldens recorded").
   */
  conclude(exitCode: number, lead?: string): void;
}

/** `context` (the run's ledger and auth kinds) lets file reports name quirks and credentials needed. */
export function commandReports(o: ReportOptions, out: Output, context: ReportContext = {}): CommandReports {
  // A run killed while writing these reports left its temporary files beside them.
  removeStaleTemps([o.json, o.junit, o.html].filter((p): p is string => p !== undefined));
  const tty = process.stderr.isTTY === true;
  const files = fileReports([
    ...(o.json ? [{ label: "JSON", flag: "--json", path: o.json, make: () => jsonReporter(o.json!) }] : []),
    ...(o.junit
      ? [{ label: "JUnit", flag: "--junit", path: o.junit, make: () => junitReporter(o.junit!, { context, allowStale: o.allowStale ?? false }) }]
      : []),
    ...(o.html ? [{ label: "HTML", flag: "--html", path: o.html, make: () => htmlReporter(o.html!, context) }] : []),
  ]);
  const terminal: TerminalReporter = terminalReporter({
    write: o.quiet ? () => {} : out.stdout,
    ...(tty && !o.quiet ? { progress: (t: string) => process.stderr.write(`\r\x1b[K${inert(t)}`) } : {}),
    chalk: new Chalk(),
  });
  return {
    reporters: [terminal, files],
    conclude: (exitCode, lead) => {
      for (const line of terminal.closingLines(exitCode, files.outcome(), lead)) out.stdout(line);
    },
  };
}
