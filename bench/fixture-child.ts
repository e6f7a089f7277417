// Starting and stopping a bench server script (bench/fixture-server.ts,
// bench/replay-server.ts) as a child process: it prints one JSON line when ready and
// runs until its stdin closes.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface BenchChild<T> {
  ready: T;
  pid: number;
  stop(): Promise<void>;
}

export async function startBenchChild<T>(script: string, args: readonly string[]): Promise<BenchChild<T>> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, "line")) as [string];
  return {
    ready: JSON.parse(line) as T,
    pid: child.pid!,
    stop: async () => {
      child.stdin!.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

export interface FixtureChild {
  urls: Record<string, string>;
  /** The Zebra-style JSON-RPC oracle, when asked for. */
  oracle?: { url: string; cookieFile: string };
  hashMs: number;
  pid: number;
  stop(): Promise<void>;
}

/** The fixture's gRPC servers of `profiles` (and "oracle": its JSON-RPC server) over the long chain. */
export async function startFixtureChild(tip: number, profiles: readonly string[]): Promise<FixtureChild> {
  const c = await startBenchChild<Omit<FixtureChild, "pid" | "stop">>("bench/fixture-server.ts", [String(tip), ...profiles]);
  return { ...c.ready, pid: c.pid, stop: c.stop };
}

export interface ReplayChild {
  urls: Record<string, string>;
  encodeMs: number;
  bytes: number;
  pid: number;
  stop(): Promise<void>;
}

/** bench/replay-server.ts: one server per build; "name:diverging" serves altered blocks. */
export async function startReplayChild(tip: number, pools: readonly string[], builds: readonly string[]): Promise<ReplayChild> {
  const c = await startBenchChild<Omit<ReplayChild, "pid" | "stop">>("bench/replay-server.ts", [String(tip), pools.join(","), ...builds]);
  return { ...c.ready, pid: c.pid, stop: c.stop };
}
