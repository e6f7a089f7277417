// `zconform sweep --from H [--to H|tip]`: GetBlockRange over a whole range from every
// build at once, compared block by block (src/modes/sweep). Builds come from a config file, or
// without one (or with --demo) from the embedded fixture network, as `zconform demo`
// does; --long-chain N serves a lazily generated N-block chain instead, for sweeps of a
// million blocks against the fixture. Exit 0 when every divergence is known to the
// ledger, 1 when any is new or the sweep could not finish, 2 for bad input.

import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PoolType } from "../zcash/gen/walletrpc/service_pb.js";
import { classify } from "../core/ledger/classify.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { buildInfo } from "../core/run/session.js";
import { shardRange, type Shard } from "../modes/shard/shard.js";
import {
  ConfigError,
  DEFAULT_LIMITS,
  describeEndpoint,
  isInsecure,
  loadConfig,
  type Build,
  type JsonRpcEndpoint,
  type Limits,
} from "../core/targets/config.js";
import { chainTip } from "../zcash/start-facts.js";
import { grpcTarget, type GrpcTarget } from "../core/targets/grpc.js";
import { jsonRpcTarget } from "../core/targets/jsonrpc.js";
import type { ProfileName } from "../zcash/fixture/network.js";
import { startSweepFixture } from "../modes/sweep/sweep-fixture.js";
import { oracleBlocks } from "../modes/sweep/oracle-blocks.js";
import { sweepProgressReporter } from "../modes/sweep/progress.js";
import { sweepReport, type SweepReport } from "../modes/sweep/sweep-report.js";
import { DEFAULT_CHUNK, DEFAULT_MAX_LISTED, DEFAULT_WINDOW, runSweep, type SweepProgress } from "../modes/sweep/sweep.js";
import { sweepLines } from "../modes/sweep/terminal.js";
import { guarded, InputError } from "./inputs.js";
import { onInterrupt } from "./interrupt.js";
import { shardOption } from "./shard.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { buildsChoice, fixtureChoice } from "./options.js";
import { startModeStream } from "./mode-reporters.js";

export interface SweepCommandOptions {
  from: string;
  to?: string;
  config?: string;
  demo?: boolean;
  build?: string[];
  reference?: string;
  poolTypes?: string;
  oracle?: boolean;
  chunk?: string;
  window?: string;
  oracleBatch?: string;
  maxListed?: string;
  shard?: string;
  json?: string;
  quiet?: boolean;
  progress?: boolean;
  cases?: string;
  ledger?: string;
  chainFile?: string;
  profiles?: ProfileName[];
  longChain?: string;
  shieldedEvery?: string;
}

const POOL_NAMES: Record<string, PoolType> = {
  TRANSPARENT: PoolType.TRANSPARENT,
  SAPLING: PoolType.SAPLING,
  ORCHARD: PoolType.ORCHARD,
  IRONWOOD: PoolType.IRONWOOD,
};

export function parsePoolTypes(text: string | undefined): PoolType[] {
  if (text === undefined || text.trim() === "") return [];
  return text.split(",").map((raw) => {
    const p = POOL_NAMES[raw.trim().toUpperCase()];
    if (p === undefined) throw new InputError(`--pool-types: unknown pool ${JSON.stringify(raw.trim())} (expected ${Object.keys(POOL_NAMES).join(", ")})`);
    return p;
  });
}

function count(name: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isInteger(v) || v < min) throw new InputError(`${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`);
  return v;
}

function ledgerFor(o: SweepCommandOptions): Quirk[] {
  const path = o.ledger ?? join(o.cases ?? SHIPPED_CASES, "quirks.yaml");
  if (o.ledger && !existsSync(o.ledger)) throw new InputError(`ledger file not found: ${o.ledger}`);
  return existsSync(path) ? loadLedger(path, { implementations: lightwalletProtocol.implementations }) : [];
}

interface Inputs {
  builds: Build[];
  oracle?: JsonRpcEndpoint;
  chain: string;
  /** The oracle's deadline. */
  defaults: Limits;
  /** The tip when it is known without asking (the fixture). */
  tip?: number;
  close(): Promise<void>;
}

