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

/** A proving test: its file and its exact title. */
interface Proof {
  file: string;
  title: string;
}

interface Row {
  attack: string;
  behaviour: string;
  /** The test that proves it, or one per place the attack can come in. */
  proof: Proof | Proof[];
}

const proofsOf = (r: Row): Proof[] => (Array.isArray(r.proof) ? r.proof : [r.proof]);

const HOSTILE = "test/hostile-builds.test.ts";
const hostile = (name: string) => ({ file: HOSTILE, title: name });
const hostileJson = (name: string) => ({ file: "test/hostile-json.test.ts", title: name });
const frozen = (name: string) => ({ file: "test/frozen-servers.test.ts", title: name });
const broken = (name: string) => ({ file: "test/broken-http2.test.ts", title: name });

/** The attacks of the hardening issue, each with what zconform does now. */
const ATTACKS: Row[] = [
  {
    attack: "A build streams GetBlockRange forever in small (181-byte) messages",
    behaviour:
      "the call is cut at maxStreamMessages (100,000) or maxCallBytes (64 MiB), a `too-long`/`too-large` fault of that build; the run completes under 1 GB",
    proof: hostile("an endless stream of small messages"),
  },
  {
    attack: "A build streams 1 MiB messages forever (also with maxStreamMessages: 1000)",
    behaviour:
      "cut at maxCallBytes (64 MiB per call, so at most concurrency × 64 MiB per build): `too-large`; answers over 1 MiB kept as length, SHA-256, head and tail; a faulted answer is kept, never compared (diffing it took the run to 1.2 GB): the run completes under 1 GB",
    proof: hostile("an endless stream of 1 MiB messages"),
  },
  {
    attack: "A frame with a 4 GiB length prefix",
    behaviour: "refused at the prefix (over maxMessageBytes) before any byte is buffered: `too-large`",
    proof: hostile("a 4 GiB length prefix"),
  },
  {
    attack: "An endless answer to the startup GetLightdInfo (limits ignored at startup)",
    behaviour: "startup calls keep the build's limits (they are the target's defaults); the run starts and completes",
    proof: hostile("an endless startup GetLightdInfo"),
  },
  {
    attack: "A dozen 16 MiB JSON-RPC answers (crashed the JSON report writer; JUnit and HTML never written)",
    behaviour: "answers kept elided; reports written part by part, so no single string holds them; all three reports valid",
    proof: hostile("12 JSON-RPC answers of 16 MiB"),
  },
  {
    attack: "A 200 MB JSON-RPC body",
    behaviour: "cut at maxMessageBytes: `too-large`; the healthy build's results intact",
    proof: hostile("a 200 MB JSON-RPC body"),
  },
  {
    attack: "The oracle answers above the configured maxMessageBytes (it was cut at a built-in 64 MiB instead)",
    behaviour:
      "the oracle and every node oracle keep the run's maxMessageBytes and maxCallBytes: cut at the configured limit, a `too-large` fault of the oracle on that case",
    proof: hostile("a node body over maxMessageBytes is cut at the configured limit, a fault of the oracle on that case"),
  },
  {
    attack: "An oversized golden file (700 MB or 2 GB: 2.2 GB of memory, then a string-length crash naming no file)",
    behaviour: "refused by its size (over 160 MiB) before a byte is read, with the file named: exit 2 as for any bad input",
    proof: { file: "src/modes/golden/store-limits.test.ts", title: "a golden above the limit names its file and the limit, and nothing is read" },
  },
  {
    attack:
      "Any other oversized input file: a report given to `zconform merge` or readJsonReport, a block file given to `decode` or `--chain` (hex, binary or in a folder), a regtest replay's files, a wallet-sdk checkpoint, a golden folder's RECORDED.json, real-servers.yaml, a build's caFile or cookie file (each was read whole, whatever its size)",
    behaviour:
      "refused by its size before a byte is read, naming the file and the limit of its kind (block files 256 MiB, reports the longest string node makes, cookie files 64 KiB…): exit 2 as for any bad input (darkside: the run of that chain fails with it); a caFile or cookie file over its limit is an `unreachable` fault of that build, as an unreadable one is; a missing file still fails in node's own words",
    proof: [
      { file: "src/core/io/input-limits.test.ts", title: "an oversized file is refused before any read, sync and async" },
      { file: "src/cli/merge.test.ts", title: "a JSON report over the size limit: exit 2 naming the file and the limit, before it is read" },
      { file: "src/core/report/json-file-limits.test.ts", title: "a JSON report above the limit names its file and the limit, and nothing is read" },
      { file: "src/cli/decode.test.ts", title: "a block file over the size limit, hex or binary: exit 2 naming the file and the limit, before it is read" },
      { file: "src/cli/run.test.ts", title: "a --chain block file over the size limit: exit 2 naming the file and the limit, before it is read" },
      { file: "src/zcash/fixture/chain/real.test.ts", title: "hex, binary or in a folder: a ChainFileError naming the file and the limit, before it is read" },
      { file: "src/zcash/real/regtest-replay.test.ts", title: "a file of the folder over its size limit is refused by name and limit, before it is read" },
      {
        file: "src/zcash/real/darkside-chains.test.ts",
        title: "a wallet-sdk checkpoint over the size limit is named with the limit when its run loads, before it is read",
      },
      { file: "src/modes/golden/provenance.test.ts", title: "a RECORDED.json over the size limit names its file and the limit, and nothing is read" },
      { file: "src/zcash/real/pins.test.ts", title: "a pins file over the size limit is refused at its line 1, naming the limit, before it is read" },
      {
        file: "src/core/targets/tls.test.ts",
        title: "a caFile over the size limit: an unreachable fault of that build naming the file and the limit, gRPC and JSON-RPC, before it is read",
      },
      {
        file: "src/core/targets/jsonrpc.test.ts",
        title: "a cookie file over the size limit is an unreachable fault naming the file and the limit: nothing read, nothing sent",
      },
      { file: "src/core/targets/auth.test.ts", title: "a cookie file over the size limit is refused naming the file and the limit, before it is read" },
    ],
  },
  {
    attack: "One report writer fails",
    behaviour: "the other reports are still written; exit 2 names the one that failed",
    proof: {
      file: "test/report-writers.test.ts",
      title: "a report that cannot be written does not keep the others from being written; the run says which failed",
    },
  },
  {
    attack: "A valid transaction with a trailing byte, as SendTransaction or sendrawtransaction",
    behaviour: "a transaction when any prefix decodes as one (nodes ignore trailing bytes): never sent without --allow-broadcast, to a build or the oracle",
    proof: { file: "test/broadcast.test.ts", title: "without --allow-broadcast a valid transaction is never sent, to a build or to the oracle" },
  },
  {
    attack: "--allow-broadcast against servers that are not on regtest while the profile says regtest",
    behaviour: "sent only when every server says regtest (GetLightdInfo.chainName, getblockchaininfo.chain); the skipped cases name the servers that did not",
    proof: {
      file: "test/broadcast.test.ts",
      title: "a regtest chain profile with --allow-broadcast sends nothing when a server says its chain is not regtest",
    },
  },
  {
    attack:
      "Secrets echoed by a server: a URL query key, a header not named like a credential, a bearer token in base64 at byte offset 1 or 2, a password as upper-case hex, a `\\u`-escaped password in raw body hex; a URL password in a config error",
    behaviour:
      "every credential, header value and URL query value is a secret unless marked public, masked in every output in each of those encodings; config errors never quote it",
    proof: { file: "test/secrets-encodings.test.ts", title: "no marker, in any encoding, in any report, golden, stream or config error" },
  },
  {
    attack: "A ledger glob such as `*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b` against a long case id",
    behaviour: "globs matched without backtracking: well under a second on a 1,000-character id",
    proof: { file: "src/core/corpus/glob.test.ts", title: "the pathological pattern ends in well under a second on a 1,000-character id" },
  },
  {
    attack: "Ctrl-C during a run",
    behaviour: "the run stops and writes partial reports; a second Ctrl-C quits at once",
    proof: { file: "test/reports-written.test.ts", title: "SIGINT stops the run, and the reports hold the finished cases, marked partial" },
  },
  {
    attack: "A case file with a flood of syntax errors (overflowed the stack, exit 1)",
    behaviour: "problems gathered without stack growth: exit 2, the first hundred by file:line, the rest counted",
    proof: {
      file: "test/input-limits.test.ts",
      title: "a case file under the size limit with 100,000 syntax errors: exit 2, the first problems by line, the rest counted",
    },
  },
  {
    attack: "A 50 MB case file (ran out of memory)",
    behaviour: "refused by size before it is read: exit 2 at file:1",
    proof: { file: "test/input-limits.test.ts", title: "a 50 MB case file is refused before it is read" },
  },
  {
    attack: "A config whose YAML aliases multiply a long list (67 s, 1.8 GB)",
    behaviour: "expansion limited to 100,000 values: exit 2 with the line in seconds",
    proof: { file: "test/input-limits.test.ts", title: "a config whose aliases multiply a long list: exit 2 in seconds with the line" },
  },
  {
    attack: "kill -9 while a report is written (left its temporary file for ever)",
    behaviour: "the next run removes temporary files of dead processes beside its reports",
    proof: { file: "test/report-writers.test.ts", title: "the temporary file of a write killed with SIGKILL is removed by the next run" },
  },
  {
    attack: "A crash right after a report was written (writes were not fsynced)",
    behaviour: "the file is fsync'd before the rename and its folder after it",
    proof: { file: "src/core/io/atomic-write.test.ts", title: "the file is fsync'd before the rename and its folder after it" },
  },
  {
    attack:
      "A JSON-RPC build answering `300.0`, `3.00e2` or `300.0000000000000000001` where the oracle answers `300`, a string with `\\u0061` for `a`, its keys in another order or other whitespace (4/4 passes: compared as parsed values)",
    behaviour:
      "answers compared by their bytes (the result or error member as sent, the envelope aside): equal values are an `encoding-only` divergence naming what differs (number, escapes, key order, whitespace), a different value (`300.0000000000000000001`) a `value` divergence; never a pass",
    proof: hostileJson("re-encodings and repeated keys from builds: encoding-only or value divergences, never a pass"),
  },
  {
    attack: 'A duplicate `"result"` key: a made-up value first, the real one last (a first-wins parser reads the made-up one; 4/4 passes)',
    behaviour: "a `value` divergence naming what a first-wins and a last-wins parser read on each side; the same value twice is an `encoding-only` divergence",
    proof: hostileJson("re-encodings and repeated keys from builds: encoding-only or value divergences, never a pass"),
  },
  {
    attack:
      '`1e999999`, a lone surrogate `"\\ud800"` or a 300-digit integer from a build (the run ended with exit 2: "Infinity is not allowed"; reports partial)',
    behaviour:
      "read as text, never through a double: that build's answer on that case, a `value` divergence showing the literal; exit 1, every report whole and valid, the healthy build's results intact",
    proof: hostileJson(
      "non-finite numbers, 300-digit integers and lone surrogates from a build: that build's divergences; the run and the healthy build intact",
    ),
  },
  {
    attack: "`1e999999` or a lone surrogate from the oracle (the run ended with exit 2)",
    behaviour: "the oracle's answer on those cases: the builds diverge there and pass everywhere else; every report whole and valid",
    proof: hostileJson("non-finite numbers and lone surrogates from the oracle: the cases they answer diverge; every other result and every report survives"),
  },
  {
    attack:
      "A 16 MiB JSON-RPC body nested 8 million levels (1.3 GB of memory, the event loop blocked; the healthy build's calls then timed out, blamed on the oracle)",
    behaviour:
      "read by a bounded reader without recursion that keeps nothing below 256 levels (the JSON depth limit): compared as bytes, a `json-shape` divergence; no fault on any other side; the run's peak RSS under 600 MB",
    proof: hostileJson("a 16 MiB body nested 8 million levels beside a healthy build: compared as bytes, no timeout elsewhere, peak RSS under 600 MB"),
  },
  {
    attack:
      'Escape sequences in a server\'s text (chain name, version, status or error message, invalid body, a differing value): a window title, a screen clear, an OSC 8 link, a forged "could not check" line after CR LF, bidi overrides, C1 controls',
    behaviour: "printed inert on stdout and stderr: every control character, escape sequence and bidi control shown as an escape, never obeyed",
    proof: { file: "test/terminal-inert.test.ts", title: "a hostile build run to the end (--force): header, preflight, faults, divergences and summary inert" },
  },
  {
    attack:
      'A full disk while the reports are written (said "report not written: ENOSPC"; the JSON written first recorded exit 0 or 1 while the process exited 2)',
    behaviour:
      "the report is named with its flag, path and reason (no space left on device (ENOSPC)); the others are written and record exit 2, the code the process ends with",
    proof: {
      file: "test/report-writers.test.ts",
      title: "a full disk: the report is named with its flag and path, and every report written records the exit code the process ends with",
    },
  },
  {
    attack: "A backend that cannot be reached at the preflight (exited 2, bad input, with no report)",
    behaviour: "exit 3 with every report written: each of its cases could not be checked, for the preflight's reason; nothing more is sent to it",
    proof: { file: "test/preflight.test.ts", title: "no build reachable: exit 3, and every report says each case could not be checked, and why" },
  },
  {
    attack:
      "A build's server frozen mid-run with SIGSTOP, its sockets open (with deadlineMs 2000 the run printed its summary after ~100 s, then never exited nor wrote its JSON or JUnit report; SIGTERM did not end it)",
    behaviour:
      "after 3 timeouts in a row (unresponsiveAfter) the build is unresponsive: its remaining cases are not sent and could not be checked at once, one line says so; closing a connection is bounded (cut 1 s after its last call); exit 3, every report, the healthy build intact",
    proof: frozen("a server frozen with SIGSTOP mid-run: it answered until the freeze, then exit 3 with every report, the healthy build intact"),
  },
  {
    attack: "A server that accepts connections and never answers (at the default 30 s deadline the summary came after ~17 minutes)",
    behaviour:
      "its gRPC endpoint is not reached at the preflight, its JSON-RPC endpoint unresponsive after 3 timeouts: every case could not be checked, none waits a deadline after that; exit 3, every report",
    proof: frozen("a server that accepts and never answers, gRPC and JSON-RPC: exit 3, every report, the healthy build intact, the run ends"),
  },
  {
    attack: "The oracle frozen mid-run with SIGSTOP",
    behaviour:
      "unresponsive after 3 timeouts in a row like a build: the cases that need it could not be checked at once, the others are judged; exit 3, every report",
    proof: frozen("an oracle frozen with SIGSTOP mid-run: its cases are could-not-check, the run ends with exit 3 and every report"),
  },
  {
    attack: "SIGTERM while a peer is frozen (the run went on for 17 minutes and more)",
    behaviour: "calls in flight and connections being closed are cut at once: exit 143 within 2 s, reports partial, during the preflight or the cases",
    proof: frozen("during the cases, with a build stopped by SIGSTOP: exit 143 and partial reports within 2 s"),
  },
  {
    attack:
      "A DATA frame on stream 0 (exit 13 and no JSON, JUnit or HTML report: node reported nothing, every call waited its deadline, then the session's close never called back)",
    behaviour:
      'the GOAWAY the client\'s HTTP/2 layer sends is read off the wire: the connection is ended at once and its calls are `protocol` faults of that build ("the client ended the connection with GOAWAY PROTOCOL_ERROR (…): the server broke HTTP/2"); each later call gets a fresh connection; exit 3, every report, the healthy build intact',
    proof: broken("a DATA frame on stream 0"),
  },
  {
    attack: "A header value declared at 1 GiB, sent across CONTINUATION frames (exit 13, no report)",
    behaviour: "likewise: `protocol` faults at once (GOAWAY COMPRESSION_ERROR from the client), fresh connections, exit 3, every report",
    proof: broken("a header value declared at 1 GiB across CONTINUATION frames"),
  },
  {
    attack: "Frames of another stream inside a header block (exit 13, no report)",
    behaviour: "likewise: `protocol` faults at once (GOAWAY PROTOCOL_ERROR from the client), fresh connections, exit 3, every report",
    proof: broken("frames of another stream inside a header block"),
  },
  {
    attack:
      "Round after round of connections such peers break, the process collecting its garbage between rounds (node 20 aborted with SIGABRT, `~Http2Session: current_nghttp2_memory_ == 0`, in 8 of 120 runs of 30 rounds on a loaded machine: no report)",
    behaviour:
      "the native session under each connection a peer broke is kept referenced for the life of the process and never freed (a few KiB each): 0 aborts in 120 runs under the same load",
    proof: {
      file: "src/core/targets/grpc-wire.test.ts",
      title: "a process that calls them round after round, collecting garbage between rounds, lives on",
    },
  },
  {
    attack:
      "The client's own refusals reported as the server's: headers beyond the client's limits (node resets the stream with ENHANCE_YOUR_CALM) read as \"server reset the stream\"",
    behaviour:
      "who sent each RST_STREAM and GOAWAY is read off the wire: the client's reset is a `protocol` fault that says it is the client's; a reset the server sent stays the server's `reset`",
    proof: {
      file: "src/core/targets/grpc-wire.test.ts",
      title: "headers beyond what the client accepts: the client's own ENHANCE_YOUR_CALM, said to be the client's",
    },
  },
  {
    attack: "A GOAWAY from the server that refuses a call, read as RST_STREAM REFUSED_STREAM",
    behaviour: "named as the server's GOAWAY with its code and last stream: a `reset` fault, UNAVAILABLE (the call was not processed)",
    proof: { file: "src/core/targets/grpc-wire.test.ts", title: "a GOAWAY that refuses the call is the server's GOAWAY, not a reset" },
  },
];

