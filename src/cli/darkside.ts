// `zconform darkside`: real lightwalletd in darkside mode, fed runs of real blocks, its
// block rpcs compared byte for byte with the oracle over the same blocks. Without
// --chain, every run the chain-data folder offers. With --reorg, each run long enough is
// also reorganized in a lightwalletd of its own (src/zcash/real/darkside-reorg.ts). One
// line per run and per reorganization, every unexplained difference under it, totals at
// the end; --json FILE writes the same as JSON (schemas/darkside.schema.json). Exit codes:
// 0 every difference explained, 1 a difference is unexplained or a run failed, 2 bad
// input (no lightwalletd, no chain data, an unreadable ledger).

import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/io/atomic-write.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { darksideChainFromPath, darksideChainSources, type DarksideChain, type DarksideChainSource } from "../zcash/real/darkside-chains.js";
import { DARKSIDE_EXPLANATIONS } from "../zcash/real/darkside-compare.js";
import { lightwalletdVersion, lightwalletdBinary } from "../zcash/real/darkside-process.js";
import { reorgDepths, runDarksideReorg, type DarksideReorg, type DarksideReorgReport } from "../zcash/real/darkside-reorg.js";
import { darksideBuildName, runDarkside, type DarksideChainReport, type Tally } from "../zcash/real/darkside-run.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { collect } from "./options.js";

export interface DarksideCommandOptions {
  chain?: string[];
  chainData?: string;
  lightwalletd?: string;
  cases?: string;
  ledger?: string;
  json?: string;
  reorg?: boolean;
}

export const DARKSIDE_SCHEMA_VERSION = 1;

/** A run that could not be compared: the chain did not load, or lightwalletd refused it. */
export interface DarksideRunError {
  chain: string;
  error: string;
}

export interface DarksideReport {
  schemaVersion: typeof DARKSIDE_SCHEMA_VERSION;
  /** When the run started (ISO 8601): a report kept as evidence says when it was seen. */
  startedAt: string;
  build: { name: string; implementation: "lightwalletd"; version: string; binary: string };
  explanations: Record<string, string>;
  runs: (DarksideChainReport | DarksideRunError)[];
  /** With --reorg: every run reorganized. */
  reorgs?: (DarksideReorgReport | DarksideRunError)[];
  totals: { runs: number; failedRuns: number; blocksStaged: number; blocks: Tally; checks: Tally; reorgs?: ReorgTotals };
}

