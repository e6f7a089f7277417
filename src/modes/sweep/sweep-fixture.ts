// The fixture a sweep runs against when no config is given: the embedded fixture network
// (the synthetic chain, or real blocks from --chain), or with --long-chain a lazily
// generated chain of N+1 cheap blocks (src/zcash/fixture/chain/long.ts) served by one gRPC
// server per profile and, for --oracle, a Zebra-style JSON-RPC server. The full network
// computes anchors over every block, which a million-block lazy chain must not do, so
// the long chain gets only the servers a sweep talks to.

import { startFixtureNetwork, type ProfileName, PROFILE_NAMES } from "../../zcash/fixture/network.js";
import { longChain } from "../../zcash/fixture/chain/long.js";
import type { ChainModel } from "../../zcash/fixture/chain/model.js";
import { profileByName } from "../../zcash/fixture/grpc/profiles.js";
import { startGrpcServer, type RunningGrpcServer } from "../../zcash/fixture/grpc/server.js";
import { startJsonRpcServer, type JsonRpcServer } from "../../zcash/fixture/jsonrpc/index.js";
import { DEFAULT_LIMITS, type Build, type JsonRpcEndpoint } from "../../core/targets/config.js";

export interface SweepFixtureOptions {
  profiles?: readonly ProfileName[];
  /** Real raw blocks instead of the synthetic chain. */
  chainFile?: string;
  /** A lazily generated chain with this tip instead. */
  longChain?: number;
  shieldedEvery?: number;
  /** Start the Zebra-style JSON-RPC oracle too. */
  oracle: boolean;
}

export interface SweepFixture {
  builds: Build[];
  oracle?: JsonRpcEndpoint;
  chainLabel: string;
  tip: number;
  model: ChainModel;
  close(): Promise<void>;
}

export function fixtureBuild(name: ProfileName, url: string): Build {
  const p = profileByName(name);
  return {
    ...DEFAULT_LIMITS,
    name,
    implementation: p.implementation === "reference" ? "other" : p.implementation,
    version: p.version,
    ...(p.protocolVersion ? { protocolVersion: p.protocolVersion } : {}),
    grpc: { url },
    emulated: p.emulated,
    profile: name,
    source: { file: "(fixture network)", line: 0 },
  };
}

export async function startSweepFixture(o: SweepFixtureOptions): Promise<SweepFixture> {
  const names = o.profiles && o.profiles.length > 0 ? o.profiles : PROFILE_NAMES;
  if (o.longChain === undefined) {
    const net = await startFixtureNetwork({ profiles: names, ...(o.chainFile ? { chain: o.chainFile } : {}) });
    return {
      builds: net.builds().map((b) => ({ ...b, jsonrpc: undefined })),
      ...(o.oracle ? { oracle: { url: net.jsonrpc, auth: { kind: "cookie" as const, cookieFile: net.cookie } } } : {}),
      chainLabel: net.model.label,
      tip: net.model.tipHeight,
      model: net.model,
      close: () => net.close(),
    };
  }
  const model = longChain({ tip: o.longChain, ...(o.shieldedEvery !== undefined ? { shieldedEvery: o.shieldedEvery } : {}) });
  const grpc: RunningGrpcServer[] = [];
  let rpc: JsonRpcServer | undefined;
  const close = async () => {
    await Promise.all([...grpc.map((s) => s.close()), rpc?.close()]);
  };
  try {
    for (const name of names) grpc.push(await startGrpcServer({ model, profile: name }));
    if (o.oracle) rpc = await startJsonRpcServer({ model, profile: "zebra" });
  } catch (e) {
    await close();
    throw e;
  }
  return {
    builds: names.map((name, i) => fixtureBuild(name, grpc[i]!.url)),
    ...(rpc ? { oracle: { url: rpc.url, auth: { kind: "cookie" as const, cookieFile: rpc.cookieFile! } } } : {}),
    chainLabel: model.label,
    tip: model.tipHeight,
    model,
    close,
  };
}
