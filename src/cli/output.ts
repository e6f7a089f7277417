// Where a command writes: injected, so tests capture it and the CLI maps it to stdio.

import { inertLines } from "../core/report/inert.js";

export interface Output {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/**
 * The process's stdout and stderr behind the terminal's last guard: whatever a command
 * prints, no control character reaches the terminal but line feeds and, on stdout where
 * the terminal report colours its lines, SGR colours (core/report/inert.ts).
 */
export function processOutput(): Output {
  return {
    stdout: (line) => process.stdout.write(`${inertLines(line, { colours: true })}\n`),
    stderr: (line) => process.stderr.write(`${inertLines(line, { colours: false })}\n`),
  };
}
