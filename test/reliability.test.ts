// docs/reliability.md: every attack on a run that zconform is known to withstand, what it
// does instead, and the test that proves it. Each row names its test by file and title;
// this test fails when a named test no longer exists, and when the page differs from
// what these rows render (ZCONFORM_WRITE_DOCS=1 rewrites it: `npm run docs:reliability`).
// The fault proxy's rows come from its own table, which test/faults.test.ts runs.

import { describe, expect, test } from "@jest/globals";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./tools/cli.js";
import { FAULT_ROWS, type FaultRow } from "./tools/fault-table.js";

interface Row {
  attack: string;
  behaviour: string;
  /** The proving test: its file and its exact title. */
  proof: { file: string; title: string };
}

const HOSTILE = "test/hostile-builds.test.ts";
const hostile = (name: string) => ({ file: HOSTILE, title: name });

/** The attacks of the hardening issue, each with what zconform does now. */
const ATTACKS: Row[] = [
  { attack: "A build streams GetBlockRange forever in small (181-byte) messages",
    behaviour: "the call is cut at maxStreamMessages (100,000) or maxCallBytes (64 MiB), a `too-long`/`too-large` fault of that build; the run completes under 1 GB",
    proof: hostile("an endless stream of small messages") },
  { attack: "A build streams 1 MiB messages forever (also with maxStreamMessages: 1000)",
    behaviour: "cut at maxCallBytes (64 MiB per call, so at most concurrency × 64 MiB per build): `too-large`; answers over 1 MiB kept as length, SHA-256, head and tail",
    proof: hostile("an endless stream of 1 MiB messages") },
  { attack: "A frame with a 4 GiB length prefix",
    behaviour: "refused at the prefix (over maxMessageBytes) before any byte is buffered: `too-large`",
    proof: hostile("a 4 GiB length prefix") },
  { attack: "An endless answer to the startup GetLightdInfo (limits ignored at startup)",
    behaviour: "startup calls keep the build's limits (they are the target's defaults); the run starts and completes",
    proof: hostile("an endless startup GetLightdInfo") },
  { attack: "A dozen 16 MiB JSON-RPC answers (crashed the JSON report writer; JUnit and HTML never written)",
    behaviour: "answers kept elided; reports written part by part, so no single string holds them; all three reports valid",
    proof: hostile("12 JSON-RPC answers of 16 MiB") },
  { attack: "A 200 MB JSON-RPC body",
    behaviour: "cut at maxMessageBytes: `too-large`; the healthy build's results intact",
    proof: hostile("a 200 MB JSON-RPC body") },
  { attack: "One report writer fails",
    behaviour: "the other reports are still written; exit 2 names the one that failed",
    proof: { file: "test/report-writers.test.ts", title: "a report that cannot be written does not keep the others from being written; the run says which failed" } },
  { attack: "A valid transaction with a trailing byte, as SendTransaction or sendrawtransaction",
    behaviour: "a transaction when any prefix decodes as one (nodes ignore trailing bytes): never sent without --allow-broadcast, to a build or the oracle",
    proof: { file: "test/broadcast.test.ts", title: "without --allow-broadcast a valid transaction is never sent, to a build or to the oracle" } },
  { attack: "--allow-broadcast against servers that are not on regtest while the profile says regtest",
    behaviour: "sent only when every server says regtest (GetLightdInfo.chainName, getblockchaininfo.chain); the skipped cases name the servers that did not",
    proof: { file: "test/broadcast.test.ts", title: "a regtest chain profile with --allow-broadcast sends nothing when a server says its chain is not regtest" } },
  { attack: "Secrets echoed by a server: a URL query key, a header not named like a credential, a bearer token in base64 at byte offset 1 or 2, a password as upper-case hex, a `\\u`-escaped password in raw body hex; a URL password in a config error",
    behaviour: "every credential, header value and URL query value is a secret unless marked public, masked in every output in each of those encodings; config errors never quote it",
    proof: { file: "test/secrets-encodings.test.ts", title: "no marker, in any encoding, in any report, golden, stream or config error" } },
  { attack: "A ledger glob such as `*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b` against a long case id",
    behaviour: "globs matched without backtracking: well under a second on a 1,000-character id",
    proof: { file: "src/core/corpus/glob.test.ts", title: "the pathological pattern ends in well under a second on a 1,000-character id" } },
  { attack: "Ctrl-C during a run",
    behaviour: "the run stops and writes partial reports; a second Ctrl-C quits at once",
    proof: { file: "test/reports-written.test.ts", title: "SIGINT stops the run, and the reports hold the finished cases, marked partial" } },
  { attack: "A case file with a flood of syntax errors (overflowed the stack, exit 1)",
    behaviour: "problems gathered without stack growth: exit 2, the first hundred by file:line, the rest counted",
    proof: { file: "test/input-limits.test.ts", title: "a case file under the size limit with 100,000 syntax errors: exit 2, the first problems by line, the rest counted" } },
  { attack: "A 50 MB case file (ran out of memory)",
    behaviour: "refused by size before it is read: exit 2 at file:1",
    proof: { file: "test/input-limits.test.ts", title: "a 50 MB case file is refused before it is read" } },
  { attack: "A config whose YAML aliases multiply a long list (67 s, 1.8 GB)",
    behaviour: "expansion limited to 100,000 values: exit 2 with the line in seconds",
    proof: { file: "test/input-limits.test.ts", title: "a config whose aliases multiply a long list: exit 2 in seconds with the line" } },
  { attack: "kill -9 while a report is written (left its temporary file for ever)",
    behaviour: "the next run removes temporary files of dead processes beside its reports",
    proof: { file: "test/report-writers.test.ts", title: "the temporary file of a write killed with SIGKILL is removed by the next run" } },
  { attack: "A crash right after a report was written (writes were not fsynced)",
    behaviour: "the file is fsync'd before the rename and its folder after it",
    proof: { file: "src/core/io/atomic-write.test.ts", title: "the file is fsync'd before the rename and its folder after it" } },
];

