// `zconform fixture`: starts the embedded fixture network and keeps it up until SIGINT
// or SIGTERM. Prints exactly one line of JSON on stdout when ready, so scripts and CI
// can read the endpoints: {"grpc": {...}, "jsonrpc": "...", "cookie": "..."} plus the
// JSON-RPC endpoints of the profiles that serve one, the chain's anchors and its own pid
// (the process serving them all); with --real, per real server started against it: its
// gRPC endpoint, log file, pid and data dir, how long it took to first answer and to
// ingest the chain, and its entry as a build.

import { startFixtureNetwork, type ProfileName } from "../zcash/fixture/network.js";
import { describeChain } from "../zcash/fixture/chain/index.js";
import { startRealServers, realBuildName, type RealServers } from "../zcash/real/servers.js";
import type { NetworkName } from "../zcash/codec/network.js";
import { guarded } from "./inputs.js";
import type { Output } from "./output.js";

export interface FixtureOptions {
  profile?: ProfileName[];
  chain?: string;
  network?: NetworkName;
  host?: string;
  acceptTransactions?: boolean;
  /** Also start the installed real servers against the fixture's JSON-RPC. */
  real?: boolean;
}

function realEntries(real: RealServers): Record<string, unknown> {
  const builds = new Map(real.builds().map((b) => [b.name, b]));
  return Object.fromEntries(real.servers.map((s) => [realBuildName(s.pin), {
    grpc: s.grpcUrl, log: s.process.logFile, ingestMs: Math.round(s.ingestMs), firstAnswerMs: Math.round(s.firstAnswerMs),
    pid: s.process.pid, dataDir: s.dataDir, build: builds.get(realBuildName(s.pin)),
  }]));
}

export async function fixtureCommand(o: FixtureOptions, out: Output): Promise<number> {
  if (o.network && !o.chain) {
    out.stderr("--network names the network of a --chain file; give --chain too");
    return 2;
  }
  const net = await guarded(out, () => startFixtureNetwork({
    ...(o.profile && o.profile.length > 0 ? { profiles: o.profile } : {}),
    ...(o.chain ? { chain: o.chain } : {}),
    ...(o.network ? { network: o.network } : {}),
    ...(o.host ? { host: o.host } : {}),
    acceptTransactions: o.acceptTransactions ?? false,
  }));
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
  out.stdout(JSON.stringify({
    grpc: net.grpc,
    jsonrpc: net.jsonrpc,
    cookie: net.cookie,
    jsonrpcProfiles: net.jsonrpcProfiles,
    emulated: Object.keys(net.grpc).filter((p) => p !== "reference"),
    chain: describeChain(net.model),
    anchors: net.anchors,
    pid: process.pid,
    ...(real ? { real: realEntries(real) } : {}),
  }));
  out.stderr(`fixture network up (${Object.keys(net.grpc).length} gRPC servers; profiles other than "reference" are emulations, not the real builds). Ctrl-C stops it.`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await real?.close();
  await net.close();
  return 0;
}
