// `zconform serve-bench`: the serving side of the published comparison of lightwallet
// servers (src/modes/serve-bench) — GetBlockRange throughput over 1,000 blocks and over the
// whole wallet download, 1 to 128 concurrent clients on ranges and on single-block
// GetBlock, and small unary rpcs' latency, each repeated; with --real, also what starting
// each real server cost (first answer, index at the tip, CPU, index size); then, unless
// --tip-blocks 0, tip following: the node mines blocks one at a time through its JSON-RPC
// and each build's time to serve each as its latest is measured. Builds come from a config
// file (its oracle is the node moved), or without one from the embedded fixture network
// run in a process of its own (its reference build unless --profile names others; its
// chain moving, the emulated profiles following in real time), plus with --real the
// installed real servers.
// Exit 0 when every call answered in full, 3 when a build was unreachable or a call
// failed (the node's generate too, once it had answered one), 2 for bad input, 130/143
// when interrupted (the report is written, partial).

import { cpus, loadavg } from "node:os";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { buildInfo } from "../core/run/session.js";
import { loadConfig, type Build } from "../core/targets/config.js";
import type { JsonRpcEndpoint } from "../core/targets/endpoint.js";
import { runBench, unreachable, type BenchBuild } from "../modes/serve-bench/runner.js";
import { serveBenchHtml, serveBenchLines, serveBenchReport } from "../modes/serve-bench/report.js";
import { DEFAULT_CLIENTS, DEFAULT_LATENCY_RPCS, planScenarios, ScenarioError, type HeightRange } from "../modes/serve-bench/scenarios.js";
import { folderBytes, processCpuMs, startupFacts, type ServerProcessInfo } from "../modes/serve-bench/server-usage.js";
import { perSecond } from "../modes/serve-bench/stats.js";
import { DEFAULT_TIP_BLOCKS, DEFAULT_TIP_EVERY_MS, runTipFollowing, tipSkipped, type TipFollowing } from "../modes/serve-bench/tip-following.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { ProfileName } from "../zcash/fixture/network.js";
import type { Anchors } from "../core/corpus/anchors.js";
import { startFixtureProcess } from "./fixture-process.js";
import { guarded, InputError } from "./inputs.js";
import { onInterrupt } from "./interrupt.js";
import type { Output } from "./output.js";
import { probeInputs } from "./probe-inputs.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { buildsChoice, collect, profileOption } from "./options.js";

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
  tipBlocks?: string;
  tipEveryMs?: string;
  json?: string;
  html?: string;
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
  /** The node behind the builds, which tip following mines on; or why there is none to move. */
  node: JsonRpcEndpoint | { still: string };
  /** The emulated profiles' timing scale on the moving fixture; null without emulated builds following one. */
  timingScale: number | null;
  close(): Promise<void>;
}

/** Benchmarks compare emulated figures with real servers': the emulations follow in real time. */
const BENCH_TIMING_SCALE = 1;

async function inputsFor(o: ServeBenchOptions, out: Output, moving: boolean): Promise<Inputs> {
  if (o.config) {
    if (o.real) throw new InputError("--real starts real servers against the fixture network: drop --config, or --real");
    const p = await probeInputs(
      {
        config: o.config,
        ...(o.build ? { build: o.build } : {}),
        ...(o.cases ? { cases: o.cases } : {}),
        ...(o.profiles ? { profiles: o.profiles } : {}),
        ...(o.chainFile ? { chainFile: o.chainFile } : {}),
      },
      out,
    );
    const oracle = loadConfig(o.config, lightwalletProtocol).oracle?.jsonrpc;
    return {
      ...p,
      servers: [],
      pids: new Map(),
      node: oracle ?? { still: `${o.config} names no oracle (oracle.jsonrpc): no node to mine blocks on` },
      timingScale: null,
    };
  }
  if (o.build) throw new InputError("--build selects builds of a config; against the fixture use --profile");
  out.stderr(
    `Starting the embedded fixture network in its own process${o.real ? ", and the real servers against its JSON-RPC" : ""} (emulated profiles are not the real servers)…`,
  );
  // Only the synthetic chain moves; a chain file stays still, and so does a fixture with no tip following to do.
  const move = moving && !o.chainFile;
  const f = await startFixtureProcess(
    {
      profiles: o.profiles ?? ["reference"],
      ...(o.chainFile ? { chainFile: o.chainFile } : {}),
      real: o.real === true,
      ...(move ? { moving: { timingScale: BENCH_TIMING_SCALE } } : {}),
    },
    out,
  );
  const pids = new Map(f.builds.map((b) => [b.name, f.pid]));
  for (const s of f.servers) if (s.pid !== undefined) pids.set(s.build, s.pid);
  return {
    builds: f.builds,
    anchors: f.anchors,
    chain: "fixture",
    servers: f.servers,
    pids,
    close: f.close,
    node: f.moving ? f.oracle : { still: "the fixture moves its synthetic chain only: a --chain file stays still" },
    timingScale: f.moving && f.builds.some((b) => b.emulated) ? f.moving.timingScale : null,
  };
}

