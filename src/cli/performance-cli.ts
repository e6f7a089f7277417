// Command-line declarations of the performance and scale commands (sweep, merge,
// latency, wirecost) and of --shard on run and demo. Kept out of cli.ts so that file
// only gains one call; cli.ts still owns parsing and exit codes.

import { Command, InvalidArgumentError } from "commander";
import { casesOption } from "./cases-option.js";
import { PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";
import { latencyCommand } from "./latency.js";
import { mergeCommand } from "./merge.js";
import type { Output } from "./output.js";
import { sweepCommand } from "./sweep.js";
import { wirecostCommand } from "./wirecost.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];
const profileList = (value: string, previous: ProfileName[] = []) => {
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${PROFILE_NAMES.join(", ")}`);
  return [...previous, value as ProfileName];
};

const SHARD_HELP = "run only shard k of n (1-based, e.g. 2/4): cases dealt round robin over their sorted ids; " +
  "stale ledger entries do not fail a shard (zconform merge judges them)";

function fixtureChoice(cmd: Command): Command {
  return cmd
    .option("--demo", "sweep the embedded fixture network (the default when no --config is given)")
    .option("--profile <name>", `fixture: only these profiles (${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
    .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain");
}

export function registerPerformanceCommands(program: Command, io: Output): void {
  for (const name of ["run", "demo"]) program.commands.find((c) => c.name() === name)?.option("--shard <k/n>", SHARD_HELP);

  fixtureChoice(program.command("sweep")
    .description("stream GetBlockRange over a whole range from every build at once and compare block by block " +
      "(raw bytes first, decoding only where they differ); memory stays flat however long the range.\n" +
      "Without --config: the embedded fixture network (emulated builds). Exit 0 when every divergence is known, 1 when any is new, 2 for bad input")
    .requiredOption("--from <height>", "first height")
    .option("--to <height>", "last height, or \"tip\" (default: the tip, from the oracle or the reference build)")
    .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
    .option("--build <name>", "with --config: only these builds; repeatable", collect)
    .option("--reference <build>", "the build every other is compared against when there is no oracle (default: \"reference\" if present, else the first)")
    .option("--pool-types <list>", "BlockRange.poolTypes, comma separated: TRANSPARENT,SAPLING,ORCHARD,IRONWOOD (default none: the server's shielded default)")
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
    .option("--no-progress", "no progress display (it is shown only when stderr is a terminal)")
    .option("-q, --quiet", "no terminal report"))
    .action(async (opts) => {
      process.exitCode = await sweepCommand({ ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
    });

  program.command("merge")
    .description("join the JSON reports of a sharded run (--shard k/n) into the report an unsharded run would have written: " +
      "cases in corpus order, summary and ledger findings recomputed over all shards")
    .argument("<reports...>", "the shard reports, one per shard")
    .option("--json <file>", "write the merged JSON report to this file")
    .option("--junit <file>", "write a JUnit XML report of the merged run")
    .option("--html <file>", "write an HTML report of the merged run")
    .addOption(casesOption("corpus folder (for the default ledger <cases>/quirks.yaml)"))
    .option("--ledger <file>", "the ledger the shards ran with (needed to judge stale entries)")
    .option("--allow-stale", "stale ledger entries do not fail the merged run")
    .option("-q, --quiet", "no terminal report")
    .action(async (files: string[], opts) => {
      process.exitCode = await mergeCommand(files, opts, io);
    });

  fixtureChoice(program.command("latency")
    .description("time N calls per small unary rpc and build; p50/p90/p99/max and a histogram; reports a plateau near 40 ms " +
      "(TCP_NODELAY missing on one side, delayed ACKs on the other) as a latency divergence the ledger can classify")
    .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
    .option("--build <name>", "with --config: only these builds; repeatable", collect)
    .option("--reference <build>", "the build whose timings are the baseline (default: \"reference\" if present)")
    .option("--rpc <name>", "rpcs to time (default GetLatestBlock, GetLightdInfo, GetTreeState, GetTaddressBalance); repeatable", collect)
    .option("-n, --calls <n>", "timed calls per rpc and build", "200")
    .option("--warmup <n>", "calls per rpc and build before timing, reported apart", "5")
    .option("--parallel", "time all builds at once (default one after the other; builds served by this process would measure each other)")
    .addOption(casesOption("corpus folder: chain profiles (anchors for requests) and the default ledger"))
    .option("--ledger <file>", "known-quirks ledger; latency divergences match as case id latency.<Rpc>")
    .option("--json <file>", "write the latency report (JSON) to this file")
    .option("-q, --quiet", "no terminal report"))
    .action(async (opts) => {
      process.exitCode = await latencyCommand({ ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
    });

  fixtureChoice(program.command("wirecost")
    .description("bytes on the wire and decode time of the same data over both transports: GetBlock vs getblock 0/1, " +
      "GetTransaction vs getrawtransaction 0/1, GetTreeState vs z_gettreestate, per build serving both")
    .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
    .option("--build <name>", "with --config: only these builds; repeatable", collect)
    .option("-n, --calls <n>", "calls per request (median time reported)", "20")
    .addOption(casesOption("corpus folder: chain profiles (anchors for requests)"))
    .option("--json <file>", "write the wire-cost report (JSON) to this file")
    .option("-q, --quiet", "no terminal report"))
    .action(async (opts) => {
      process.exitCode = await wirecostCommand({ ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
    });
}
