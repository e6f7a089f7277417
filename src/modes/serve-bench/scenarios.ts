// What serve-bench measures, as data: the scenarios of the published comparison of
// lightwallet servers, resolved against one chain. A range scenario streams
// GetBlockRange (a 1,000-block range ending at the tip, or the whole wallet download
// from Sapling activation to the tip) from N concurrent clients; a block scenario has N
// clients asking single-block GetBlock one after another; a latency scenario times one
// small unary rpc, one call at a time. The 1-client range row is the comparison's
// "1,000-block range" figure; the other client counts are its concurrency sweep.

import type { Anchors } from "../../core/corpus/anchors.js";
import { probeSpec, type ProbeSpec } from "../latency/probe.js";

export interface HeightRange {
  from: number;
  to: number;
}

interface ScenarioBase {
  /** Stable across runs and versions: `range-1000.c8`, `download.c1`, `block.c128`, `latency.GetTreeState`. */
  id: string;
  label: string;
  clients: number;
}

export interface RangeScenario extends ScenarioBase {
  kind: "range";
  /** Each client streams this whole range once. */
  range: HeightRange;
}

export interface BlockScenario extends ScenarioBase {
  kind: "block";
  /** Each client asks `requestsPerClient` single blocks in turn, at heights spread over this range. */
  range: HeightRange;
  requestsPerClient: number;
}

export interface LatencyScenario extends ScenarioBase {
  kind: "latency";
  probe: ProbeSpec;
  calls: number;
}

export type Scenario = RangeScenario | BlockScenario | LatencyScenario;

export const RANGE_BLOCKS = 1000;
export const DEFAULT_CLIENTS = [1, 2, 4, 8, 16, 32, 64, 128] as const;
export const DEFAULT_LATENCY_RPCS = ["GetLightdInfo", "GetTreeState", "GetLatestBlock"] as const;

export interface ScenarioOptions {
  anchors: Anchors;
  /** The full wallet download; default `sapling_activation`..`tip`. */
  download?: HeightRange;
  clients: readonly number[];
  blockRequests: number;
  latencyRpcs: readonly string[];
  latencyCalls: number;
}

export interface ScenarioPlan {
  scenarios: Scenario[];
  /** The 1,000-block range (shorter when the chain above Sapling activation is). */
  range: HeightRange;
  download: HeightRange;
  skipped: { scenario: string; reason: string }[];
}

export class ScenarioError extends Error {}

function height(anchors: Anchors, name: string): number {
  const v = anchors[name];
  if (typeof v !== "number" || !Number.isSafeInteger(v)) {
    throw new ScenarioError(`the chain has no "${name}" anchor to place the ranges by: give --range FROM..TO`);
  }
  return v;
}

export const blockCount = (r: HeightRange) => r.to - r.from + 1;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
const thousands = (n: number) => n.toLocaleString("en-US");

export function planScenarios(o: ScenarioOptions): ScenarioPlan {
  const download = o.download ?? { from: height(o.anchors, "sapling_activation"), to: height(o.anchors, "tip") };
  if (download.to < download.from) throw new ScenarioError(`the download range ${download.from}..${download.to} is empty`);
  // Ranges start no lower than the download: servers such as lightwalletd keep no blocks below Sapling activation.
  const range = { from: Math.max(download.from, download.to - RANGE_BLOCKS + 1), to: download.to };
  const short = blockCount(range) < RANGE_BLOCKS ? ` (${thousands(blockCount(range))} on this chain)` : "";
  const scenarios: Scenario[] = [];
  for (const clients of o.clients) {
    scenarios.push({ kind: "range", id: `range-1000.c${clients}`, label: `GetBlockRange 1,000 blocks${short}, ${plural(clients, "client")}`, clients, range });
  }
  scenarios.push({
    kind: "range",
    id: "download.c1",
    clients: 1,
    range: download,
    label: `wallet download ${download.from}..${download.to} (${thousands(blockCount(download))} blocks), 1 client`,
  });
  for (const clients of o.clients) {
    scenarios.push({
      kind: "block",
      id: `block.c${clients}`,
      clients,
      range,
      requestsPerClient: o.blockRequests,
      label: `GetBlock single blocks, ${plural(clients, "client")} × ${o.blockRequests}`,
    });
  }
  const skipped: ScenarioPlan["skipped"] = [];
  for (const rpc of o.latencyRpcs) {
    const spec = probeSpec(rpc, o.anchors);
    if ("skipped" in spec) skipped.push({ scenario: `latency.${rpc}`, reason: spec.skipped });
    else
      scenarios.push({
        kind: "latency",
        id: `latency.${rpc}`,
        label: `${rpc} latency, ${o.latencyCalls} calls`,
        clients: 1,
        probe: spec,
        calls: o.latencyCalls,
      });
  }
  return { scenarios, range, download, skipped };
}

/** The height client `client` asks on its `call`-th GetBlock: clients spread over the range so they do not all ask the same block. */
export function blockHeight(s: BlockScenario, client: number, call: number): number {
  const n = blockCount(s.range);
  return s.range.from + (((client * s.requestsPerClient + call) * 7919) % n);
}
