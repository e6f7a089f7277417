// The command line as a user runs it: `node bin/zconform.js …` in a child process, with
// its stdout, stderr, exit code and signal collected.

import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
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

export interface SpawnOptions {
  env?: Record<string, string>;
  /**
   * Write stdout and stderr to these files instead of pipes: a process whose output goes
   * to files has no pipe handle keeping its event loop alive, as under `> log 2>&1`.
   */
  files?: { stdout: string; stderr: string };
}

export function spawnCli(args: readonly string[], o: SpawnOptions = {}): CliRun {
  const fds = o.files ? [openSync(o.files.stdout, "w"), openSync(o.files.stderr, "w")] : undefined;
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: REPO,
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...o.env },
    stdio: ["ignore", fds?.[0] ?? "pipe", fds?.[1] ?? "pipe"],
  });
  if (fds) for (const fd of fds) closeSync(fd);
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr?.setEncoding("utf8").on("data", (s: string) => (err += s));
  // The files may be gone when a test's folder was removed before its child closed.
  const read = (which: "stdout" | "stderr") =>
    o.files ? (existsSync(o.files[which]) ? readFileSync(o.files[which], "utf8") : "") : which === "stdout" ? out : err;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolveExit) => {
    child.on("close", (code, signal) => resolveExit({ code, signal, stdout: read("stdout"), stderr: read("stderr") }));
  });
  return { child, stdout: () => read("stdout"), stderr: () => read("stderr"), exited };
}

/** Runs to the end; kills the process if it outlives `timeoutMs`. */
export async function runCli(args: readonly string[], timeoutMs = 60_000, o: SpawnOptions = {}) {
  const run = spawnCli(args, o);
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
