// Servers that stop answering. `startSilentServer` accepts connections and never sends a
// byte. `startRelayProcess` runs, in a child process of its own, a TCP relay to real
// servers (the fixture's): the relay answers as they do until the test stops it with
// SIGSTOP, an OS-level freeze in which the kernel keeps its sockets open and nothing
// moves, as a stopped lightwalletd does. With `stopAfterChunks` it stops itself once it
// has passed that many chunks back, so a run sees it freeze mid-way at the same point
// every time; `close()` resumes and kills it.

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startTcpServer, type TcpServer } from "./tcp-server.js";

/** Accepts connections and never sends a byte. */
export function startSilentServer(): Promise<TcpServer> {
  return startTcpServer(() => undefined);
}

export interface RelayProcess {
  pid: number;
  /** The relay's URL for each upstream URL, in order. */
  urls: string[];
  /** Chunks passed back from upstream so far. */
  chunks(): number;
  /** Whether the relay process is stopped (state T). */
  frozen(): boolean;
  freeze(): void;
  close(): Promise<void>;
}

/** Starts the relay process in front of each upstream (`http://host:port`). */
export async function startRelayProcess(upstreams: readonly string[], o: { stopAfterChunks?: number } = {}): Promise<RelayProcess> {
  const args = [fileURLToPath(import.meta.url), String(o.stopAfterChunks ?? 0), ...upstreams];
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let chunks = 0;
  const lines = createInterface({ input: child.stdout! });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`relay exited with ${code} before it was ready`)));
    lines.once("line", (l) => resolve(JSON.parse(l) as number[]));
  });
  lines.on("line", () => chunks++);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    pid: child.pid!,
    urls: ports.map((p) => `http://127.0.0.1:${p}`),
    chunks: () => chunks,
    frozen: () => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${child.pid}/stat`, "utf8")),
    freeze: () => void child.kill("SIGSTOP"),
    close: async () => {
      kill(child, "SIGCONT");
      kill(child, "SIGKILL");
      await exited;
    },
  };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

/** The relay itself, when this file is the child process's main module. */
async function relay(stopAfterChunks: number, upstreams: readonly string[]): Promise<void> {
  let passed = 0;
  const ports: number[] = [];
  for (const upstream of upstreams) {
    const to = new URL(upstream);
    const server = net.createServer((client) => {
      const up = net.connect(Number(to.port), to.hostname);
      client.on("error", () => up.destroy());
      up.on("error", () => client.destroy());
      client.pipe(up);
      up.on("data", () => {
        process.stdout.write("chunk\n");
        if (++passed === stopAfterChunks) process.kill(process.pid, "SIGSTOP");
      });
      up.pipe(client);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    ports.push((server.address() as AddressInfo).port);
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void relay(Number(process.argv[2]), process.argv.slice(3));
