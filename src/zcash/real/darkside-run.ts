// One darkside run: a fresh lightwalletd in darkside mode and the fixture's Zebra-style
// JSON-RPC over the same blocks (the oracle), the blocks staged, the block rpcs compared,
// and the counts a report shows. A fresh process per chain keeps runs independent (and
// steers clear of Reset while lightwalletd's ingestor is busy, which can block).

import type { BuildIdentity } from "../../core/ledger/classify.js";
import type { Quirk } from "../../core/ledger/quirk.js";
import { grpcTarget } from "../../core/targets/grpc.js";
import { jsonRpcTarget } from "../../core/targets/jsonrpc.js";
import type { DarksideChain } from "./darkside-chains.js";
import { startFixtureNetwork } from "../fixture/network.js";
import { deriveFromOracle } from "../oracle/derive.js";
import { compareDarkside, type CheckResult, type DarksideCheck } from "./darkside-compare.js";
import { lightwalletdVersion, startDarkside } from "./darkside-process.js";
import { stageChain } from "./darkside.js";

export interface Tally {
  equal: number;
  explained: number;
  unexplained: number;
}

export interface DarksideChainReport {
  chain: string;
  network: string;
  firstHeight: number;
  tipHeight: number;
  blocksStaged: number;
  /** Tree sizes before the first block given to Reset, and the real tree state they come from. */
  before?: { sapling: number; orchard: number; source: string };
  /** GetBlock of every staged height. */
  blocks: Tally;
  /** Every check, per rpc. */
  rpcs: Record<string, Tally>;
  /** How many differences each explanation accounts for. */
  explanations: Record<string, number>;
  checks: DarksideCheck[];
}

export interface DarksideRunOptions {
  binary?: string;
  ledger: readonly Quirk[];
}

/** The build name darkside answers are filed under. */
export function darksideBuildName(): string {
  return `lightwalletd ${lightwalletdVersion()} (real, darkside)`;
}

/** What the ledger knows the darkside build as. */
export function darksideIdentity(): BuildIdentity {
  return { name: darksideBuildName(), implementation: "lightwalletd", version: lightwalletdVersion().replace(/^v/, "") };
}

export function tally(checks: readonly { result: CheckResult }[]): Tally {
  const t: Tally = { equal: 0, explained: 0, unexplained: 0 };
  for (const c of checks) t[c.result]++;
  return t;
}

export function summarize(chain: string, run: DarksideChain, checks: DarksideCheck[]): DarksideChainReport {
  const model = run.model;
  const rpcs: Record<string, Tally> = {};
  for (const name of [...new Set(checks.map((c) => c.rpc))]) rpcs[name] = tally(checks.filter((c) => c.rpc === name));
  const explanations: Record<string, number> = {};
  for (const c of checks) for (const d of c.differences) if (d.explanation) explanations[d.explanation] = (explanations[d.explanation] ?? 0) + 1;
  return {
    chain,
    network: model.network.name,
    firstHeight: model.baseHeight,
    tipHeight: model.tipHeight,
    blocksStaged: model.blocks.length,
    ...(run.before && run.beforeSource ? { before: { ...run.before, source: run.beforeSource } } : {}),
    blocks: tally(checks.filter((c) => c.rpc === "GetBlock")),
    rpcs,
    explanations,
    checks,
  };
}

export async function runDarkside(chain: string, run: DarksideChain, o: DarksideRunOptions): Promise<DarksideChainReport> {
  const model = run.model;
  const net = await startFixtureNetwork({ chain: model, profiles: [] });
  try {
    const lwd = await startDarkside(o.binary ? { binary: o.binary } : {});
    const target = grpcTarget({ url: lwd.grpcUrl });
    try {
      await stageChain(target, model, { log: lwd.log, ...(run.before ? { before: run.before } : {}) });
      const oracle = jsonRpcTarget({ url: net.jsonrpc, auth: { kind: "cookie", cookieFile: net.cookie } });
      return summarize(chain, run, await compareDarkside(target, deriveFromOracle(oracle), model, { ledger: o.ledger, build: darksideIdentity() }));
    } finally {
      await target.close();
      await lwd.stop();
    }
  } finally {
    await net.close();
  }
}