function faultBehaviour(r: FaultRow): string {
  const parts: string[] = [];
  parts.push(
    r.fault
      ? `fault \`${r.fault}\`${r.code === null ? " (no gRPC code: the client gave up)" : r.code !== undefined ? ` (gRPC code ${r.code})` : ""}`
      : "no fault: an answer",
  );
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
    ...rows.map(
      (r) =>
        `| ${cell(r.attack)} | ${cell(r.behaviour)} | ${proofsOf(r)
          .map((p) => `\`${p.file}\`: ${cell(p.title)}`)
          .join("; ")} |`,
    ),
    "",
  ].join("\n");
}

const PAGE = join(REPO, "docs", "reliability.md");

describe("docs/reliability.md", () => {
  const rows = [...ATTACKS, ...FAULT_PROXY];

  test("every row names a test that exists", () => {
    const missing = rows.flatMap(proofsOf).filter((p) => {
      const source = readFileSync(join(REPO, p.file), "utf8");
      // The fault table's rows are titled by their name through test.each.
      return p.file === "test/faults.test.ts" ? !source.includes("test.each(ROWS") : !source.includes(JSON.stringify(p.title));
    });
    expect(missing.map((p) => `${p.file}: ${p.title}`)).toEqual([]);
  });

  test("the page is what the rows render", () => {
    const page = render(rows);
    if (process.env.ZCONFORM_WRITE_DOCS === "1") writeFileSync(PAGE, page);
    expect(readFileSync(PAGE, "utf8")).toBe(page);
  });
});