function faultBehaviour(r: FaultRow): string {
  const parts: string[] = [];
  parts.push(r.fault ? `fault \`${r.fault}\`${r.code === null ? " (no gRPC code: the client gave up)" : r.code !== undefined ? ` (gRPC code ${r.code})` : ""}` : "no fault: an answer");
  if (r.kept !== undefined) parts.push(`keeps the ${r.kept} messages that arrived`);
  if (r.verdict) parts.push(`verdict ${r.verdict}`);
  if (r.divergence) parts.push(`divergence ${r.divergence.kind}${r.divergence.path ? ` at ${r.divergence.path}` : ""}`);
  if (r.affected.length === 0) parts.push("the run and every case unaffected");
  return parts.join("; ");
}

const FAULT_PROXY: Row[] = FAULT_ROWS.map((r) => ({
  attack: `Fault proxy: ${r.name}`,
  behaviour: faultBehaviour(r),
  proof: { file: "test/faults.test.ts", title: r.name },
}));

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

function render(rows: readonly Row[]): string {
  return [
    "# Reliability",
    "",
    "What a server, a file or the machine can do to a zconform run, and what zconform does",
    "instead of breaking. Every row is proved by the test it names; this page is written",
    "from those rows by `npm run docs:reliability` and checked by `test/reliability.test.ts`.",
    "",
    "| attack | what zconform does | proved by |",
    "|---|---|---|",
    ...rows.map((r) => `| ${cell(r.attack)} | ${cell(r.behaviour)} | \`${r.proof.file}\`: ${cell(r.proof.title)} |`),
    "",
  ].join("\n");
}

const PAGE = join(REPO, "docs", "reliability.md");

describe("docs/reliability.md", () => {
  const rows = [...ATTACKS, ...FAULT_PROXY];

  test("every row names a test that exists", () => {
    const missing = rows.filter((r) => {
      const source = readFileSync(join(REPO, r.proof.file), "utf8");
      // The fault table's rows are titled by their name through test.each.
      return r.proof.file === "test/faults.test.ts" ? !source.includes("test.each(ROWS") : !source.includes(JSON.stringify(r.proof.title));
    });
    expect(missing.map((r) => `${r.proof.file}: ${r.proof.title}`)).toEqual([]);
  });

  test("the page is what the rows render", () => {
    const page = render(rows);
    if (process.env.ZCONFORM_WRITE_DOCS === "1") writeFileSync(PAGE, page);
    expect(readFileSync(PAGE, "utf8")).toBe(page);
  });
});
