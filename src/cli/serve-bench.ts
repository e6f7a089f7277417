// `zconform serve-bench`: the serving side of the published comparison of lightwallet
// servers (src/modes/serve-bench) — GetBlockRange throughput over 1,000 blocks and over the
// whole wallet download, 1 to 128 concurrent clients on ranges and on single-block
// GetBlock, and small unary rpcs' latency, each repeated; with --real, also what starting
// each real server cost (first answer, index at the tip, CPU, index size). Builds come
// from a config file, or without one from the embedded fixture network run in a process of
// its own (its reference build unless --profile names others), plus with --real the
// installed real servers.
// Exit 0 when every call answered in full, 3 when a build was unreachable or a call
// failed, 2 for bad input, 130/143 when interrupted (the report is written, partial).

import { cpus, loadavg } from "node:os";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { buildInfo } from "../core/run/session.js";
import type { Build } from "../core/targets/config.js";
import { runBench, unreachable, type BenchBuild } from "../modes/serve-bench/runner.js";
import { serveBenchLines, serveBenchReport } from "../modes/serve-bench/report.js";
import { DEFAULT_CLIENTS, DEFAULT_LATENCY_RPCS, planScenarios, ScenarioError, type HeightRange } from "../modes/serve-bench/scenarios.js";
import { folderBytes, processCpuMs, startupFacts, type ServerProcessInfo } from "../modes/serve-bench/server-usage.js";
import { perSecond } from "../modes/serve-bench/stats.js";
import type { ProfileName } from "../zcash/fixture/network.js";
import type { Anchors } from "../core/corpus/anchors.js";
import { startFixtureProcess } from "./fixture-process.js";
import { guarded, InputError } from "./inputs.js";
import { onInterrupt } from "./interrupt.js";
import type { Output } from "./output.js";
import { probeInputs } from "./probe-inputs.js";

export interface ServeBenchOptions {
  config?: string;
  build?: string[];
  profiles?: ProfileName[];
  chainFile?: string;
  real?: boolean;
  cases?: string;
  runs?: string;
  clients?: string;
  range?: string;
  blockRequests?: string;
  calls?: string;
  rpc?: string[];
  json?: string;
  quiet?: boolean;
}

function count(name: string, text: string | undefined, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || v < min || v > max) throw new InputError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return v;
}

/** `--clients 1,8,128`: each a count of concurrent clients. */
export function parseClients(text: string | undefined): number[] {
  if (text === undefined) return [...DEFAULT_CLIENTS];
  const list = text.split(",").map((p) => count("--clients", p.trim(), 1, 1, 1024));
  return [...new Set(list)].sort((a, b) => a - b);
}

/** `--range 419200..3000000`: the full wallet download. */
export function parseRange(text: string | undefined): HeightRange | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError(`--range must be FROM..TO (block heights), got ${JSON.stringify(text)}`);
  const range = { from: Number(m[1]), to: Number(m[2]) };
  if (range.to < range.from) throw new InputError(`--range ${text}: TO is below FROM`);
  return range;
}

interface Inputs {
  builds: Build[];
  anchors: Anchors;
  chain: string;
  /** Servers zconform started, whose CPU time and data dir it can read. */
  servers: ServerProcessInfo[];
  /** Build name → the pid of the process serving it, where known. */
  pids: Map<string, number>;
  close(): Promise<void>;
}

async function inputsFor(o: ServeBenchOptions, out: Output): Promise<Inputs> {
  if (o.config) {
    if (o.real) throw new InputError("--real starts real servers against the fixture network: drop --config, or --real");
    const p = await probeInputs({ config: o.config, ...(o.build ? { build: o.build } : {}), ...(o.cases ? { cases: o.cases } : {}), ...(o.profiles ? { profiles: o.profiles } : {}), ...(o.chainFile ? { chainFile: o.chainFile } : {}) }, out);
    return { ...p, servers: [], pids: new Map() };
  }
  if (o.build) throw new InputError("--build selects builds of a config; against the fixture use --profile");
  out.stderr(`Starting the embedded fixture network in its own process${o.real ? ", and the real servers against its JSON-RPC" : ""} (emulated profiles are not the real servers)…`);
  const f = await startFixtureProcess({ profiles: o.profiles ?? ["reference"], ...(o.chainFile ? { chainFile: o.chainFile } : {}), real: o.real === true }, out);
  const pids = new Map(f.builds.map((b) => [b.name, f.pid]));
  for (const s of f.servers) if (s.pid !== undefined) pids.set(s.build, s.pid);
  return { builds: f.builds, anchors: f.anchors, chain: "fixture", servers: f.servers, pids, close: f.close };
}

