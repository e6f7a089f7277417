// A real server as a child process: started with its own working folder and log file,
// watched for an early exit, and stopped by its process id (SIGTERM, then SIGKILL after a
// grace period). Errors about it quote the last lines of its log.

import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export interface ServerProcess {
  readonly pid: number | undefined;
  readonly logFile: string;
  /** Set once the process has exited: its exit code or signal. */
  exited(): string | undefined;
  /** The last `n` lines of its log (and of what it printed on stdout/stderr). */
  lastLines(n?: number): string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  binary: string;
  args: string[];
  cwd: string;
  /** Where the server writes its log; its stdout and stderr go to `<logFile>.out`. */
  logFile: string;
  /** The server logs to stdout and stderr only: they go to `logFile` itself. */
  logsToStdout?: boolean;
  env?: NodeJS.ProcessEnv;
}

const STOP_GRACE_MS = 5_000;

function tailOf(file: string, n: number): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(-n);
}

export function spawnServer(o: SpawnOptions): ServerProcess {
  const outFile = o.logsToStdout ? o.logFile : `${o.logFile}.out`;
  const out = openSync(outFile, "a");
  let child: ChildProcess;
  try {
    child = spawn(o.binary, o.args, { cwd: o.cwd, env: o.env ?? process.env, stdio: ["ignore", out, out] });
  } finally {
    closeSync(out);
  }
  let exit: string | undefined;
  const done = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exit = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
    child.on("error", (e) => {
      exit = `could not start: ${e.message}`;
      resolve();
    });
  });
  return {
    pid: child.pid,
    logFile: o.logFile,
    exited: () => exit,
    lastLines: (n = 12) => (o.logsToStdout ? tailOf(outFile, n) : [...tailOf(o.logFile, n), ...tailOf(outFile, 4)]).join("\n"),
    async stop() {
      if (exit !== undefined || child.pid === undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await done;
      clearTimeout(timer);
    },
  };
}

/** A port free on 127.0.0.1 right now (the server binds it moments later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export class RealServerError extends Error {}

/**
 * Polls `ready` until it holds; fails when the process exits, when `stuck` names why it
 * will never be ready, or when the time is up, quoting its log.
 */
export async function waitUntil(
  what: string,
  proc: ServerProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
  stuck?: () => string | undefined,
): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const exit = proc.exited();
    if (exit !== undefined)
      throw new RealServerError(`${what}: the server stopped (${exit}) before it was ready. Last lines of ${proc.logFile}:\n${proc.lastLines()}`);
    const why = stuck?.();
    if (why !== undefined) throw new RealServerError(`${what}: ${why}. Last lines of ${proc.logFile}:\n${proc.lastLines()}`);
    if (await ready().catch(() => false)) return performance.now() - t0;
    if (performance.now() - t0 > timeoutMs) {
      throw new RealServerError(`${what}: not ready after ${Math.round(timeoutMs / 1000)} s. Last lines of ${proc.logFile}:\n${proc.lastLines()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
