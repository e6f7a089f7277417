// `zconform serve-bench`: the serving side of the published comparison of lightwallet
// servers (src/modes/serve-bench) — GetBlockRange throughput over 1,000 blocks and over the
// whole wallet download, 1 to 128 concurrent clients on ranges and on single-block
// GetBlock, and small unary rpcs' latency, each repeated; with --real, also what starting
// each real server cost (first answer, index at the tip, CPU, index size). Builds come
// from a config file, or without one from the embedded fixture network (its reference
// build unless --profile names others), plus with --real the installed real servers.
// Exit 0 when every call answered in full, 3 when a build was unreachable or a call
// failed, 2 for bad input, 130/143 when interrupted (the report is written, partial).

import { writeFileAtomic } from "../core/io/atomic-write.js";
import { buildInfo } from "../core/run/session.js";
import type { Build } from "../core/targets/config.js";
import { runBench, unreachable, type BenchBuild } from "../modes/serve-bench/runner.js";
import { serveBenchLines, serveBenchReport } from "../modes/serve-bench/report.js";
import { DEFAULT_CLIENTS, DEFAULT_LATENCY_RPCS, planScenarios, ScenarioError, type HeightRange } from "../modes/serve-bench/scenarios.js";
import { folderBytes, processCpuMs, startupFacts, type ServerProcessInfo } from "../modes/serve-bench/server-usage.js";
import { perSecond } from "../modes/serve-bench/stats.js";
import { startFixtureNetwork, type ProfileName } from "../zcash/fixture/network.js";
import { realBuildName, startRealServers } from "../zcash/real/servers.js";
import type { Anchors } from "../core/corpus/anchors.js";
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
  servers: ServerProcessInfo[];
  inProcess: string[];
  close(): Promise<void>;
}

async function inputsFor(o: ServeBenchOptions, out: Output): Promise<Inputs> {
  if (o.config) {
    if (o.real) throw new InputError("--real starts real servers against the fixture network: drop --config, or --real");
    const p = await probeInputs({ config: o.config, ...(o.build ? { build: o.build } : {}), ...(o.cases ? { cases: o.cases } : {}), ...(o.profiles ? { profiles: o.profiles } : {}), ...(o.chainFile ? { chainFile: o.chainFile } : {}) }, out);
    return { ...p, servers: [], inProcess: [] };
  }
  if (o.build) throw new InputError("--build selects builds of a config; against the fixture use --profile");
  out.stderr("Starting the embedded fixture network (its builds are served by this process; emulated profiles are not the real servers)…");
  const net = await startFixtureNetwork({ profiles: o.profiles ?? ["reference"], ...(o.chainFile ? { chain: o.chainFile } : {}) });
  const inProcess = net.builds().map((b) => b.name);
  if (!o.real) return { builds: net.builds(), anchors: net.anchors, chain: "fixture", servers: [], inProcess, close: () => net.close() };
  out.stderr("Starting the real servers against the fixture's JSON-RPC…");
  let real;
  try {
    real = await startRealServers(net);
  } catch (e) {
    await net.close();
    throw new InputError((e as Error).message);
  }
  for (const note of real.notes) out.stderr(note);
  const servers = real.servers.map((s) => ({ build: realBuildName(s.pin), pid: s.process.pid, dataDir: s.dataDir, firstAnswerMs: s.firstAnswerMs, tipMs: s.ingestMs }));
  return {
    builds: [...net.builds(), ...real.builds()], anchors: net.anchors, chain: "fixture", servers, inProcess,
    close: async () => {
      await real.close();
      await net.close();
    },
  };
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
    const pids = new Map(inputs.servers.map((s) => [s.build, s.pid]));
    const grpcBuilds = inputs.builds.filter((b) => b.grpc);
    if (grpcBuilds.length === 0) {
      out.stderr("no build with a gRPC endpoint to benchmark");
      return 2;
    }
    const all: BenchBuild[] = grpcBuilds.map((b) => ({
      name: b.name, grpc: b.grpc!, deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes, ...(pids.get(b.name) !== undefined ? { pid: pids.get(b.name)! } : {}),
    }));
    const down: { build: string; reason: string }[] = [];
    for (const b of all) {
      const why = await unreachable(b);
      if (why) {
        down.push({ build: b.name, reason: why });
        out.stderr(`not benchmarked: ${b.name}: ${why}`);
      }
    }
    const builds = all.filter((b) => !down.some((d) => d.build === b.name));
    const startedAt = new Date();
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
      startedAt, chain: inputs.chain, builds: grpcBuilds.map((b) => buildInfo(b, b.protocolVersion)), runs: prepared.runs, clients: prepared.clients,
      range: plan.range, download: plan.download, scenarios: plan.scenarios, startup,
      serverTotals: inputs.servers.map((s) => ({ build: s.build, cpuMs: processCpuMs(s.pid), indexBytes: folderBytes(s.dataDir) })),
      unreachable: down, skipped: plan.skipped, inProcess: inputs.inProcess, partial,
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
