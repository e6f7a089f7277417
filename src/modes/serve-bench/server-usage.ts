// What a server process costs, read from outside it: CPU time from /proc/<pid>/stat
// (user + system, in clock ticks) and the size on disk of the folder holding its index.
// Only for servers zconform started itself (it knows their pid and data dir); anything
// else is null, never guessed.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Linux reports /proc times in USER_HZ ticks, 100 per second on every architecture Node runs on. */
const USER_HZ = 100;
export const CPU_TICK_MS = 1000 / USER_HZ;

/** CPU milliseconds the process has used so far (10 ms resolution), or null when it cannot be read. */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / USER_HZ : null;
}

/** Bytes of every file under `dir` (apparent sizes), or null when it does not exist. */
export function folderBytes(dir: string | undefined): number | null {
  if (dir === undefined) return null;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  let total = 0;
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += folderBytes(path) ?? 0;
    else if (e.isFile()) total += statSync(path).size;
  }
  return total;
}

/** A server zconform started: what serve-bench can learn about it beyond its answers. */
export interface ServerProcessInfo {
  build: string;
  pid: number | undefined;
  dataDir: string;
  firstAnswerMs: number;
  tipMs: number;
}

export interface StartupFacts {
  build: string;
  /** From its start until its gRPC port first answered OK. */
  firstAnswerMs: number;
  /** From its start until it had indexed the chain to the tip. */
  tipMs: number;
  /** CPU it had used once at the tip: the cost of building its index. */
  cpuMsAtTip: number | null;
  /** Size of its data dir once at the tip. */
  indexBytes: number | null;
  dataDir: string;
}

export function startupFacts(s: ServerProcessInfo): StartupFacts {
  return {
    build: s.build,
    firstAnswerMs: s.firstAnswerMs,
    tipMs: s.tipMs,
    cpuMsAtTip: processCpuMs(s.pid),
    indexBytes: folderBytes(s.dataDir),
    dataDir: s.dataDir,
  };
}
