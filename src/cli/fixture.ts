// `zconform fixture`: starts the embedded fixture network and keeps it up until SIGINT
// or SIGTERM. Prints exactly one line of JSON on stdout when ready, so scripts and CI
// can read the endpoints: {"grpc": {...}, "jsonrpc": "...", "cookie": "..."} plus the
// JSON-RPC endpoints of the profiles that serve one, the chain's anchors and its own pid
// (the process serving them all); with --real, per real server started against it: its
// gRPC endpoint, log file, pid and data dir, how long it took to first answer and to
// ingest the chain, and its entry as a build. With --moving its node's chain moves
// (synthetic chain only): its JSON-RPC answers generate and invalidateblock as a regtest
// zebrad does, every profile follows with its own timing × --timing-scale, and the line
// says so ("moving": {"timingScale": x}).

import { DEFAULT_TIMING_SCALE, startFixtureNetwork, type ProfileName } from "../zcash/fixture/network.js";
import { describeChain } from "../zcash/fixture/chain/index.js";
import { startRealServers, realBuildName, type RealServers } from "../zcash/real/servers.js";
import type { NetworkName } from "../zcash/codec/network.js";
import { guarded } from "./inputs.js";
import type { Output } from "./output.js";
import type { Command } from "commander";
import { NETWORK_NAMES, oneOf, profileOption } from "./options.js";

export interface FixtureOptions {
  profile?: ProfileName[];
  chain?: string;
  network?: NetworkName;
  host?: string;
  acceptTransactions?: boolean;
  /** Also start the installed real servers against the fixture's JSON-RPC. */
  real?: boolean;
  /** The node's chain moves; the profiles follow with their timings × timingScale. */
  moving?: boolean;
  timingScale?: string;
}

function realEntries(real: RealServers): Record<string, unknown> {
  const builds = new Map(real.builds().map((b) => [b.name, b]));
  return Object.fromEntries(
    real.servers.map((s) => [
      realBuildName(s.pin),
      {
        grpc: s.grpcUrl,
        log: s.process.logFile,
        ingestMs: Math.round(s.ingestMs),
        firstAnswerMs: Math.round(s.firstAnswerMs),
        pid: s.process.pid,
        dataDir: s.dataDir,
        build: builds.get(realBuildName(s.pin)),
      },
    ]),
  );
}

export async function fixtureCommand(o: FixtureOptions, out: Output): Promise<number> {
  if (o.network && !o.chain) {
    out.stderr("--network names the network of a --chain file; give --chain too");
    return 2;
  }
  if (o.moving && o.chain) {
    out.stderr("--moving moves the synthetic chain only: drop --chain, or --moving");
    return 2;
  }
  if (o.timingScale !== undefined && !o.moving) {
    out.stderr("--timing-scale is the moving chain's: give --moving too");
    return 2;
  }
  const timingScale = o.timingScale === undefined ? DEFAULT_TIMING_SCALE : Number(o.timingScale);
  if (!(timingScale > 0) || !Number.isFinite(timingScale)) {
    out.stderr(`--timing-scale must be a number above 0, got ${JSON.stringify(o.timingScale)}`);
    return 2;
  }
  const net = await guarded(out, () =>
    startFixtureNetwork({
      ...(o.profile && o.profile.length > 0 ? { profiles: o.profile } : {}),
      ...(o.chain ? { chain: o.chain } : {}),
      ...(o.network ? { network: o.network } : {}),
      ...(o.host ? { host: o.host } : {}),
      acceptTransactions: o.acceptTransactions ?? false,
      ...(o.moving ? { moving: { timingScale } } : {}),
    }),
  );
  if (typeof net === "number") return net;
  let real: RealServers | undefined;
  if (o.real) {
    try {
      real = await startRealServers(net);
    } catch (e) {
      await net.close();
      out.stderr((e as Error).message);
      return 1;
    }
    for (const note of real.notes) out.stderr(note);
  }
  out.stdout(
    JSON.stringify({
      grpc: net.grpc,
      jsonrpc: net.jsonrpc,
      cookie: net.cookie,
      jsonrpcProfiles: net.jsonrpcProfiles,
      emulated: Object.keys(net.grpc).filter((p) => p !== "reference"),
      chain: describeChain(net.model),
      anchors: net.anchors,
      pid: process.pid,
      ...(o.moving ? { moving: { timingScale } } : {}),
      ...(real ? { real: realEntries(real) } : {}),
    }),
  );
  out.stderr(
    `fixture network up (${Object.keys(net.grpc).length} gRPC servers; profiles other than "reference" are emulations, not the real builds). Ctrl-C stops it.`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await real?.close();
  await net.close();
  return 0;
}

/** Declares `zconform fixture` on the program. */
export function registerFixture(program: Command, io: Output): void {
  program
    .command("fixture")
    .description("start the embedded fixture network and print its endpoints as one JSON line; runs until SIGINT/SIGTERM")
    .addOption(profileOption("profiles to serve", "all"))
    .option("--chain <file>", "serve real raw blocks from this file (hex lines or .bin) instead of the synthetic chain")
    .option("--network <name>", "the blocks' network when they do not start at genesis (mainnet, testnet, regtest)", oneOf(NETWORK_NAMES))
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--accept-transactions", "acknowledge decodable transactions in SendTransaction (nothing is added to the chain)")
    .option("--real", "also start the installed real servers of real-servers.yaml against the fixture's JSON-RPC and print their endpoints")
    .option("--moving", "the node's chain moves (synthetic chain only): its JSON-RPC answers generate and invalidateblock as a regtest zebrad does")
    // Worded as scenario's: the option means the same in both.
    .option("--timing-scale <x>", `the emulated builds' timings times this factor (default ${DEFAULT_TIMING_SCALE}: a 2 s poll takes 200 ms)`)
    .action(async (opts: FixtureOptions) => {
      // Once stopped and its servers closed, the process is done: a server-side handler whose
      // client went away mid-stream can keep its deadline timer (up to the call's grpc-timeout)
      // after the connection is gone, and that must not keep the stopped fixture alive.
      process.exit(await fixtureCommand(opts, io));
    });
}
