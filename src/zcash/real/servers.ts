// The real servers of a run, started against a fixture network's Zebra-style JSON-RPC
// (its oracle) and turned into builds beside the reference and the emulations:
// "lightwalletd v0.5.4 (real)", "zaino 0.10.1 (real)". A server that is not installed, or
// that is installed but cannot ingest the chain, is a note quoting why (its log's last
// lines): the run goes on with the other builds, and a test that needs the server fails
// on its absence.

import { readFileSync } from "node:fs";
import { DEFAULT_LIMITS, type Build, type Limits } from "../../core/targets/config.js";
import type { FixtureNetwork } from "../fixture/network.js";
import { startLightwalletd, type NodeRpc, type RunningRealServer, type StartOptions } from "./lightwalletd.js";
import { RealServerError } from "./process.js";
import { startZainod } from "./zainod.js";
import { binaryPath, describePin, isInstalled, loadPins, pinsOf, type Pin } from "./pins.js";

export interface RealServers {
  builds(limits?: Partial<Limits>): Build[];
  servers: RunningRealServer[];
  /** What was not started and why (not installed, could not ingest the chain). */
  notes: string[];
  close(): Promise<void>;
}

export interface RealOptions {
  /** Which servers to start; default every installed version of each lightwalletd and zainod pin. */
  only?: ("lightwalletd" | "zainod")[];
  ping?: boolean;
  pinsFile?: string;
  /** Bring each server to its steady state before the run (see StartOptions.steady): `fidelity` only. */
  steady?: boolean;
}

/**
 * How long a case may take against a real server. zainod 0.9.0 asks its node five times
 * per transaction in GetTaddressTxids/Transactions (0.10.1 three times), so a 160-transaction
 * answer takes seconds on an idle machine and more than 15 s on a busy one; slow is not stuck.
 */
export const REAL_DEADLINE_MS = 60_000;

/** The label a real build carries in every report. */
export function realBuildName(pin: Pin): string {
  return pin.name === "zainod" ? `zaino ${pin.version} (real)` : `${pin.name} ${pin.version} (real)`;
}

export function oracleRpc(net: FixtureNetwork): NodeRpc {
  const [user, password] = readFileSync(net.cookie, "utf8").split(":") as [string, string];
  return { url: net.jsonrpc, user, password, cookieFile: net.cookie, network: net.model.network.name };
}

/**
 * Starts every installed version of each named indexer against `node`, one after another.
 * What is not installed, or cannot ingest the chain, is a note saying why; `servers` holds
 * what did start (the caller closes them, also when this throws).
 */
export async function startIndexers(
  pins: Pin[],
  wanted: readonly ("lightwalletd" | "zainod")[],
  node: NodeRpc,
  o: StartOptions,
  servers: RunningRealServer[],
): Promise<string[]> {
  const notes: string[] = [];
  for (const pin of wanted.flatMap((name) => pinsOf(pins, name))) {
    if (!isInstalled(pin)) {
      notes.push(`${realBuildName(pin)} not started: ${binaryPath(pin)} is not installed (npm run real:install -- --only ${pin.name})`);
      continue;
    }
    try {
      servers.push(pin.name === "lightwalletd" ? await startLightwalletd(pin, node, o) : await startZainod(pin, node, o));
    } catch (e) {
      if (!(e instanceof RealServerError)) throw e;
      notes.push(`${realBuildName(pin)} not started: ${e.message}`);
    }
  }
  return notes;
}

export async function startRealServers(net: FixtureNetwork, o: RealOptions = {}): Promise<RealServers> {
  const pins = o.pinsFile ? loadPins(o.pinsFile) : loadPins();
  const servers: RunningRealServer[] = [];
  let notes: string[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.close()));
  };
  const tip = net.model.blocks[net.model.blocks.length - 1]!.height;
  try {
    notes = await startIndexers(
      pins,
      o.only ?? ["lightwalletd", "zainod"],
      oracleRpc(net),
      { tip, ...(o.ping ? { ping: true } : {}), ...(o.steady ? { steady: true } : {}) },
      servers,
    );
  } catch (e) {
    await close();
    throw e;
  }
  const builds = (limits: Partial<Limits> = {}): Build[] =>
    servers.map((s) => ({
      ...DEFAULT_LIMITS,
      ...limits,
      name: realBuildName(s.pin),
      implementation: s.pin.name === "zainod" ? "zaino" : "lightwalletd",
      version: s.pin.version,
      grpc: { url: s.grpcUrl },
      ...(s.jsonrpc ? { jsonrpc: s.jsonrpc } : {}),
      emulated: false,
      pin: `${describePin(s.pin)}, real-servers.yaml`,
      source: { file: "real-servers.yaml", line: 0 },
    }));
  return { builds, servers, notes, close };
}
