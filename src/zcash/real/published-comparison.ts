// The published comparison of lightwallet servers (Zaino 0.9.0 / 0.10.1 and Ztreamer
// v0.1.0 / master), claim by claim, against what zconform measured on the real servers
// of this machine. Each claim (src/zcash/real/published-claims.ts) reads the committed
// data — goldens, ledger entries, the figures of bench/README.md — and says per build
// what it shows and whether that is what the claim says; the verdict is computed from
// those findings, never written by hand, so a changed golden or a removed entry changes
// the page (docs/published-comparison.md and its JSON twin).

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { appliesTo, type BuildIdentity } from "../../core/ledger/classify.js";
import { loadLedger, type Quirk } from "../../core/ledger/quirk.js";
import { LIGHTWALLET_IMPLEMENTATIONS } from "../protocol.js";
import { evidenceProblem, valueAt } from "./evidence.js";

/** What the repository holds, as the claims read it (a test may lay other text over a file). */
export interface Committed {
  root: string;
  /** A committed file's text, or undefined when there is none. */
  text(file: string): string | undefined;
  /** The names in a committed folder, sorted; [] when there is none. */
  list(dir: string): string[];
  ledger: readonly Quirk[];
}

export function committedAt(root: string): Committed {
  const at = (f: string) => join(root, f);
  return {
    root,
    text: (f) => (existsSync(at(f)) && statSync(at(f)).isFile() ? readFileSync(at(f), "utf8") : undefined),
    list: (d) => (existsSync(at(d)) && statSync(at(d)).isDirectory() ? readdirSync(at(d)).sort() : []),
    ledger: loadLedger(at(join("cases", "quirks.yaml")), { implementations: LIGHTWALLET_IMPLEMENTATIONS }),
  };
}

/** Evidence a claim needs and the repository does not hold: the row says so instead of a verdict. */
export class MissingEvidence extends Error {}

/** What a committed file holds at a path (a golden's answer, a JSON document); throws MissingEvidence. */
export function read(c: Committed, file: string, path = ""): unknown {
  const text = c.text(file);
  if (text === undefined) throw new MissingEvidence(`${file}: no such file`);
  const found = valueAt(text, path);
  if ("problem" in found) throw new MissingEvidence(`${file} at ${JSON.stringify(path)}: ${found.problem}`);
  return found.value;
}

/** A real server whose answers are committed under golden/<chain>/<folder>. */
export interface RealBuild extends BuildIdentity {
  folder: string;
}

export const goldenFile = (chain: string, b: RealBuild, caseId: string) => `golden/${chain}/${b.folder}/${caseId}.json`;
export const goldenFolder = (chain: string, b: RealBuild, method?: string) => `golden/${chain}/${b.folder}${method ? `/${method}` : ""}`;

/** The case ids of a build's goldens of one method on a chain. */
export function goldenCases(c: Committed, chain: string, b: RealBuild, method: string): string[] {
  return c
    .list(goldenFolder(chain, b, method))
    .filter((f) => f.endsWith(".json"))
    .map((f) => `${method}/${f.slice(0, -5)}`);
}

/** What zconform measured of one build for a claim. */
export interface Measured {
  build: string;
  /** A build the claim is about; otherwise one shown beside it (the servers it is compared with, an emulation). */
  subject: boolean;
  /** What the committed data shows, in words made from it. */
  shows: string;
  /** Whether that is what the claim says; absent for a figure with nothing to hold it against. */
  holds?: boolean;
  /** The committed files (or folders) it was read from; [] when nothing is committed. */
  evidence: string[];
}

/** A ledger entry a claim is recorded under, and the builds it must (and must not) cover. */
export interface LedgerCheck {
  id: string;
  covers: readonly BuildIdentity[];
  spares?: readonly BuildIdentity[];
}

export interface Quote {
  text: string;
  /** Where the text is, for a reader. */
  source: string;
  /** The Go module and file that hold it, so a test can find it where the module is on the machine. */
  module: { path: string; version: string; file: string };
}

