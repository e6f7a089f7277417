import { describe, expect, test } from "@jest/globals";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { schemaErrors } from "../../../test/schemas.test-helper.js";
import { CLAIMS } from "./published-claims.js";
import {
  committedAt,
  publishedComparison,
  publishedComparisonJson,
  publishedComparisonMarkdown,
  verdictOf,
  type Committed,
  type ComparisonRow,
  type Measured,
} from "./published-comparison.js";

const REPO = join(import.meta.dirname, "..", "..", "..");
const committed = committedAt(REPO);
const rows = publishedComparison(CLAIMS, committed);
const row = (rs: readonly ComparisonRow[], id: string) => rs.find((r) => r.id === id)!;
/** The committed data with some files' text replaced (undefined: the file is gone). */
const overlaid = (files: Record<string, string | undefined>): Committed => ({ ...committed, text: (f) => (f in files ? files[f] : committed.text(f)) });

describe("docs/published-comparison", () => {
  test("the committed page and its JSON twin are what the committed goldens, ledger and bench figures give (npm run docs:published-comparison)", () => {
    expect(readFileSync(join(REPO, "docs", "published-comparison.md"), "utf8")).toBe(publishedComparisonMarkdown(rows));
    expect(readFileSync(join(REPO, "docs", "published-comparison.json"), "utf8")).toBe(publishedComparisonJson(rows));
  });

  test("every row's evidence is committed, and no row lacks the evidence its claim reads", () => {
    const paths = rows.flatMap((r) => r.measured.flatMap((m) => m.evidence));
    expect(paths.filter((p) => !existsSync(join(REPO, p)))).toEqual([]);
    expect(rows.flatMap((r) => r.problems)).toEqual([]);
  });

  test("the JSON twin conforms to its schema", () => {
    expect(schemaErrors("published-comparison", JSON.parse(publishedComparisonJson(rows)))).toEqual([]);
  });

  test("each verdict follows from the real servers' goldens as they are committed", () => {
    const zaino = (id: string) => row(rows, id).measured.filter((m) => m.build.startsWith("zaino ") && m.subject);
    // The findings the comparison published, seen on both real Zaino releases.
    for (const id of ["internal-for-invalid-input", "duplicate-address-twice", "getrawtransaction-verbosity-0"]) {
      expect([id, row(rows, id).verdict, zaino(id).map((m) => m.holds)]).toEqual([id, "reproduced", [true, true]]);
    }
    expect(row(rows, "getblock-transparent").measured.map((m) => [m.build, m.holds])).toEqual([
      ["zaino 0.10.1 (real)", true],
      ["zaino 0.9.0 (real)", true],
      ["lightwalletd v0.5.4 (real)", undefined],
    ]);
    // Ztreamer runs nowhere here; the other servers' display order is shown beside it.
    expect(row(rows, "completing-hash-order").verdict).toBe("not exercisable here");
    expect(row(rows, "completing-hash-order").measured.every((m) => !m.subject && m.holds === true)).toBe(true);
    // The fix is measured on a real zainod built with it, beside the release.
    expect(row(rows, "nodelay-fix").verdict).toBe("reproduced");
    expect(
      row(rows, "nodelay-fix")
        .measured.filter((m) => m.subject)
        .map((m) => [m.build, m.holds]),
    ).toEqual([["zaino 0.10.1 (real), built with TCP_NODELAY on", true]]);
  });

  test("the fix's row says what is missing when no fixed build was timed, and contradicts the claim when the fixed build is still held", () => {
    const bench = committed.text("bench/README.md")!;
    const fixedColumn = "| zaino 0.10.1 (real), TCP_NODELAY on |";
    expect(bench).toContain(fixedColumn);
    const without = row(publishedComparison(CLAIMS, overlaid({ "bench/README.md": bench.replace(fixedColumn, "| another build |") })), "nodelay-fix");
    expect(without.verdict).toBe("not measured");
    expect(without.measured[0]).toMatchObject({ build: "zainod with TCP_NODELAY set", shows: expect.stringContaining("no such build here") });
    const held = bench.replace(
      /(\| GetTreeState \(863\) \| \*\*[\d.]+ \/ [\d.]+ \([\d.]+\)\*\* \| )[\d.]+ \/ [\d.]+ \([\d.]+\)( \|)/,
      "$152.0 / 55.0 (43.0)$2",
    );
    expect(held).not.toBe(bench);
    expect(row(publishedComparison(CLAIMS, overlaid({ "bench/README.md": held })), "nodelay-fix").verdict).toBe("contradicted");
  });

  test("a golden that no longer shows the finding contradicts the claim, on the page too", () => {
    const file = "golden/fixture/zaino-0.10.1/getrawtransaction/verbose-0.json";
    const golden = JSON.parse(committed.text(file)!) as { messages: { hex: string }[] };
    const body = { jsonrpc: "2.0", id: 1, result: "0400008085202f89" };
    golden.messages = [{ hex: Buffer.from(JSON.stringify(body)).toString("hex") }];
    const changed = publishedComparison(CLAIMS, overlaid({ [file]: JSON.stringify(golden) }));
    const r = row(changed, "getrawtransaction-verbosity-0");
    expect(r.verdict).toBe("contradicted");
    expect(r.measured[0]).toMatchObject({ build: "zaino 0.10.1 (real)", holds: false, shows: expect.stringContaining("verbose-0: a string") });
    expect(publishedComparisonMarkdown(changed)).toContain("| getrawtransaction verbosity 0 | contradicted |");
  });

  test("a golden or ledger entry that is gone, or an entry that covers other builds, is named instead of a verdict", () => {
    const file = "golden/fixture/zaino-0.9.0/GetTaddressBalanceStream/duplicate.json";
    const gone = row(publishedComparison(CLAIMS, overlaid({ [file]: undefined })), "duplicate-address-twice");
    expect([gone.verdict, gone.problems]).toEqual(["evidence missing", [`${file}: no such file`]]);
    const ledger = committed.ledger
      .filter((q) => q.id !== "zaino-getrawtransaction-verbose-object")
      .map((q) => (q.id === "zaino-getblock-shielded-only" ? { ...q, builds: [{ implementation: "zaino" }] } : q));
    const changed = publishedComparison(CLAIMS, { ...committed, ledger });
    expect(row(changed, "getrawtransaction-verbosity-0").problems).toEqual(["ledger entry zaino-getrawtransaction-verbose-object: not in cases/quirks.yaml"]);
    expect(row(changed, "getblock-transparent").problems).toEqual(["ledger entry zaino-getblock-shielded-only: covers zaino 0.9.0 (real) too"]);
  });

  test("without committed figures a performance claim is not measured, and says which command measures it", () => {
    const r = row(publishedComparison(CLAIMS, overlaid({ "bench/README.md": "# Benchmarks\n" })), "range-1000");
    expect([r.verdict, r.command]).toEqual(["not measured", "zconform serve-bench --real"]);
    expect(r.measured.every((m) => m.evidence.length === 0)).toBe(true);
  });

  test("the verdict: any finding that fails contradicts; a subject's that holds reproduces; bare figures or builds not run here are not exercisable", () => {
    const m = (subject: boolean, holds?: boolean, evidence = ["f"]): Measured => ({
      build: "b",
      subject,
      shows: "",
      ...(holds === undefined ? {} : { holds }),
      evidence,
    });
    const v = (measured: Measured[], notHere: string[] = [], command?: string) =>
      verdictOf({ measured, notHere, problems: [], ...(command ? { command } : {}) });
    expect(v([m(true, true), m(false, false)])).toBe("contradicted");
    expect(v([m(true, true), m(false)])).toBe("reproduced");
    expect(v([m(false, true)], ["ztreamer"])).toBe("not exercisable here");
    expect(v([m(true), m(true, undefined, [])], ["ztreamer"], "cmd")).toBe("not exercisable here");
    expect(v([m(true, undefined, []), m(false, true)], [], "cmd")).toBe("not measured");
    expect(verdictOf({ measured: [m(true, true)], notHere: [], problems: ["x"] })).toBe("evidence missing");
  });

  // The protocol text quoted is read where go left lightwalletd's module (npm run real:install); elsewhere the check is skipped.
  const modCache = process.env.GOMODCACHE || join(process.env.GOPATH || join(homedir(), "go"), "pkg", "mod");
  const quotes = CLAIMS.flatMap((c) => (c.protocol ? [c.protocol] : []));
  const files = quotes.map((q) => join(modCache, `${q.module.path}@${q.module.version}`, q.module.file));
  const here = files.every((f) => existsSync(f));
  if (!here) console.warn(`skipped: the quoted protocol text is not on this machine (${files.join(", ")})`);
  (here ? test : test.skip)("every protocol text quoted is in the file it is quoted from", () => {
    const words = (s: string) => s.replace(/^\s*\/\/ ?/gm, "").replace(/\s+/g, " ");
    expect(quotes.filter((q, i) => !words(readFileSync(files[i]!, "utf8")).includes(q.text)).map((q) => q.source)).toEqual([]);
  });
});
