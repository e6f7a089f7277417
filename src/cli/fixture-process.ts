// The fixture network in a process of its own (`zconform fixture`, read from the one JSON
// line it prints when ready), for commands that measure: the process that benchmarks then
// does only the client's work, so its CPU time says whether the client was the limit, and
// the fixture's own CPU time can be read from outside like any server's. With --real it
// also starts the installed real servers, which report their pid and data dir.

import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Anchors } from "../core/corpus/anchors.js";
import type { Build } from "../core/targets/config.js";
import { fixtureBuild } from "../modes/sweep/sweep-fixture.js";
import type { ServerProcessInfo } from "../modes/serve-bench/server-usage.js";
import type { ProfileName } from "../zcash/fixture/network.js";
import { InputError } from "./inputs.js";
import type { Output } from "./output.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "zconform.js");
/** zainod may take minutes to ingest; the fixture command gives up on each server itself. */
const READY_TIMEOUT_MS = 10 * 60_000;
const STOP_GRACE_MS = 20_000;

export interface FixtureProcess {
  pid: number;
  builds: Build[];
  anchors: Anchors;
  /** The real servers it started, as serve-bench reads them. */
  servers: ServerProcessInfo[];
  close(): Promise<void>;
}

interface RealEntry {
  pid: number;
  dataDir: string;
  firstAnswerMs: number;
  ingestMs: number;
  build: Build;
}

interface ReadyLine {
  pid: number;
  grpc: Record<string, string>;
  anchors: Anchors;
  real?: Record<string, RealEntry>;
}

export async function startFixtureProcess(o: { profiles: readonly ProfileName[]; chainFile?: string; real?: boolean }, out: Output): Promise<FixtureProcess> {
  const args = [BIN, "fixture", ...o.profiles.flatMap((p) => ["--profile", p]), ...(o.chainFile ? ["--chain", o.chainFile] : []), ...(o.real ? ["--real"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)));
  const said: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => {
    said.push(line);
    out.stderr(`  fixture: ${line}`);
  });
  const lines = createInterface({ input: child.stdout! });
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await Promise.race([
    new Promise<string>((resolve) => lines.once("line", resolve)),
    exited.then((how) => new Error(`the fixture process stopped (${how}) before it was ready:\n${said.slice(-8).join("\n")}`)),
    new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`the fixture process was not ready after ${READY_TIMEOUT_MS / 60_000} min`)), READY_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if (ready instanceof Error) {
    await close();
    throw new InputError(ready.message);
  }
  let line: ReadyLine;
  try {
    line = JSON.parse(ready) as ReadyLine;
  } catch {
    await close();
    throw new InputError(`the fixture process printed something other than its endpoints: ${ready.slice(0, 200)}`);
  }
  const real = Object.entries(line.real ?? {});
  return {
    pid: line.pid,
    builds: [...Object.entries(line.grpc).map(([name, url]) => fixtureBuild(name as ProfileName, url)), ...real.map(([, r]) => r.build)],
    anchors: line.anchors,
    servers: real.map(([name, r]) => ({ build: name, pid: r.pid, dataDir: r.dataDir, firstAnswerMs: r.firstAnswerMs, tipMs: r.ingestMs })),
    close,
  };
}
