// Sharded runs merged equal an unsharded run, against the fixture network (every
// profile), through the commands a CI matrix runs: `demo --shard k/n --json` per shard,
// then `merge`. Excluded from the comparison — and only these — are what measures time
// and the port numbers of the fixture's servers (every run starts its own, on free ports):
//   startedAt, finishedAt, summary.durationMs,
//   cases[].answers[].ms, cases[].answers[].firstByteMs,
//   cases[].oracle.ms, cases[].oracle.firstByteMs,
//   the port in oracle, builds[].grpc and builds[].jsonrpc.
// And one ordering: a run's report lists cases in the order they finished (the event
// stream's order, which varies between runs), the merged one in corpus order; both are
// compared in corpus order, the top-level divergences list following its cases.
// The corpus is written here (not cases/) so the test does not move with the real
// corpus; its ledger has an entry that only some shards show (stale in the others, not
// after merging) and one that shows nowhere (stale after merging too).

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { mergeCommand } from "../../cli/merge.js";
import { runLikeCommand } from "../../cli/run.js";
import { corpusOrder } from "./merge.js";
import type { JsonReport } from "../../core/report/json.js";
import { readJsonReport } from "../../core/report/json-file.js";

const FILES: Record<string, string> = {
  "grpc/GetLatestBlock.yaml": `method: GetLatestBlock
cases:
  - id: tip
    request: {}
`,
  "grpc/GetBlock.yaml": `method: GetBlock
cases:
  - id: sapling-outputs
    request: { height: "\${block_with_sapling_outputs}" }
  - id: orchard
    request: { height: "\${block_with_orchard_actions}" }
  - id: coinbase-only
    request: { height: "\${block_coinbase_only}" }
  - id: many
    request: { height: "\${block_many_txs}" }
  - id: above-tip
    request: { height: "\${tip+1}" }
    expect: { error: [INVALID_ARGUMENT, NOT_FOUND, OUT_OF_RANGE] }
`,
  "grpc/GetTransaction.yaml": `method: GetTransaction
cases:
  - id: coinbase
    request: { hash: "\${txid_coinbase|le}" }
  - id: sapling
    request: { hash: "\${txid_sapling_v4|le}" }
  - id: orchard
    request: { hash: "\${txid_orchard_v5|le}" }
  - id: unknown
    request: { hash: { $hex: "ab", $repeat: 32 } }
    expect: { error: [NOT_FOUND] }
`,
  "grpc/GetTaddressBalanceStream.yaml": `method: GetTaddressBalanceStream
cases:
  - id: duplicated
    request: [{ address: "\${taddr_with_utxos}" }, { address: "\${taddr_with_utxos}" }]
  - id: single
    request: [{ address: "\${taddr_with_utxos}" }]
`,
  "jsonrpc/getblockcount.yaml": `method: getblockcount
cases:
  - id: plain
    request: []
`,
  "quirks.yaml": `quirks:
  - id: zaino-internal-unknown-txid
    title: Zaino answers INTERNAL for an unknown txid
    kind: error-code
    builds: [{ implementation: zaino }]
    match: { transport: grpc, methods: [GetTransaction], path: status.code, shape: { to: [INTERNAL] } }
    reference: spec/lightwallet-protocol.md §3.4
    status: open
  - id: balance-doubled
    title: A duplicated address is counted twice
    kind: multiplicity
    builds: [{ implementation: zaino }, { implementation: ztreamer, versions: [v0.1.0] }]
    match: { methods: [GetTaddressBalanceStream], path: valueZat, shape: { factor: 2 } }
    reference: published comparison
    status: open
  - id: never-shows
    title: An entry no build shows (stale in any run that exercises it)
    kind: value
    builds: [{ implementation: ztreamer }]
    match: { methods: [GetLatestBlock], path: height }
    reference: test
    status: open
`,
};

/** The report without the fields that measure time (see the file header). */
function timeless(r: JsonReport): unknown {
  const copy = JSON.parse(JSON.stringify(r)) as JsonReport;
  copy.cases.sort(corpusOrder);
  delete (copy as Partial<JsonReport>).startedAt;
  delete (copy as Partial<JsonReport>).finishedAt;
  if (copy.summary) delete (copy.summary as { durationMs?: number }).durationMs;
  for (const c of [...(copy.preflight?.builds ?? []), ...(copy.preflight?.oracle ? [copy.preflight.oracle] : [])]) delete (c as { ms?: number }).ms;
  for (const c of copy.cases) {
    for (const a of [...c.answers, ...(c.oracle ? [c.oracle] : [])]) {
      delete (a as { ms?: number }).ms;
      delete (a as { firstByteMs?: number }).firstByteMs;
    }
  }
  const port = (url: string | undefined) => url?.replace(/^(http:\/\/127\.0\.0\.1):\d+/, "$1");
  copy.oracle = port(copy.oracle ?? undefined) ?? null;
  copy.divergences = copy.cases.flatMap((c) => c.divergences);
  copy.builds = copy.builds.map((b) => ({ ...b, ...(b.grpc ? { grpc: port(b.grpc) } : {}), ...(b.jsonrpc ? { jsonrpc: port(b.jsonrpc) } : {}) }));
  return copy;
}