export interface Claim {
  id: string;
  title: string;
  topic: "serving" | "latency" | "compatibility";
  /** The claim as the comparison published it. */
  published: string;
  /** Builds the comparison measured that cannot run here, with the source they are read from. */
  notHere?: readonly string[];
  /** What the protocol text says on the point. */
  protocol?: Quote;
  ledger?: readonly LedgerCheck[];
  /** The command that measures it on live servers. */
  command?: string;
  /** Why the figures cannot settle the claim, when they cannot. */
  note?: string;
  measure(c: Committed): Measured[];
}

export type Verdict = "reproduced" | "contradicted" | "not exercisable here" | "not measured" | "evidence missing";

export interface ComparisonRow {
  id: string;
  title: string;
  topic: Claim["topic"];
  published: string;
  verdict: Verdict;
  measured: Measured[];
  notHere: string[];
  protocol?: { text: string; source: string };
  ledger: { id: string; title: string; status: string; covers: string[] }[];
  command?: string;
  note?: string;
  /** Evidence that is not there, or does not hold what the row relies on. */
  problems: string[];
}

/**
 * A finding that fails the claim contradicts it; one that holds for a build the claim is
 * about reproduces it; figures of the builds it is about with nothing to hold them
 * against, or a claim only about builds that cannot run here, are not exercisable here;
 * and a claim nothing committed measures is not measured.
 */
export function verdictOf(r: Pick<ComparisonRow, "measured" | "notHere" | "command" | "problems">): Verdict {
  if (r.problems.length > 0) return "evidence missing";
  const judged = r.measured.filter((m) => m.holds !== undefined);
  if (judged.some((m) => !m.holds)) return "contradicted";
  if (judged.some((m) => m.subject)) return "reproduced";
  if (r.measured.some((m) => m.subject && m.evidence.length > 0)) return "not exercisable here";
  if (r.notHere.length > 0 && r.command === undefined) return "not exercisable here";
  return "not measured";
}

/** What is wrong with a ledger check: the entry is gone, covers another set of builds, or its evidence no longer holds. */
function ledgerProblems(c: Committed, check: LedgerCheck, q: Quirk | undefined): string[] {
  if (!q) return [`ledger entry ${check.id}: not in cases/quirks.yaml`];
  return [
    ...check.covers.filter((b) => !appliesTo(q, b)).map((b) => `ledger entry ${q.id}: does not cover ${b.name}`),
    ...(check.spares ?? []).filter((b) => appliesTo(q, b)).map((b) => `ledger entry ${q.id}: covers ${b.name} too`),
    ...(q.evidence ?? []).flatMap((e) => evidenceProblem(e, c.root) ?? []).map((p) => `ledger entry ${q.id}: ${p}`),
  ];
}

export function comparisonRow(claim: Claim, c: Committed): ComparisonRow {
  const problems: string[] = [];
  let measured: Measured[] = [];
  try {
    measured = claim.measure(c);
  } catch (e) {
    if (!(e instanceof MissingEvidence)) throw e;
    problems.push(e.message);
  }
  const ledger = (claim.ledger ?? []).map((check) => {
    const q = c.ledger.find((x) => x.id === check.id);
    problems.push(...ledgerProblems(c, check, q));
    return { id: check.id, title: q?.title ?? "", status: q?.status ?? "missing", covers: check.covers.map((b) => b.name) };
  });
  const notHere = [...(claim.notHere ?? [])];
  return {
    id: claim.id,
    title: claim.title,
    topic: claim.topic,
    published: claim.published,
    verdict: verdictOf({ measured, notHere, command: claim.command, problems }),
    measured,
    notHere,
    ...(claim.protocol ? { protocol: { text: claim.protocol.text, source: claim.protocol.source } } : {}),
    ledger,
    ...(claim.command ? { command: claim.command } : {}),
    ...(claim.note ? { note: claim.note } : {}),
    problems,
  };
}