export async function serveBenchCommand(o: ServeBenchOptions, out: Output): Promise<number> {
  const prepared = await guarded(out, () => ({
    runs: count("--runs", o.runs, 3, 1, 100),
    clients: parseClients(o.clients),
    download: parseRange(o.range),
    blockRequests: count("--block-requests", o.blockRequests, 20, 1, 100_000),
    calls: count("--calls", o.calls, 50, 1, 100_000),
    tipBlocks: count("--tip-blocks", o.tipBlocks, DEFAULT_TIP_BLOCKS, 0, 100_000),
    tipEveryMs: count("--tip-every-ms", o.tipEveryMs, DEFAULT_TIP_EVERY_MS, 1, 3_600_000),
  }));
  if (typeof prepared === "number") return prepared;
  const inputs = await guarded(out, () => inputsFor(o, out, prepared.tipBlocks > 0));
  if (typeof inputs === "number") return inputs;
  const interrupt = onInterrupt(out);
  try {
    let plan;
    try {
      plan = planScenarios({
        anchors: inputs.anchors,
        ...(prepared.download ? { download: prepared.download } : {}),
        clients: prepared.clients,
        blockRequests: prepared.blockRequests,
        latencyRpcs: o.rpc ?? DEFAULT_LATENCY_RPCS,
        latencyCalls: prepared.calls,
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
      name: b.name,
      grpc: b.grpc!,
      deadlineMs: b.deadlineMs,
      maxMessageBytes: b.maxMessageBytes,
      ...(inputs.pids.has(b.name) ? { pid: inputs.pids.get(b.name)! } : {}),
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
      builds,
      scenarios: plan.scenarios,
      runs: prepared.runs,
      signal: interrupt.signal,
      onRun: (s, build, run, f) => {
        if (o.quiet) return;
        const rate =
          s.kind === "latency" ? `p50 ${f.latencyMs?.p50.toFixed(2)} ms` : `${Math.round(perSecond(f.blocks, f.wallMs)).toLocaleString("en-US")} blocks/s`;
        out.stderr(`  run ${run}/${prepared.runs} ${s.id} ${build}: ${rate}${f.failed > 0 ? `, ${f.failed} failed` : ""}`);
      },
    });
    // Read before tip following, whose probes would add to it.
    const serverTotals = inputs.servers.map((s) => ({ build: s.build, cpuMs: processCpuMs(s.pid), indexBytes: folderBytes(s.dataDir) }));
    const tipFollowing = await tipPhase(prepared, inputs, builds, partial, interrupt.signal, o.quiet ? () => undefined : out.stderr);
    const cut = partial || interrupt.signal.aborted;
    const reason = interrupt.signal.reason as { exitCode?: number } | undefined;
    const report = serveBenchReport(results, {
      startedAt,
      chain: inputs.chain,
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? "unknown",
        node: process.version,
        loadAverage: { start: loadAtStart, end: loadavg()[0]! },
      },
      builds: grpcBuilds.map((b) => buildInfo(b, b.protocolVersion)),
      runs: prepared.runs,
      clients: prepared.clients,
      range: plan.range,
      download: plan.download,
      scenarios: plan.scenarios,
      startup,
      serverTotals,
      unreachable: down,
      skipped: plan.skipped,
      tipFollowing,
      timingScale: inputs.timingScale,
      partial: cut,
      ...(cut && reason?.exitCode !== undefined ? { interruptedExitCode: reason.exitCode } : {}),
    });
    if (o.json) writeFileAtomic(o.json, `${JSON.stringify(report, null, 2)}\n`);
    if (o.html) writeFileAtomic(o.html, serveBenchHtml(report));
    if (!o.quiet) for (const line of serveBenchLines(report)) out.stdout(line);
    return report.exitCode;
  } finally {
    interrupt.dispose();
    await inputs.close();
  }
}