describe("sharded runs merged equal an unsharded run (fixture network, all profiles)", () => {
  let dir: string;
  const out = { stdout: () => {}, stderr: () => {} };
  const run = async (name: string, shard?: string) => {
    const json = join(dir, `${name}.json`);
    const code = await runLikeCommand({ cases: join(dir, "cases"), json, quiet: true, ...(shard ? { shard } : {}) }, out);
    return { code, json, report: readJsonReport(json) };
  };
  let whole: Awaited<ReturnType<typeof run>>;
  let shards: Awaited<ReturnType<typeof run>>[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zconform-shard-"));
    for (const [f, text] of Object.entries(FILES)) {
      const p = join(dir, "cases", f);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
    }
    whole = await run("whole");
    shards = [];
    for (const k of [1, 2, 3]) shards.push(await run(`shard-${k}`, `${k}/3`));
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("each shard records itself and runs its part; the parts cover the corpus once", () => {
    expect(shards.map((s) => s.report.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    const ids = shards.flatMap((s) => s.report.cases.map((c) => c.caseId));
    expect(ids.sort()).toEqual(whole.report.cases.map((c) => c.caseId).sort());
    expect(whole.report.cases.length).toBe(13);
  });

  test("an entry shown in one shard is stale in another shard alone, but not after merging", async () => {
    const staleIn = shards.map((s) => s.report.summary!.stale.map((x) => x.quirk));
    expect(staleIn.some((q) => q.includes("zaino-internal-unknown-txid"))).toBe(true);
    // Stale per build it covers: both Ztreamer profiles.
    expect(whole.report.summary!.stale.map((x) => x.quirk)).toEqual(["never-shows", "never-shows"]);
  });

  test("merge gives the unsharded report, timings aside, and the same exit code", async () => {
    const merged = join(dir, "merged.json");
    const code = await mergeCommand(
      shards.map((s) => s.json),
      { json: merged, quiet: true, ledger: join(dir, "cases", "quirks.yaml") },
      out,
    );
    const report = readJsonReport(merged);
    expect(timeless(report)).toEqual(timeless(whole.report));
    expect(code).toBe(whole.code);
    expect(report.summary!.stale.map((s) => s.quirk)).toEqual(["never-shows", "never-shows"]);
    expect(report.summary!.known).toBeGreaterThan(0);
  });

  test("merge ends as a run does: where the reports went and the verdict line, even with --quiet", async () => {
    const lines: string[] = [];
    const junit = join(dir, "merged.xml");
    const code = await mergeCommand(
      shards.map((s) => s.json),
      { junit, quiet: true, ledger: join(dir, "cases", "quirks.yaml") },
      { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) },
    );
    expect(code).toBe(whole.code);
    const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
    expect(plain).toContain(`reports written: JUnit ${junit}`);
    expect(plain.at(-1)).toMatch(new RegExp(`^exit ${code}: .*stale`));
  });

  test("merge refuses shards of different runs (exit 2) and names the field", async () => {
    const other = readJsonReport(shards[1]!.json);
    other.builds = other.builds.slice(1);
    const file = join(dir, "other.json");
    writeFileSync(file, JSON.stringify(other));
    const errors: string[] = [];
    const code = await mergeCommand(
      [shards[0]!.json, file, shards[2]!.json],
      { quiet: true, ledger: join(dir, "cases", "quirks.yaml") },
      { stdout: () => {}, stderr: (l) => errors.push(l) },
    );
    expect(code).toBe(2);
    expect(errors.join("\n")).toMatch(/cannot merge: .*other\.json and .*shard-1\.json differ in "builds"/);
  });

  test("merge refuses a sweep report with a clear message", async () => {
    const file = join(dir, "sweep.json");
    writeFileSync(file, JSON.stringify({ kind: "sweep", schemaVersion: 1, range: { from: 0, to: 1 } }));
    const errors: string[] = [];
    const code = await mergeCommand(
      [shards[0]!.json, file],
      { quiet: true, ledger: join(dir, "cases", "quirks.yaml") },
      { stdout: () => {}, stderr: (l) => errors.push(l) },
    );
    expect([code, errors.join("\n")]).toEqual([2, expect.stringMatching(/sweep\.json is a sweep report; merge joins the corpus reports/)]);
  });
});
