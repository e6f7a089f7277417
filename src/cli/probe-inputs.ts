// What the probe commands (latency, wirecost) start from: the builds, the chain's anchors
// (requests name chain positions as cases do) and the chain's name — from a config file
// and its chain profile, or from the embedded fixture network.

import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import type { Anchors } from "../core/corpus/anchors.js";
import { loadChainProfile, withDynamic } from "../core/corpus/chain-profile.js";
import { ProblemsError } from "../core/io/located-yaml.js";
import { startFixtureNetwork, type ProfileName } from "../zcash/fixture/network.js";
import { isInsecure, loadConfig, type Build } from "../core/targets/config.js";
import { grpcTarget } from "../core/targets/grpc.js";
import { chainTip, type Tip } from "../zcash/start-facts.js";
import { InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface ProbeChoice {
  config?: string;
  demo?: boolean;
  build?: string[];
  cases?: string;
  profiles?: ProfileName[];
  chainFile?: string;
}

export interface ProbeInputs {
  builds: Build[];
  anchors: Anchors;
  chain: string;
  close(): Promise<void>;
}

/** Dynamic anchors (a live chain's tip) from the first build that answers GetLatestBlock. */
async function liveTip(builds: readonly Build[]): Promise<Tip | undefined> {
  const targets = builds.filter((b) => b.grpc).map((b) => ({ build: b, target: grpcTarget(b.grpc!) }));
  try {
    return await chainTip({ builds: targets });
  } finally {
    await Promise.all(targets.map((t) => t.target.close()));
  }
}

export async function probeInputs(o: ProbeChoice, out: Output): Promise<ProbeInputs> {
  if (o.config && o.demo) throw new InputError("--config and --demo exclude each other");
  if (o.config) {
    if (o.profiles || o.chainFile) throw new InputError("--profile and --chain are fixture options: drop --config, or them");
    const config = loadConfig(o.config, lightwalletProtocol);
    let builds = config.builds;
    if (o.build) {
      const unknown = o.build.filter((n) => !builds.some((b) => b.name === n));
      if (unknown.length > 0) throw new InputError(`--build: no build named ${unknown.join(", ")} in ${o.config}`);
      builds = builds.filter((b) => o.build!.includes(b.name));
    }
    for (const b of builds)
      for (const ep of [b.grpc, b.jsonrpc])
        if (ep && isInsecure(ep)) out.stderr(`WARNING: TLS certificate verification is OFF for build ${b.name} (${ep.url})`);
    let profile;
    try {
      profile = loadChainProfile(o.cases ?? SHIPPED_CASES, config.chain);
    } catch (e) {
      if (e instanceof ProblemsError) throw e;
      throw new InputError(`${o.config}: chain: ${(e as Error).message}`);
    }
    const tip = Object.keys(profile.dynamic).length > 0 ? await liveTip(builds) : undefined;
    return { builds, anchors: withDynamic(profile, tip ? { tip } : {}), chain: config.chain, close: async () => {} };
  }
  if (o.build) throw new InputError("--build selects builds of a config; against the fixture use --profile");
  out.stderr("Starting the embedded fixture network (emulated builds, not the real servers)…");
  const net = await startFixtureNetwork({ ...(o.profiles ? { profiles: o.profiles } : {}), ...(o.chainFile ? { chain: o.chainFile } : {}) });
  return { builds: net.builds(), anchors: net.anchors, chain: "fixture", close: () => net.close() };
}