async function inputsFor(o: SweepCommandOptions, out: Output): Promise<Inputs> {
  if (o.config && o.demo) throw new InputError("--config and --demo exclude each other");
  if (o.config) {
    if (o.longChain || o.chainFile || o.profiles) throw new InputError("--long-chain, --chain and --profile are fixture options: drop --config, or them");
    const config = loadConfig(o.config, lightwalletProtocol);
    let builds = config.builds.filter((b) => b.grpc);
    if (o.build) {
      const unknown = o.build.filter((n) => !builds.some((b) => b.name === n));
      if (unknown.length > 0) throw new InputError(`--build: no gRPC build named ${unknown.join(", ")} in ${o.config}`);
      builds = builds.filter((b) => o.build!.includes(b.name));
    }
    if (builds.length === 0) throw new InputError(`${o.config}: no build with a gRPC endpoint to sweep`);
    if (o.oracle && !config.oracle) throw new InputError(`--oracle: ${o.config} has no oracle`);
    for (const b of builds) if (isInsecure(b.grpc!)) out.stderr(`WARNING: TLS certificate verification is OFF for build ${b.name} (${b.grpc!.url})`);
    return { builds, ...(o.oracle ? { oracle: config.oracle!.jsonrpc } : {}), chain: config.chain, defaults: config.defaults, close: async () => {} };
  }
  if (o.build) throw new InputError("--build selects builds of a config; against the fixture use --profile");
  const longTip = o.longChain === undefined ? undefined : count("--long-chain", o.longChain, 0);
  if (longTip !== undefined && o.chainFile) throw new InputError("--long-chain and --chain exclude each other");
  out.stderr(
    `Starting the embedded fixture network${longTip ? ` over a ${longTip.toLocaleString("en-US")}-block generated chain` : ""} (emulated builds, not the real servers)…`,
  );
  const f = await startSweepFixture({
    ...(o.profiles ? { profiles: o.profiles } : {}),
    ...(o.chainFile ? { chainFile: o.chainFile } : {}),
    ...(longTip !== undefined ? { longChain: longTip } : {}),
    ...(o.shieldedEvery !== undefined ? { shieldedEvery: count("--shielded-every", o.shieldedEvery, 0, 0) } : {}),
    oracle: o.oracle === true,
  });
  return {
    builds: f.builds,
    ...(f.oracle ? { oracle: f.oracle } : {}),
    chain: `fixture (${f.chainLabel})`,
    defaults: DEFAULT_LIMITS,
    tip: f.tip,
    close: f.close,
  };
}

/** The tip from the oracle when there is one, else from the reference build. */
async function tipHeight(inputs: Inputs, reference: { build: Build; target: GrpcTarget }): Promise<number> {
  if (inputs.tip !== undefined) return inputs.tip;
  const oracle = inputs.oracle ? jsonRpcTarget(inputs.oracle) : undefined;
  try {
    const tip = await chainTip({ ...(oracle ? { oracle: { target: oracle, limits: { deadlineMs: inputs.defaults.deadlineMs } } } : {}), builds: [reference] });
    if (!tip) throw new InputError(`cannot find the tip for --to tip: neither the oracle nor ${reference.build.name} said it (GetLatestBlock)`);
    return tip.height;
  } finally {
    await oracle?.close();
  }
}

function heightArg(name: string, text: string): number {
  const v = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(v)) throw new InputError(`${name} must be a block height, got ${JSON.stringify(text)}`);
  return v;
}

