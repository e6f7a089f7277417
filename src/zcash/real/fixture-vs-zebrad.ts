// The fixture's Zebra-style JSON-RPC (the node the fixture's builds are backed by in a
// `zconform regtest` run, serving the blocks real zebrad mined) against real zebrad (the
// run's oracle), per method of the JSON-RPC corpus: how many cases answer the same bytes,
// and every difference grouped by field with the reason it is there. Both answers are in
// the run's JSON report (the oracle's, and the fixture node's among otherOracles);
// docs/fixture-vs-zebrad.md and its JSON twin are written from it.

import { compareObservations } from "../../core/diff/compare.js";
import type { JsonReport } from "../../core/report/json.js";
import type { Answer } from "../../core/results/result.js";
import { ORACLE } from "../../core/run/judge.js";
import type { JsonRpcObservation } from "../../core/targets/observation.js";

export interface FixtureDifference {
  path: string;
  kind: string;
  cases: string[];
  /** One divergence's detail, as the report states it. */
  example: string;
  /** Why the fixture differs, or undefined when no known reason covers it. */
  reason: string | undefined;
}

export interface FixtureMethodRow {
  method: string;
  /** Cases of the method the run judged (not skipped). */
  cases: number;
  /** Of those, the cases where the reference answered what zebrad answered. */
  equal: number;
  skipped: number;
  differences: FixtureDifference[];
}

interface Reason {
  methods?: readonly string[];
  path: RegExp;
  why: string;
}

const ROOTS =
  "the fixture's note commitment trees hash nodes with a stand-in (src/zcash/fixture/chain/node-hash.ts), not Pedersen/Sinsemilla: sizes and encodings agree, roots cannot";
const NODE_VERSION = "the fixture speaks for the zebrad its Zebra personality was taken from (v6.3.0, protocol 170160); the oracle is zebrad 7.0.0";

/** Known reasons, first match wins. Each was read off a `zconform regtest` run against zebrad 7.0.0. */
export const REASONS: readonly Reason[] = [
  { path: /(^|\.)final(sapling|orchard)root$|\.finalRoot$/, why: ROOTS },
  { methods: ["getinfo"], path: /^result\.(build|version|protocolversion)$/, why: NODE_VERSION },
  {
    methods: ["getinfo"],
    path: /^result\.errors$/,
    why: 'node status: zebrad without peers reports "chain tip metrics channel closed"; the fixture has no status to report',
  },
  { methods: ["getmempoolinfo"], path: /^result\.fully_notified$/, why: `${NODE_VERSION}; 7.0.0 has no fully_notified` },
  {
    path: /^error\.data$/,
    why: 'zebrad 7.0.0 puts the parameter parser\'s words in error.data ("No more params", "invalid type: …"); the fixture sends code and message only',
  },
  { methods: ["getblock"], path: /^error\.code$/, why: `${NODE_VERSION}; 7.0.0 accepts getblock verbosity 3` },
  { methods: ["getblocksubsidy"], path: /^error\.code$/, why: `${NODE_VERSION}; 7.0.0 refuses heights above Height::MAX (-8)` },
  { methods: ["gettxout"], path: /^error\.code$/, why: `${NODE_VERSION}; 7.0.0 answers a malformed txid with -8 where the fixture answers -5` },
  {
    methods: ["sendrawtransaction"],
    path: /^error\.message$/,
    why: "the transaction parser's own words: zebrad's Rust parser (\"io error: failed to fill whole buffer\") and the fixture's decoder name the same failure differently",
  },
  {
    methods: ["getrawmempool"],
    path: /^result\.[0-9a-f]{64}\.time$/,
    why: "the wall clock: when the transaction entered zebrad's mempool; the fixture's mempool transactions carry a fixed time",
  },
  {
    methods: ["getaddressutxos"],
    path: /^result$/,
    why: `${NODE_VERSION}; 7.0.0 applies startHeight and maxEntries (the keys lightwalletd sends), which the fixture ignores`,
  },
];

export function reasonFor(method: string, path: string): string | undefined {
  return REASONS.find((r) => (r.methods === undefined || r.methods.includes(method)) && r.path.test(path))?.why;
}

/** A JSON-RPC answer of a report as the observation it was (its body bytes). */
function observationOf(a: Answer): JsonRpcObservation {
  const body = Buffer.from(a.hex.join(""), "hex");
  return { transport: "jsonrpc", method: "", httpStatus: 200, body, wireBytes: body.length, timing: { startedAt: 0, totalMs: a.ms } };
}