export interface ReorgTotals {
  runs: number;
  failedRuns: number;
  reorganizations: number;
  /** The reorganizations' own checks. */
  checks: Tally;
  /** The chains after them against the oracle. */
  compared: Tally;
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

export function reorgTotalsOf(runs: readonly (DarksideReorgReport | DarksideRunError)[]): ReorgTotals {
  const reorgs = runs.flatMap((r) => ("error" in r ? [] : r.reorgs));
  return {
    runs: runs.length,
    failedRuns: runs.filter((r) => "error" in r).length,
    reorganizations: reorgs.length,
    checks: reorgs.reduce((t, g) => add(t, g.tally), ZERO),
    compared: reorgs.reduce((t, g) => Object.values(g.compared.rpcs).reduce(add, t), ZERO),
  };
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? "not in time" : `in ${v} ms`);

function reorgLine(g: DarksideReorg): string[] {
  const cmp = Object.values(g.compared.rpcs).reduce(add, ZERO);
  const why = new Map<string, number>();
  for (const c of g.checks) for (const d of c.differences) if (d.explanation) why.set(d.explanation, (why.get(d.explanation) ?? 0) + 1);
  const c = g.convergence;
  const out = [
    `  depth ${g.depth} from ${g.forkHeight} (${g.droppedTransactions} transaction${g.droppedTransactions === 1 ? "" : "s"} dropped): tip named ${ms(c.tipMs)}, blocks served ${ms(c.blocksMs)}` +
      `${c.orphanedPolls ? ` (orphaned blocks served in ${c.orphanedPolls} of ${c.polls} polls)` : ""}; ` +
      `checks ${g.tally.equal} equal, ${g.tally.explained} explained, ${g.tally.unexplained} unexplained` +
      `${why.size ? ` (${[...why].map(([k, n]) => `${k} ×${n}`).join(", ")})` : ""}; ` +
      `chain after it ${cmp.equal} equal, ${cmp.explained} explained, ${cmp.unexplained} unexplained`,
  ];
  for (const k of g.checks) {
    for (const d of k.differences)
      if (!d.explanation) out.push(`    NEW ${k.check} ${k.rpc} ${JSON.stringify(k.request)} ${d.path || "(answer)"} ${d.kind}: ${d.detail}`);
  }
  for (const k of g.compared.checks) {
    for (const d of k.differences) if (!d.explanation) out.push(`    NEW ${k.rpc} ${JSON.stringify(k.request)} ${d.path || "(answer)"} ${d.kind}: ${d.detail}`);
  }
  return out;
}

function reorgLines(r: DarksideReorgReport | DarksideRunError): string[] {
  if ("error" in r) return [`reorganized ${r.chain}: FAILED ${r.error}`];
  return [`reorganized ${r.chain} (${r.network} ${r.firstHeight}–${r.tipHeight}):`, ...r.reorgs.flatMap(reorgLine)];
}

function line(r: DarksideChainReport | DarksideRunError): string[] {
  if ("error" in r) return [`${r.chain}: FAILED ${r.error}`];
  const why = Object.entries(r.explanations)
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ");
  const out = [
    `${r.chain} (${r.network} ${r.firstHeight}–${r.tipHeight}): ${r.blocksStaged} staged; GetBlock ${r.blocks.equal} equal, ${r.blocks.explained} explained, ${r.blocks.unexplained} unexplained${why ? `; ${why}` : ""}`,
  ];
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
  const startedAt = new Date();
  const binary = o.lightwalletd ?? lightwalletdBinary();
  let ledger: Quirk[];
  let list: DarksideChainSource[];
  try {
    if (!existsSync(binary))
      throw new Error(
        `lightwalletd not found at ${binary} (install lightwalletd ${lightwalletdVersion()} with npm run real:install -- --only lightwalletd, or pass --lightwalletd)`,
      );
    ledger = loadLedger(o.ledger ?? join(o.cases ?? SHIPPED_CASES, "quirks.yaml"), { implementations: lightwalletProtocol.implementations });
    list = sources(o);
  } catch (e) {
    out.stderr((e as Error).message);
    return 2;
  }
  out.stdout(`${darksideBuildName()} at ${binary}, against the oracle over the same blocks`);
  const runs: DarksideReport["runs"] = [];
  const reorgs: NonNullable<DarksideReport["reorgs"]> = [];
  for (const s of list) {
    let chain: DarksideChain | undefined;
    let r: DarksideChainReport | DarksideRunError;
    try {
      chain = s.load();
      r = await runDarkside(s.label, chain, { binary, ledger });
    } catch (e) {
      r = { chain: s.label, error: (e as Error).message };
    }
    runs.push(r);
    for (const l of line(r)) out.stdout(l);
    if (!o.reorg || !chain || reorgDepths(chain).length === 0) continue;
    let g: DarksideReorgReport | DarksideRunError;
    try {
      g = await runDarksideReorg(s.label, chain, { binary, ledger });
    } catch (e) {
      g = { chain: s.label, error: (e as Error).message };
    }
    reorgs.push(g);
    for (const l of reorgLines(g)) out.stdout(l);
  }
  const totals: DarksideReport["totals"] = { ...totalsOf(runs), ...(o.reorg ? { reorgs: reorgTotalsOf(reorgs) } : {}) };
  out.stdout(
    `total: ${totals.runs} runs (${totals.failedRuns} failed), ${totals.blocksStaged} blocks staged; GetBlock ${totals.blocks.equal} equal, ${totals.blocks.explained} explained, ${totals.blocks.unexplained} unexplained; all checks ${totals.checks.equal} equal, ${totals.checks.explained} explained, ${totals.checks.unexplained} unexplained`,
  );
  const rt = totals.reorgs;
  if (rt)
    out.stdout(
      `reorganizations: ${rt.reorganizations} in ${rt.runs} runs (${rt.failedRuns} failed); checks ${rt.checks.equal} equal, ${rt.checks.explained} explained, ${rt.checks.unexplained} unexplained; chains after them ${rt.compared.equal} equal, ${rt.compared.explained} explained, ${rt.compared.unexplained} unexplained`,
    );
  if (o.json) {
    const report: DarksideReport = {
      schemaVersion: DARKSIDE_SCHEMA_VERSION,
      startedAt: startedAt.toISOString(),
      build: { name: darksideBuildName(), implementation: "lightwalletd", version: lightwalletdVersion(), binary },
      explanations: { ...DARKSIDE_EXPLANATIONS },
      runs,
      ...(o.reorg ? { reorgs } : {}),
      totals,
    };
    writeFileAtomic(o.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  const reorgFailed = rt !== undefined && (rt.failedRuns > 0 || rt.checks.unexplained > 0 || rt.compared.unexplained > 0);
  return totals.failedRuns > 0 || totals.checks.unexplained > 0 || reorgFailed ? 1 : 0;
}

/** Declares `zconform darkside` on the program. */
export function registerDarkside(program: Command, io: Output): void {
  program
    .command("darkside")
    .description(
      "real lightwalletd in darkside mode fed real blocks (every run in the chain data, or --chain), its block rpcs compared byte for byte with the oracle",
    )
    .option("--chain <file>", "a file or folder of raw blocks to stage instead of every run in the chain data; repeatable", collect)
    .option("--chain-data <dir>", "chain data folder (default $ZCONFORM_CHAIN_DATA or ../shared/chain-data)")
    .option("--lightwalletd <path>", "the lightwalletd binary (default $ZCONFORM_LIGHTWALLETD or the install cache)")
    .addOption(casesOption("corpus folder (for the default ledger <cases>/quirks.yaml)"))
    .option("--ledger <file>", "known-quirks ledger (default <cases>/quirks.yaml)")
    .option(
      "--reorg",
      "also reorganize every run of at least two blocks (depths 1 and 3, where a block stays below the fork) and check what lightwalletd serves after it",
    )
    .option("--json <file>", "write the results as JSON (schemas/darkside.schema.json)")
    .action(async (opts: DarksideCommandOptions) => {
      process.exitCode = await darksideCommand(opts, io);
    });
}