/** The tip-following phase after the serving scenarios, or why it did not run; null when turned off. */
async function tipPhase(
  p: { tipBlocks: number; tipEveryMs: number },
  inputs: Inputs,
  builds: readonly BenchBuild[],
  partial: boolean,
  signal: AbortSignal,
  say: (line: string) => void,
): Promise<TipFollowing | null> {
  if (p.tipBlocks === 0) return null;
  const o = { blocks: p.tipBlocks, everyMs: p.tipEveryMs };
  if (partial) return tipSkipped(o, "the bench was interrupted before it");
  if ("still" in inputs.node) return tipSkipped(o, inputs.node.still);
  if (builds.length === 0) return tipSkipped(o, "no build to watch");
  say(`tip following: the node mines ${p.tipBlocks} block(s), one per ${p.tipEveryMs} ms; each build's GetLatestBlock is watched…`);
  return runTipFollowing({ ...o, builds, node: inputs.node, signal });
}

/** Declares `zconform serve-bench` on the program. */
export function registerServeBench(program: Command, io: Output): void {
  buildsChoice(
    program
      .command("serve-bench")
      .description(
        "the serving benchmark of the published comparison of lightwallet servers: GetBlockRange blocks/s over 1,000 blocks and over the " +
          "whole wallet download (Sapling activation to the tip), 1 to 128 concurrent clients on ranges and on single-block GetBlock, small unary rpcs' " +
          "latency; each scenario repeated, median and spread, the client's own CPU time beside it. With --real, also each real server's time to its " +
          "first answer and to the tip, its CPU time and index size on disk. Then tip following: the node (the fixture's, moving, its emulations in real " +
          "time; or the config's oracle, a regtest node) mines blocks one at a time and each build's time to serve each as its GetLatestBlock is measured.\n" +
          "Without --config: the embedded fixture network's reference build (--profile adds emulations). Exit 0 when every call answered in full, " +
          "3 when a build was unreachable or a call failed, 2 for bad input, 130/143 interrupted (report written, partial)",
      ),
  )
    .addOption(profileOption("fixture: benchmark these profiles", "reference"))
    .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain")
    .option(
      "--real",
      "fixture: also start the installed real servers of real-servers.yaml (lightwalletd, zainod) against the fixture's JSON-RPC and benchmark them",
    )
    .option("--runs <n>", "runs of every scenario on every build (the table shows their median)", "3")
    .option("--clients <list>", "concurrent client counts, comma separated", "1,2,4,8,16,32,64,128")
    .option("--range <from..to>", "the full wallet download (default: sapling_activation..tip of the chain)")
    .option("--block-requests <n>", "single-block GetBlock calls per client and run", "20")
    .option("--calls <n>", "timed calls per latency rpc and run", "50")
    .option("--rpc <name>", "small unary rpcs to time (default GetLightdInfo, GetTreeState, GetLatestBlock); repeatable", collect)
    .option(
      "--tip-blocks <n>",
      "tip following: blocks the node mines after the serving scenarios (through its JSON-RPC generate); 0 turns it off",
      String(DEFAULT_TIP_BLOCKS),
    )
    .option("--tip-every-ms <ms>", "tip following: one block in each interval of this many ms, at a random point of it", String(DEFAULT_TIP_EVERY_MS))
    .addOption(casesOption("corpus folder: chain profiles (anchors for the ranges and requests)"))
    .option("--json <file>", "write the serve-bench report (JSON, schemas/serve-bench.schema.json) to this file")
    .option(
      "--html <file>",
      "write a page of the figures to this file: blocks/s against clients per build, download and latency bars, tip following histograms",
    )
    .option("-q, --quiet", "no terminal table and no progress lines")
    .action(async (opts) => {
      process.exitCode = await serveBenchCommand(
        { ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) },
        io,
      );
    });
}
