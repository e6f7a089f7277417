// The command line as a user runs it: `node bin/zconform.js …` in a child process, with
// its stdout, stderr, exit code and signal collected.

import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = join(REPO, "bin", "zconform.js");

export interface CliRun {
  child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Settles when the process has exited and its pipes are closed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr!.setEncoding("utf8").on("data", (s: string) => (err += s));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolveExit) => {
    child.on("close", (code, signal) => resolveExit({ code, signal, stdout: out, stderr: err }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs to the end; kills the process if it outlives `timeoutMs`. */
export async function runCli(args: readonly string[], timeoutMs = 60_000, env: Record<string, string> = {}) {
  const run = spawnCli(args, env);
  const timer = setTimeout(() => run.child.kill("SIGKILL"), timeoutMs);
  try {
    return await run.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `test` holds, polling; rejects after `timeoutMs`. */
export async function waitFor(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
