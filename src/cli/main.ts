// The command line. Each command lives in src/cli/<name>.ts; this file declares them,
// their options and help, and turns their results into exit codes. sweep, merge, latency
// and wirecost declare themselves (their register* functions), called at the end.

import { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { decodeCommand } from "./decode.js";
import { casesCommand } from "./cases.js";
import { coverageCommand } from "./coverage.js";
import { darksideCommand } from "./darkside.js";
import { fixtureCommand } from "./fixture.js";
import { fidelityCommand } from "./fidelity.js";
import { registerLatency } from "./latency.js";
import { registerMerge } from "./merge.js";
import { buildsChoice, collect, oneOf, positiveInt, profileList, SHARD_HELP } from "./options.js";
import { regtestCommand } from "./regtest.js";
import { runLikeCommand, type RunLikeOptions } from "./run.js";
import { serveBenchCommand } from "./serve-bench.js";
import { registerSweep } from "./sweep.js";
import { registerWirecost } from "./wirecost.js";
import { PROFILE_NAMES, type ProfileName } from "../zcash/fixture/network.js";

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

const io = {
  stdout: (line: string) => process.stdout.write(`${line}\n`),
  stderr: (line: string) => process.stderr.write(`${line}\n`),
};

const EXIT_CODES = [
  "",
  "Exit codes:",
  "  0    every case checked, every divergence explained by the ledger",
  "  1    a new divergence, a stale or expired ledger entry, or drift from a golden",
  "  2    bad config, corpus, ledger or command line",
  "  3    a build or the oracle could not be checked on some case (refused, timeout, TLS,",
  "       credentials, broken answers); takes precedence over 1",
  "  130  interrupted by SIGINT, 143 by SIGTERM: reports written with what finished, marked partial",
].join("\n");
const NETWORKS = ["mainnet", "testnet", "regtest"] as const;
type NetworkName = (typeof NETWORKS)[number];

const program = new Command()
  .name("zconform")
  .description("Checks Zcash lightwallet servers (CompactTxStreamer gRPC, Zebra-style JSON-RPC) byte for byte, " +
    "against each other and against Zebra JSON-RPC as ground truth.")
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program.command("decode")
  .description("decode raw Zcash blocks (a file of hex lines, or a .bin block) to one JSON object per block")
  .argument("<file>", "file of raw block hex, one block per line, or a binary .bin block")
  .option("--network <name>", "network for address encoding: mainnet, testnet or regtest", oneOf(NETWORKS))
  .option("--compact", "print the derived CompactBlock (protobuf JSON, all pools) instead")
  .action(async (file: string, opts: { network?: "mainnet" | "testnet" | "regtest"; compact?: boolean }) => {
    process.exitCode = await decodeCommand(file, opts, io);
  });

program.command("cases")
  .description("list the corpus: one entry per case with id, method and transport")
  .addOption(casesOption("corpus folder"))
  .option("--json", "print a JSON array instead of a table")
  .action(async (opts: { cases: string; json?: boolean }) => {
    process.exitCode = await casesCommand(opts, io);
  });

function corpusOptions(cmd: Command): Command {
  return cmd
    .addOption(casesOption("corpus folder"))
    .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
    .option("--case <pattern>", "only cases whose id matches (* wildcard); repeatable", collect)
    .option("--method <name>", "only cases of this rpc or JSON-RPC method; repeatable", collect)
    .option("--force", "run even when the preflight reaches no build or finds the wrong chain");
}

function fixtureOptions(cmd: Command): Command {
  return cmd
    .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain")
    .option("--network <name>", "fixture --chain: the blocks' network when they do not start at genesis (mainnet, testnet, regtest)", oneOf(NETWORKS))
    .option("--profile <name>", `fixture: serve only these profiles (${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
    .option("--real", "fixture: also start the installed real servers of real-servers.yaml (lightwalletd, zainod) against the fixture's JSON-RPC, as builds labelled \"<name> <version> (real)\"");
}

function reportOptions(cmd: Command): Command {
  return cmd
    .option("--json <file>", "write the JSON report (versioned schema) to this file")
    .option("--junit <file>", "write a JUnit XML report to this file (one testcase per case and build)")
    .option("--html <file>", "write a self-contained HTML report to this file (matrix, drill-down, reproduce commands)")
    .option("--allow-stale", "stale ledger entries do not fail the run")
    .option("-q, --quiet", "no terminal report");
}

type RunLikeCli = { chain?: string; profile?: ProfileName[]; network?: NetworkName } & Record<string, unknown>;
const runLike = (opts: RunLikeCli) => runLikeCommand({
  ...(opts as unknown as RunLikeOptions),
  ...(opts.chain ? { chainFile: opts.chain } : {}),
  ...(opts.profile ? { profiles: opts.profile } : {}),
  ...(opts.network ? { network: opts.network } : {}),
}, io);

reportOptions(corpusOptions(program.command("run")
  .description("run the corpus against the builds of a config file, anchored to its oracle")
  .addHelpText("after", EXIT_CODES)
  .option("-c, --config <file>", "builds config", "zconform.config.yaml")
  .option("--allow-broadcast", "send cases whose request is a valid transaction (refused unless the chain profile's network is regtest)")
  .option("--spill <dir>", "write the whole bytes of every answer above 1 MiB to <dir>/<sha256>.bin (reports keep its length, hash, head and tail)")
  .option("--golden [dir]", "also compare every answer with its recorded golden (default folder: golden)")))
  .option("--shard <k/n>", SHARD_HELP)
  .action(async (opts) => {
    process.exitCode = await runLike({ ...opts, ...(opts.golden === true ? { golden: "golden" } : {}) });
  });

fixtureOptions(reportOptions(corpusOptions(program.command("demo")
  .description("start the embedded fixture network (the reference and every emulated profile) and run the whole corpus against it")
  .addHelpText("after", EXIT_CODES)
  .option("--golden [dir]", "also compare every answer with its recorded golden (default folder: golden)"))))
  .option("--shard <k/n>", SHARD_HELP)
  .action(async (opts) => {
    process.exitCode = await runLike({ ...opts, ...(opts.golden === true ? { golden: "golden" } : {}) });
  });

fixtureOptions(corpusOptions(program.command("record")
  .description("record every build's answers as goldens under <dir>/<chain>/<build>/ (written atomically); " +
    "without --config, against the embedded fixture network")
  .addHelpText("after", "\nExit codes: 0 recorded; 2 bad config, corpus or command line; 3 a build or the oracle could not be checked\n" +
    "on some case (its goldens are not worth trusting); 130/143 interrupted by SIGINT/SIGTERM (what finished is recorded)")
  .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
  .option("--dir <dir>", "golden folder", "golden")
  .option("-q, --quiet", "no terminal report")))
  .action(async (opts) => {
    process.exitCode = await runLike({ ...opts, record: opts.dir, allowStale: true });
  });

program.command("fidelity")
  .description("on the fixture chain, run the corpus through each real server installed on this machine (real-servers.yaml) and the emulated profile " +
    "that reproduces it; print per rpc the cases where both agree byte for byte, and every difference with the ledger entries that explain it;\n" +
    "exit 0 when every difference is explained, 1 when any is not, 2 when no real server is installed")
  .option("--cases <dir>", "corpus folder", "cases")
  .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
  .option("--case <pattern>", "only cases whose id matches (* wildcard); repeatable", collect)
  .option("--method <name>", "only cases of this rpc or JSON-RPC method; repeatable", collect)
  .option("--json <file>", "write the fidelity table as JSON (schemas/fidelity.schema.json)")
  .action(async (opts) => {
    process.exitCode = await fidelityCommand(opts, io);
  });

program.command("coverage")
  .description("list the rpcs, request fields, enum values and JSON-RPC methods that no case exercises (requests planned with a chain profile's anchors, " +
    "a live chain's tip at the profile's frozen block), and every case the chain cannot plan, with why")
  .addOption(casesOption("corpus folder"))
  .option("--chain <name>", "chain profile whose anchors plan the requests (cases/chains/<name>.yaml)", "fixture")
  .option("--json", "print a stable JSON object instead of text")
  .action(async (opts: { cases: string; chain: string; json?: boolean }) => {
    process.exitCode = await coverageCommand(opts, io);
  });

program.command("fixture")
  .description("start the embedded fixture network and print its endpoints as one JSON line; runs until SIGINT/SIGTERM")
  .option("--profile <name>", `profiles to serve (default all: ${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
  .option("--chain <file>", "serve real raw blocks from this file (hex lines or .bin) instead of the synthetic chain")
  .option("--network <name>", "the blocks' network when they do not start at genesis (mainnet, testnet, regtest)", oneOf(NETWORKS))
  .option("--host <address>", "address to listen on", "127.0.0.1")
  .option("--accept-transactions", "acknowledge decodable transactions in SendTransaction (nothing is added to the chain)")
  .option("--real", "also start the installed real servers of real-servers.yaml against the fixture's JSON-RPC and print their endpoints")
  .action(async (opts) => {
    // Once stopped and its servers closed, the process is done: a server-side handler whose
    // client went away mid-stream can keep its deadline timer (up to the call's grpc-timeout)
    // after the connection is gone, and that must not keep the stopped fixture alive.
    process.exit(await fixtureCommand(opts, io));
  });

reportOptions(corpusOptions(program.command("regtest")
  .description("a wholly real network on this machine: zebrad mines a regtest chain (blocks written to <dir>/blocks.txt), real lightwalletd and zainod index its " +
    "JSON-RPC, the fixture serves the same blocks through the reference and the emulated profiles, and the whole corpus runs against zebrad's own " +
    "gRPC, the real indexers and the fixture, with zebrad's JSON-RPC as the oracle (report in <dir>/report.json unless --json, timings in <dir>/regtest.json)")
  .addHelpText("after", EXIT_CODES)
  .option("--dir <dir>", "output folder for blocks.txt, mempool.txt, report.json and regtest.json", "regtest-out")
  .option("--blocks <n>", "blocks to mine (default 300; at least 40: NU6.1 activates at 30)", positiveInt)
  .option("--replay <dir>", "replay the chain and mempool an earlier run wrote to its --dir (blocks.txt, mempool.txt, regtest.json) instead of mining: the same blocks byte for byte, for goldens")
  .option("--miner-address <address>", "regtest address the transparent coinbases pay (default the wallet's miner key, whose coinbases the chain's transactions spend; another address needs --no-transact)")
  .option("--no-transact", "mine no wallet transactions and leave the mempool empty (by default the wallet spends mature coinbases in blocks 105 and 106 and leaves two spends in zebrad's mempool)")
  .option("--no-shielded", "pay every coinbase to the transparent miner address (no Orchard or Sapling coinbase; saves about 20 s of proving)")
  .option("--profile <name>", `serve only these fixture profiles (${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
  .option("--keep-logs", "keep the real servers' temporary folders (their logs) after the run")
  .option("--golden [dir]", "replay the chain recorded in <dir>/regtest/chain (default folder: golden) and compare the real servers' answers with their goldens there")
  .option("--record <dir>", "write the real servers' answers (and zebrad's own JSON-RPC answers) as goldens under <dir>/regtest/; without --replay a new chain is mined and kept in <dir>/regtest/chain")))
  .action(async (opts) => {
    process.exitCode = await regtestCommand({ ...opts, ...(opts.golden === true ? { golden: "golden" } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
  });

program.command("darkside")
  .description("real lightwalletd in darkside mode fed real blocks (every run in the chain data, or --chain), its block rpcs compared byte for byte with the oracle")
  .option("--chain <file>", "a file or folder of raw blocks to stage instead of every run in the chain data; repeatable", collect)
  .option("--chain-data <dir>", "chain data folder (default $ZCONFORM_CHAIN_DATA or ../shared/chain-data)")
  .option("--lightwalletd <path>", "the lightwalletd binary (default $ZCONFORM_LIGHTWALLETD or the install cache)")
  .option("--cases <dir>", "corpus folder, for its ledger", "cases")
  .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
  .option("--json <file>", "write the results as JSON (schemas/darkside.schema.json)")
  .action(async (opts) => {
    process.exitCode = await darksideCommand(opts, io);
  });

buildsChoice(program.command("serve-bench")
  .description("the serving benchmark of the published comparison of lightwallet servers: GetBlockRange blocks/s over 1,000 blocks and over the " +
    "whole wallet download (Sapling activation to the tip), 1 to 128 concurrent clients on ranges and on single-block GetBlock, small unary rpcs' " +
    "latency; each scenario repeated, median and spread, the client's own CPU time beside it. With --real, also each real server's time to its " +
    "first answer and to the tip, its CPU time and index size on disk.\n" +
    "Without --config: the embedded fixture network's reference build (--profile adds emulations). Exit 0 when every call answered in full, " +
    "3 when a build was unreachable or a call failed, 2 for bad input, 130/143 interrupted (report written, partial)"))
  .option("--profile <name>", `fixture: benchmark these profiles (default reference; ${PROFILE_NAMES.join(", ")}); repeatable`, profileList)
  .option("--chain <file>", "fixture: serve real raw blocks from this file instead of the synthetic chain")
  .option("--real", "fixture: also start the installed real servers of real-servers.yaml (lightwalletd, zainod) against the fixture's JSON-RPC and benchmark them")
  .option("--runs <n>", "runs of every scenario on every build (the table shows their median)", "3")
  .option("--clients <list>", "concurrent client counts, comma separated", "1,2,4,8,16,32,64,128")
  .option("--range <from..to>", "the full wallet download (default: sapling_activation..tip of the chain)")
  .option("--block-requests <n>", "single-block GetBlock calls per client and run", "20")
  .option("--calls <n>", "timed calls per latency rpc and run", "50")
  .option("--rpc <name>", "small unary rpcs to time (default GetLightdInfo, GetTreeState, GetLatestBlock); repeatable", collect)
  .addOption(casesOption("corpus folder: chain profiles (anchors for the ranges and requests)"))
  .option("--json <file>", "write the serve-bench report (JSON, schemas/serve-bench.schema.json) to this file")
  .option("-q, --quiet", "no terminal table and no progress lines")
  .action(async (opts) => {
    process.exitCode = await serveBenchCommand({ ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) }, io);
  });

registerSweep(program, io);
registerMerge(program, io);
registerLatency(program, io);
registerWirecost(program, io);

// Every expected error is handled where it arises (exit 2 with its message); anything
// else still ends as one line, not a stack trace. ZCONFORM_DEBUG=1 shows the stack.
try {
  await program.parseAsync(process.argv);
} catch (e) {
  io.stderr(`zconform: ${process.env.ZCONFORM_DEBUG ? (e as Error).stack : String((e as Error).message ?? e).split("\n")[0]}`);
  process.exit(2);
}
