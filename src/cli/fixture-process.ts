// The fixture network in a process of its own (`zconform fixture`, read from the one JSON
// line it prints when ready), for commands that measure: the process that benchmarks then
// does only the client's work, so its CPU time says whether the client was the limit, and
// the fixture's own CPU time can be read from outside like any server's. With --real it
// also starts the installed real servers, which report their pid and data dir; with
// `moving`, its node's chain moves through its JSON-RPC (generate, invalidateblock).

import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Anchors } from "../core/corpus/anchors.js";
import type { Build } from "../core/targets/config.js";
import { fixtureBuild } from "../modes/sweep/sweep-fixture.js";
import type { ServerProcessInfo } from "../modes/serve-bench/server-usage.js";
import type { ProfileName } from "../zcash/fixture/network.js";
import type { JsonRpcEndpoint } from "../core/targets/endpoint.js";
import type { NetworkName } from "../zcash/codec/network.js";
import { InputError } from "./input-error.js";
import type { Output } from "./output.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "zconform.js");
/** zainod may take minutes to ingest; the fixture command gives up on each server itself. */
const READY_TIMEOUT_MS = 10 * 60_000;
const STOP_GRACE_MS = 20_000;

export interface FixtureProcess {
  pid: number;
  /** Every profile (with its JSON-RPC endpoint where it has one), then the real servers. */
  builds: Build[];
  anchors: Anchors;
  /** The fixture's Zebra-style JSON-RPC, the oracle of a run over it. */
  oracle: JsonRpcEndpoint;
  /** What `describeChain` says of the chain it serves (network, baseHeight, tipHeight, …). */
  chain: { network: NetworkName; baseHeight: number; tipHeight: number };
  /** The real servers it started, as serve-bench reads them. */
  servers: ServerProcessInfo[];
  /** Set when its node's chain moves: the timing scale its profiles follow with. */
  moving?: { timingScale: number };
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
  jsonrpc: string;
  cookie: string;
  jsonrpcProfiles: Record<string, { url: string; cookie: string }>;
  chain: FixtureProcess["chain"];
  anchors: Anchors;
  moving?: { timingScale: number };
  real?: Record<string, RealEntry>;
}

export interface FixtureProcessOptions {
  profiles: readonly ProfileName[];
  chainFile?: string;
  network?: NetworkName;
  acceptTransactions?: boolean;
  real?: boolean;
  /** Its node's chain moves, the profiles following with their timings × timingScale (synthetic chain only). */
  moving?: { timingScale: number };
}

export async function startFixtureProcess(o: FixtureProcessOptions, out: Output): Promise<FixtureProcess> {
  const args = [
    BIN,
    "fixture",
    ...o.profiles.flatMap((p) => ["--profile", p]),
    ...(o.chainFile ? ["--chain", o.chainFile] : []),
    ...(o.network ? ["--network", o.network] : []),
    ...(o.acceptTransactions ? ["--accept-transactions"] : []),
    ...(o.real ? ["--real"] : []),
    ...(o.moving ? ["--moving", "--timing-scale", String(o.moving.timingScale)] : []),
  ];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`)));
  // What it says before it is ready is held: a process that refuses its input (exit 2)
  // has said why in its own words, which become the one error; once it is up, its lines
  // (and those held) are shown as its own. Real servers take minutes to start: their
  // progress is shown as it comes.
  const said: string[] = [];
  let up = o.real === true;
  createInterface({ input: child.stderr! }).on("line", (line) => {
    said.push(line);
    if (up) out.stderr(`  fixture: ${line}`);
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
    exited.then(
      (how) =>
        new Error(
          how === "exit code 2" && said.length > 0
            ? said.join("\n")
            : `the fixture process stopped (${how}) before it was ready:\n${said.slice(-8).join("\n")}`,
        ),
    ),
    new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new Error(`the fixture process was not ready after ${READY_TIMEOUT_MS / 60_000} min`)), READY_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if (ready instanceof Error) {
    await close();
    throw new InputError(ready.message);
  }
  if (!up) for (const line of said) out.stderr(`  fixture: ${line}`);
  up = true;
  let line: ReadyLine;
  try {
    line = JSON.parse(ready) as ReadyLine;
  } catch {
    await close();
    throw new InputError(`the fixture process printed something other than its endpoints: ${ready.slice(0, 200)}`);
  }
  const real = Object.entries(line.real ?? {});
  const cookie = (url: string, cookieFile: string): JsonRpcEndpoint => ({ url, auth: { kind: "cookie", cookieFile } });
  const profileBuild = (name: string, url: string): Build => {
    const rpc = line.jsonrpcProfiles[name];
    return { ...fixtureBuild(name as ProfileName, url), ...(rpc ? { jsonrpc: cookie(rpc.url, rpc.cookie) } : {}) };
  };
  return {
    pid: line.pid,
    builds: [...Object.entries(line.grpc).map(([name, url]) => profileBuild(name, url)), ...real.map(([, r]) => r.build)],
    anchors: line.anchors,
    oracle: cookie(line.jsonrpc, line.cookie),
    chain: line.chain,
    servers: real.map(([name, r]) => ({ build: name, pid: r.pid, dataDir: r.dataDir, firstAnswerMs: r.firstAnswerMs, tipMs: r.ingestMs })),
    ...(line.moving ? { moving: line.moving } : {}),
    close,
  };
}