export async function sweepCommand(o: SweepCommandOptions, out: Output): Promise<number> {
  const prepared = await guarded(out, () => {
    const from = heightArg("--from", o.from);
    const shard: Shard | undefined = o.shard ? shardOption(o.shard) : undefined;
    return {
      from,
      shard,
      poolTypes: parsePoolTypes(o.poolTypes),
      ledger: ledgerFor(o),
      chunk: count("--chunk", o.chunk, DEFAULT_CHUNK),
      window: count("--window", o.window, DEFAULT_WINDOW),
      oracleBatch: count("--oracle-batch", o.oracleBatch, 100),
      maxListed: count("--max-listed", o.maxListed, DEFAULT_MAX_LISTED, 0),
    };
  });
  if (typeof prepared === "number") return prepared;
  const inputs = await guarded(out, () => inputsFor(o, out));
  if (typeof inputs === "number") return inputs;
  const targets = new Map(inputs.builds.map((b) => [b.name, grpcTarget(b.grpc!)]));
  const interrupt = onInterrupt(out);
  const stopAll = () => targets.forEach((t) => t.abort());
  interrupt.signal.addEventListener("abort", stopAll, { once: true });
  const oracle = inputs.oracle ? oracleBlocks(inputs.oracle, prepared.poolTypes) : undefined;
  try {
    const reference = o.reference ?? (inputs.builds.some((b) => b.name === "reference") ? "reference" : inputs.builds[0]!.name);
    if (!targets.has(reference)) {
      out.stderr(`--reference: no build named ${reference} (builds: ${[...targets.keys()].join(", ")})`);
      return 2;
    }
    const to =
      o.to === undefined || o.to === "tip"
        ? await tipHeight(inputs, { build: inputs.builds.find((b) => b.name === reference)!, target: targets.get(reference)! })
        : heightArg("--to", o.to);
    if (to < prepared.from) {
      out.stderr(`--to (${to}) is below --from (${prepared.from}); sweeps go upwards`);
      return 2;
    }
    const requested = { from: prepared.from, to };
    const range = prepared.shard ? shardRange(prepared.from, to, prepared.shard) : requested;
    if (!range) {
      out.stderr(`shard ${o.shard} of ${prepared.from}..${to} is empty (more shards than blocks)`);
      return 0;
    }
    const byName = new Map(inputs.builds.map((b) => [b.name, b]));
    const tty = process.stderr.isTTY === true;
    const showProgress = o.progress !== false && !o.quiet;
    const startedAt = new Date();
    const infos = inputs.builds.map((b) => buildInfo(b, b.protocolVersion));
    const stream = startModeStream<SweepReport, SweepProgress>(
      o,
      sweepLines,
      out,
      { builds: inputs.builds, ...(inputs.oracle ? { oracle: inputs.oracle } : {}) },
      { kind: "sweep", startedAt, chain: inputs.chain, builds: infos },
      showProgress ? sweepProgressReporter(tty, tty ? (t) => process.stderr.write(t) : (t) => out.stderr(t.replace(/\n$/, ""))) : undefined,
    );
    const result = await runSweep({
      builds: inputs.builds.map((b) => ({ name: b.name, target: targets.get(b.name)!, deadlineMs: b.deadlineMs, maxMessageBytes: b.maxMessageBytes })),
      reference,
      from: range.from,
      to: range.to,
      poolTypes: prepared.poolTypes,
      chunkSize: prepared.chunk,
      window: prepared.window,
      ...(oracle ? { oracle, oracleBatch: prepared.oracleBatch } : {}),
      maxListed: prepared.maxListed,
      signal: interrupt.signal,
      ...(showProgress
        ? { onProgress: (progress: SweepProgress) => stream.emit({ type: "mode-progress", kind: "sweep", progress }), ...(tty ? { progressEveryMs: 250 } : {}) }
        : {}),
      classify: (d) => {
        const b = byName.get(d.build)!;
        return classify(
          prepared.ledger,
          d,
          { caseId: "sweep.GetBlockRange", method: "GetBlockRange", transport: "grpc" },
          { name: b.name, implementation: b.implementation, version: b.version, protocolVersion: b.protocolVersion },
        );
      },
    });
    const report = sweepReport(result, {
      startedAt,
      chain: inputs.chain,
      range,
      ...(prepared.shard ? { shard: prepared.shard, requestedRange: requested } : {}),
      poolTypes: prepared.poolTypes.map((p) => PoolType[p]),
      chunkSize: prepared.chunk,
      window: prepared.window,
      builds: infos,
      ...(inputs.oracle ? { oracle: describeEndpoint(inputs.oracle) } : {}),
    });
    stream.emit({ type: "mode-end", document: report });
    await stream.finish();
    return report.exitCode;
  } catch (e) {
    if (e instanceof InputError || e instanceof ConfigError) {
      out.stderr(e.message);
      return 2;
    }
    throw e;
  } finally {
    interrupt.signal.removeEventListener("abort", stopAll);
    interrupt.dispose();
    await oracle?.close();
    await Promise.all([...targets.values()].map((t) => t.close()));
    await inputs.close();
  }
}

/** Declares `zconform sweep` on the program. */
export function registerSweep(program: Command, io: Output): void {
  fixtureChoice(
    buildsChoice(
      program
        .command("sweep")
        .description(
          "stream GetBlockRange over a whole range from every build at once and compare block by block " +
            "(raw bytes first, decoding only where they differ); memory stays flat however long the range.\n" +
            "Without --config: the embedded fixture network (emulated builds). Exit 0 when every divergence is known, 1 when any is new, 2 for bad input",
        ),
    )
      .requiredOption("--from <height>", "first height")
      .option("--to <height>", 'last height, or "tip" (default: the tip, from the oracle or the reference build)')
      .option("--reference <build>", 'the build every other is compared against when there is no oracle (default: "reference" if present, else the first)')
      .option(
        "--pool-types <list>",
        "BlockRange.poolTypes, comma separated: TRANSPARENT,SAPLING,ORCHARD,IRONWOOD (default none: the server's shielded default)",
      )
      .option("--oracle", "compare every block with the one derived from the oracle's getblock (batched JSON-RPC) instead of with the reference build")
      .option("--chunk <blocks>", "blocks per GetBlockRange call; a failed chunk is resumed once", "100000")
      .option("--window <blocks>", "how far one build may run ahead of the slowest (blocks held per build)", "256")
      .option("--oracle-batch <n>", "heights per oracle JSON-RPC batch", "100")
      .option("--max-listed <n>", "divergences kept in full in the report (all are counted in its tally)", "1000")
      .option("--shard <k/n>", "sweep only part k of n of the range (contiguous parts)")
      .option("--long-chain <tip>", "fixture: a generated chain of heights 0..tip, built lazily (for sweeps of a million blocks; serves block rpcs only)")
      .option("--shielded-every <k>", "fixture --long-chain: a shielded transaction every k blocks (0 = none)", "10")
      .addOption(casesOption("corpus folder (for the default ledger <cases>/quirks.yaml)"))
      .option("--ledger <file>", "known-quirks ledger; sweep divergences match it as method GetBlockRange, case id sweep.GetBlockRange")
      .option("--json <file>", "write the sweep report (JSON) to this file")
      .option("--no-progress", "no progress on stderr (redrawn in place on a terminal; elsewhere one line per finished chunk)")
      .option("-q, --quiet", "no terminal report"),
  ).action(async (opts) => {
    process.exitCode = await sweepCommand(
      { ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) },
      io,
    );
  });
}