/**
 * Per JSON-RPC method of the run, the fixture's node (the answer its builds are measured
 * against, side "oracle:fixture") against zebrad's (the run's oracle), compared as the run
 * compares answers. A case that expects an error asks no oracle: there the reference
 * build, the fixture's node's own server, is measured against the expected error.
 */
export function fixtureVsZebrad(report: JsonReport, node = `${ORACLE}:fixture`, reference = "reference"): FixtureMethodRow[] {
  const rows = new Map<string, FixtureMethodRow>();
  const groups = new Map<string, FixtureDifference>();
  for (const c of report.cases) {
    if (c.transport !== "jsonrpc") continue;
    const row = rows.get(c.method) ?? { method: c.method, cases: 0, equal: 0, skipped: 0, differences: [] };
    rows.set(c.method, row);
    const fixture = c.otherOracles?.find((a) => a.side === node);
    const againstError = c.expect.startsWith("error") && c.answers.some((a) => a.side === reference);
    const comparable = c.oracle && fixture && !c.oracle.elided && !fixture.elided;
    if (c.skipped !== undefined || (!comparable && !againstError)) {
      row.skipped++;
      continue;
    }
    const mine = comparable
      ? compareObservations(observationOf(c.oracle!), observationOf(fixture!), {
          left: ORACLE,
          right: node,
          volatile: c.volatile,
          ...(c.unorderedKeys ? { unorderedKeys: c.unorderedKeys } : {}),
        }).divergences
      : c.divergences.filter((d) => d.build === reference && d.left === "expected");
    row.cases++;
    if (mine.length === 0) row.equal++;
    for (const d of mine) {
      const key = `${c.method}\u0000${d.path}\u0000${d.kind}`;
      let g = groups.get(key);
      if (!g) {
        g = { path: d.path, kind: d.kind, cases: [], example: d.detail ?? "", reason: reasonFor(c.method, d.path) };
        groups.set(key, g);
        row.differences.push(g);
      }
      if (!g.cases.includes(c.caseId)) g.cases.push(c.caseId);
    }
  }
  return [...rows.values()].sort((a, b) => a.method.localeCompare(b.method));
}

export function fixtureVsZebradMarkdown(rows: readonly FixtureMethodRow[], about: { zebrad: string; tip: number; startedAt: string }): string {
  const unexplained = rows.flatMap((r) => r.differences.filter((d) => d.reason === undefined).map((d) => `${r.method} ${d.path}`));
  const out = [
    "# The fixture's JSON-RPC against real zebrad",
    "",
    `Generated by \`npm run docs:fixture-vs-zebrad\` from a \`zconform regtest\` run (${about.startedAt}): the fixture's`,
    `Zebra-style JSON-RPC (the node its builds are backed by, \`oracle:fixture\`) serving the ${about.tip + 1} blocks real zebrad ${about.zebrad} mined, against that`,
    "zebrad's own JSON-RPC (the oracle), over the JSON-RPC corpus (cases/jsonrpc). Cases not compared lack an anchor on",
    "this chain (Sprout data, for one: the regtest chain starts after Canopy), or ask neither node (the `agree` cases of",
    "methods only Zaino serves, such as getblockdeltas). The JSON twin is",
    "docs/fixture-vs-zebrad.json (schemas/fixture-vs-zebrad.schema.json).",
    "",
    "| method | judged | equal | skipped | differences |",
    "|---|---:|---:|---:|---|",
    ...rows.map(
      (r) => `| ${r.method} | ${r.cases} | ${r.equal} | ${r.skipped} | ${r.differences.map((d) => `\`${d.path}\` (${d.cases.length})`).join(", ") || "none"} |`,
    ),
    "",
    "## Why they differ",
    "",
    ...rows.flatMap((r) =>
      r.differences.map((d) => `- **${r.method}** \`${d.path}\` (${d.kind}; ${d.cases.join(", ")}): ${d.reason ?? "NO KNOWN REASON"}. Example: ${d.example}`),
    ),
    "",
    unexplained.length === 0 ? "Every difference has a known reason." : `Without a known reason: ${unexplained.join("; ")}.`,
    "",
  ];
  return out.join("\n");
}
