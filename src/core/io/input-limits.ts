// Limits on what the corpus and ledger loaders read (the config's are in targets/), so that a hostile or
// mistaken file ends in a file:line error and exit 2 instead of exhausting memory, the
// stack or the user's patience. The real corpus stays far below each: its largest file
// is a few tens of kilobytes.

import { readFileSync, statSync } from "node:fs";
import { ProblemsError } from "./located-yaml.js";

const MiB = 1024 * 1024;

export const INPUT_LIMITS = {
  /** One cases/<transport>/<method>.yaml file. */
  caseFileBytes: 4 * MiB,
  /** cases/quirks.yaml. */
  ledgerBytes: 4 * MiB,
  /** One cases/chains/<name>.yaml file. */
  chainProfileBytes: 1 * MiB,
  /** Cases in one file. */
  casesPerFile: 10_000,
} as const;

/**
 * The text of a user file, or a problem at its line 1 when it is larger than `maxBytes`:
 * the size is checked before a byte is read.
 */
export function readInput(path: string, displayName: string, maxBytes: number, what: string): string {
  const size = statSync(path).size;
  if (size > maxBytes) {
    throw new ProblemsError([{ file: displayName, line: 1, field: "", message: `${what} is ${size} bytes; the limit is ${maxBytes}` }]);
  }
  return readFileSync(path, "utf8");
}
