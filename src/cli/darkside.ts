// `zconform darkside`: real lightwalletd in darkside mode, fed runs of real blocks, its
// block rpcs compared byte for byte with the oracle over the same blocks. Without
// --chain, every run the chain-data folder offers. One line per run, every unexplained
// difference under it, totals at the end; --json FILE writes the same as JSON
// (schemas/darkside.schema.json). Exit codes: 0 every difference explained, 1 a
// difference is unexplained or a run failed, 2 bad input (no lightwalletd, no chain data,
// an unreadable ledger).

import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { darksideChainFromPath, darksideChainSources, type DarksideChainSource } from "../zcash/real/darkside-chains.js";
import { DARKSIDE_EXPLANATIONS } from "../zcash/real/darkside-compare.js";
import { LIGHTWALLETD_VERSION, lightwalletdBinary } from "../zcash/real/darkside-process.js";
import { DARKSIDE_BUILD, runDarkside, type DarksideChainReport, type Tally } from "../zcash/real/darkside-run.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface DarksideCommandOptions {
  chain?: string[];
  chainData?: string;
  lightwalletd?: string;
  cases?: string;
  ledger?: string;
  json?: string;
}

export const DARKSIDE_SCHEMA_VERSION = 1;

/** A run that could not be compared: the chain did not load, or lightwalletd refused it. */
export interface DarksideRunError {
  chain: string;
  error: string;
}

export interface DarksideReport {
  schemaVersion: typeof DARKSIDE_SCHEMA_VERSION;
  build: { name: string; implementation: "lightwalletd"; version: string; binary: string };
  explanations: Record<string, string>;
  runs: (DarksideChainReport | DarksideRunError)[];
  totals: { runs: number; failedRuns: number; blocksStaged: number; blocks: Tally; checks: Tally };
}

const add = (a: Tally, b: Tally): Tally => ({ equal: a.equal + b.equal, explained: a.explained + b.explained, unexplained: a.unexplained + b.unexplained });
const ZERO: Tally = { equal: 0, explained: 0, unexplained: 0 };

export function totalsOf(runs: DarksideReport["runs"]): DarksideReport["totals"] {
  const ok = runs.filter((r): r is DarksideChainReport => !("error" in r));
  return {
    runs: runs.length,
    failedRuns: runs.length - ok.length,
    blocksStaged: ok.reduce((n, r) => n + r.blocksStaged, 0),
    blocks: ok.reduce((t, r) => add(t, r.blocks), ZERO),
    checks: ok.reduce((t, r) => Object.values(r.rpcs).reduce(add, t), ZERO),
  };
}

function line(r: DarksideChainReport | DarksideRunError): string[] {
  if ("error" in r) return [`${r.chain}: FAILED ${r.error}`];
  const why = Object.entries(r.explanations).map(([k, n]) => `${k} ×${n}`).join(", ");
  const out = [`${r.chain} (${r.network} ${r.firstHeight}–${r.tipHeight}): ${r.blocksStaged} staged; GetBlock ${r.blocks.equal} equal, ${r.blocks.explained} explained, ${r.blocks.unexplained} unexplained${why ? `; ${why}` : ""}`];
  for (const c of r.checks) {
    for (const d of c.differences) {
      if (!d.explanation) out.push(`  NEW ${c.rpc} ${JSON.stringify(c.request)} ${d.path || "(answer)"} ${d.kind}: ${d.detail}`);
    }
  }
  return out;
}

function sources(o: DarksideCommandOptions): DarksideChainSource[] {
  if (o.chain?.length) {
    for (const f of o.chain) if (!existsSync(f)) throw new Error(`--chain ${f}: no such file or folder`);
    return o.chain.map(darksideChainFromPath);
  }
  const dir = o.chainData ?? process.env.ZCONFORM_CHAIN_DATA ?? join("..", "shared", "chain-data");
  return darksideChainSources(dir);
}

export async function darksideCommand(o: DarksideCommandOptions, out: Output): Promise<number> {
  const binary = o.lightwalletd ?? lightwalletdBinary();
  let ledger: Quirk[];
  let list: DarksideChainSource[];
  try {
    if (!existsSync(binary)) throw new Error(`lightwalletd not found at ${binary} (install lightwalletd ${LIGHTWALLETD_VERSION} with npm run real:install -- --only lightwalletd, or pass --lightwalletd)`);
    ledger = loadLedger(o.ledger ?? join(o.cases ?? "cases", "quirks.yaml"), { implementations: lightwalletProtocol.implementations });
    list = sources(o);
  } catch (e) {
    out.stderr((e as Error).message);
    return 2;
  }
  out.stdout(`${DARKSIDE_BUILD} at ${binary}, against the oracle over the same blocks`);
  const runs: DarksideReport["runs"] = [];
  for (const s of list) {
    let r: DarksideChainReport | DarksideRunError;
    try {
      r = await runDarkside(s.label, s.load(), { binary, ledger });
    } catch (e) {
      r = { chain: s.label, error: (e as Error).message };
    }
    runs.push(r);
    for (const l of line(r)) out.stdout(l);
  }
  const totals = totalsOf(runs);
  out.stdout(`total: ${totals.runs} runs (${totals.failedRuns} failed), ${totals.blocksStaged} blocks staged; GetBlock ${totals.blocks.equal} equal, ${totals.blocks.explained} explained, ${totals.blocks.unexplained} unexplained; all checks ${totals.checks.equal} equal, ${totals.checks.explained} explained, ${totals.checks.unexplained} unexplained`);
  if (o.json) {
    const report: DarksideReport = {
      schemaVersion: DARKSIDE_SCHEMA_VERSION,
      build: { name: DARKSIDE_BUILD, implementation: "lightwalletd", version: LIGHTWALLETD_VERSION, binary },
      explanations: { ...DARKSIDE_EXPLANATIONS },
      runs,
      totals,
    };
    writeFileAtomic(o.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  return totals.failedRuns > 0 || totals.checks.unexplained > 0 ? 1 : 0;
}