export const publishedComparison = (claims: readonly Claim[], c: Committed): ComparisonRow[] => claims.map((claim) => comparisonRow(claim, c));

/** The JSON twin (schemas/published-comparison.schema.json). */
export function publishedComparisonJson(rows: readonly ComparisonRow[]): string {
  return `${JSON.stringify({ kind: "published-comparison", schemaVersion: 1, rows }, null, 2)}\n`;
}

const code = (s: string) => `\`${s}\``;
const MARK = (m: Measured) => (m.holds === undefined ? "" : m.holds ? " ✔" : " ✘ (not what the claim says)");

function rowMarkdown(r: ComparisonRow): string[] {
  const measured = (m: Measured) =>
    `- ${m.subject ? "" : "beside it, "}**${m.build}**: ${m.shows}${MARK(m)}${m.evidence.length ? ` (${m.evidence.map(code).join(", ")})` : ""}`;
  return [
    `## ${r.title}`,
    "",
    `**Verdict: ${r.verdict}.** Published: ${r.published}`,
    "",
    ...r.measured.map(measured),
    ...r.notHere.map((n) => `- not run here: ${n}`),
    ...(r.protocol ? [`- the protocol: “${r.protocol.text}” (${r.protocol.source})`] : []),
    ...r.ledger.map((l) => `- ledger: ${code(l.id)}, ${l.title} (${l.status}; covers ${l.covers.join(", ")})`),
    ...(r.note ? [`- ${r.note}`] : []),
    ...(r.command ? [`- measured live by ${code(r.command)}`] : []),
    ...r.problems.map((p) => `- EVIDENCE MISSING: ${p}`),
    "",
  ];
}

export function publishedComparisonMarkdown(rows: readonly ComparisonRow[]): string {
  const count = (v: Verdict) => rows.filter((r) => r.verdict === v).length;
  const verdicts: Verdict[] = ["reproduced", "contradicted", "not exercisable here", "not measured", "evidence missing"];
  return [
    "# The published comparison, reproduced",
    "",
    "A published comparison of lightwallet servers replayed 274 gRPC test cases over the 20 rpcs of the lightwallet",
    "protocol against Zaino 0.9.0 / 0.10.1 and Ztreamer v0.1.0 / master, compared their answers byte for byte, checked",
    "them against Zebra's JSON-RPC, and checked the JSON-RPC methods Zaino serves. Each of its claims, in summary (its",
    "figures are not repeated here), is set against what zconform measured on the real servers of this machine: zainod",
    "0.10.1 and 0.9.0, lightwalletd v0.5.4 and zebrad 7.0.0 ([real-servers.md](real-servers.md)), whose answers are",
    "committed as goldens (`golden/fixture/`: the fixture chain; `golden/regtest/`: a chain real zebrad mined), with the",
    "ledger entries that record each finding (`cases/quirks.yaml`) and the figures of [bench/README.md](../bench/README.md).",
    "Ztreamer is not published to a registry and runs nowhere here: what it does is read from its source, and no claim",
    "about it alone is settled here.",
    "",
    "Generated by `npm run docs:published-comparison` (src/zcash/real/published-comparison.ts, the claims in",
    "src/zcash/real/published-claims.ts): every verdict is computed from the committed data, and",
    "src/zcash/real/published-comparison.test.ts fails when this page is not what the data gives. The JSON twin is",
    "docs/published-comparison.json (schemas/published-comparison.schema.json). ✔ marks a finding that is what the claim",
    "says, ✘ one that is not.",
    "",
    "| claim | verdict |",
    "|---|---|",
    ...rows.map((r) => `| ${r.title} | ${r.verdict} |`),
    "",
    verdicts
      .filter((v) => count(v) > 0)
      .map((v) => `${v}: ${count(v)}`)
      .join(" · "),
    "",
    ...rows.flatMap(rowMarkdown),
  ].join("\n");
}
