// The reporters a command asks for, from its options: always the terminal, plus any
// file formats named on the command line.

import { Chalk } from "chalk";
import type { Reporter } from "../core/results/events.js";
import type { ReportContext } from "../core/report/context.js";
import { htmlReporter } from "../core/report/html.js";
import { jsonReporter } from "../core/report/json.js";
import { junitReporter } from "../core/report/junit.js";
import { terminalReporter } from "../core/report/terminal.js";
import type { Output } from "./output.js";
import { removeStaleTemps } from "../core/io/atomic-write.js";

export interface ReportOptions {
  json?: string;
  junit?: string;
  html?: string;
  quiet?: boolean;
  allowStale?: boolean;
}

/** `context` (the run's ledger and auth kinds) lets file reports name quirks and credentials needed. */
export function reportersFor(o: ReportOptions, out: Output, context: ReportContext = {}): Reporter[] {
  // A run killed while writing these reports left its temporary files beside them.
  removeStaleTemps([o.json, o.junit, o.html].filter((p): p is string => p !== undefined));
  const tty = process.stderr.isTTY === true;
  const reporters: Reporter[] = [terminalReporter({
    write: o.quiet ? () => {} : out.stdout,
    ...(tty && !o.quiet ? { progress: (t: string) => process.stderr.write(`\r\x1b[K${t}`) } : {}),
    chalk: new Chalk(),
  })];
  if (o.json) reporters.push(jsonReporter(o.json));
  if (o.junit) reporters.push(junitReporter(o.junit, { context, allowStale: o.allowStale ?? false }));
  if (o.html) reporters.push(htmlReporter(o.html, context));
  return reporters;
}
