// Starting and stopping bench/fixture-server.ts from a benchmark.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface FixtureChild {
  urls: Record<string, string>;
  hashMs: number;
  pid: number;
  stop(): Promise<void>;
}

export async function startFixtureChild(tip: number, profiles: readonly string[]): Promise<FixtureChild> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/fixture-server.ts", String(tip), ...profiles], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, "line")) as [string];
  const ready = JSON.parse(line) as { urls: Record<string, string>; hashMs: number };
  return {
    ...ready,
    pid: child.pid!,
    stop: async () => {
      child.stdin!.end();
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}