export async function serveBenchCommand(o: ServeBenchOptions, out: Output): Promise<number> {
  const prepared = await guarded(out, () => ({
    runs: count("--runs", o.runs, 3, 1, 100), clients: parseClients(o.clients), download: parseRange(o.range),
    blockRequests: count("--block-requests", o.blockRequests, 20, 1, 100_000), calls: count("--calls", o.calls, 50, 1, 100_000),
  }));
  if (typeof prepared === "number") return prepared;
  const inputs = await guarded(out, () => inputsFor(o, out));
  if (typeof inputs === "number") return inputs;
  const interrupt = onInterrupt(out);
  try {
    let plan;
    try {
      plan = planScenarios({
        anchors: inputs.anchors, ...(prepared.download ? { download: prepared.download } : {}), clients: prepared.clients,
        blockRequests: prepared.blockRequests, latencyRpcs: o.rpc ?? DEFAULT_LATENCY_RPCS, latencyCalls: prepared.calls,
      });
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      out.stderr(e.message);
      return 2;
    }
    // Facts of the start are read before any call of the bench adds to them.
    const startup = inputs.servers.map(startupFacts);
    const grpcBuilds = inputs.builds.filter((b) => b.grpc);
    if (grpcBuilds.length === 0) {
      out.stderr("no build with a gRPC endpoint to benchmark");
      return 2;
    }
    const all: BenchBuild[] = grpcBuilds.map((b) => ({
      name: b.name, grpc: b.grpc!, deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, ...(inputs.pids.has(b.name) ? { pid: inputs.pids.get(b.name)! } : {}),
    }));
    const down: { build: string; reason: string }[] = [];
    for (const b of all) {
      const why = await unreachable(b);
      if (why) {
        down.push({ build: b.name, reason: why });
        // The table says it too; quiet, this line is all that explains the exit code.
        if (o.quiet) out.stderr(`not benchmarked: ${b.name}: ${why}`);
      }
    }
    const builds = all.filter((b) => !down.some((d) => d.build === b.name));
    const startedAt = new Date();
    const loadAtStart = loadavg()[0]!;
    const { results, partial } = await runBench({
      builds, scenarios: plan.scenarios, runs: prepared.runs, signal: interrupt.signal,
      onRun: (s, build, run, f) => {
        if (o.quiet) return;
        const rate = s.kind === "latency" ? `p50 ${f.latencyMs?.p50.toFixed(2)} ms` : `${Math.round(perSecond(f.blocks, f.wallMs)).toLocaleString("en-US")} blocks/s`;
        out.stderr(`  run ${run}/${prepared.runs} ${s.id} ${build}: ${rate}${f.failed > 0 ? `, ${f.failed} failed` : ""}`);
      },
    });
    const reason = interrupt.signal.reason as { exitCode?: number } | undefined;
    const report = serveBenchReport(results, {
      startedAt, chain: inputs.chain,
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? "unknown", node: process.version, loadAverage: { start: loadAtStart, end: loadavg()[0]! } }, builds: grpcBuilds.map((b) => buildInfo(b, b.protocolVersion)), runs: prepared.runs, clients: prepared.clients,
      range: plan.range, download: plan.download, scenarios: plan.scenarios, startup,
      serverTotals: inputs.servers.map((s) => ({ build: s.build, cpuMs: processCpuMs(s.pid), indexBytes: folderBytes(s.dataDir) })),
      unreachable: down, skipped: plan.skipped, partial,
      ...(partial && reason?.exitCode !== undefined ? { interruptedExitCode: reason.exitCode } : {}),
    });
    if (o.json) writeFileAtomic(o.json, `${JSON.stringify(report, null, 2)}\n`);
    if (!o.quiet) for (const line of serveBenchLines(report)) out.stdout(line);
    return report.exitCode;
  } finally {
    interrupt.dispose();
    await inputs.close();
  }
}
