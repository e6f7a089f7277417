// A slim result (no answer bytes, request or patches) is what the ledger, the summary
// and the terminal keep to the end of a run: it must give them what the whole result
// gives. A session that does not collect its results still hands reporters whole ones.

import { beforeAll, describe, expect, test } from "@jest/globals";
import { Chalk } from "chalk";
import { fixtureRun, type FixtureRun } from "../../../test/tools/fixture-run.js";
import { renderMatrix } from "../report/terminal.js";
import { ledgerFindings } from "../ledger/findings.js";
import { summarize } from "../run/session.js";
import type { CaseResult } from "./result.js";
import { slimResult } from "./slim.js";

const filter = { method: ["GetBlock", "GetLatestBlock", "GetTransaction", "getblock"] };
const caseResults = (run: FixtureRun): CaseResult[] => run.events.flatMap((e) => (e.type === "case-result" ? [e.result] : []));
const ids = (run: FixtureRun): string[] =>
  caseResults(run)
    .map((r) => r.caseId)
    .sort();

describe("slim results", () => {
  let run: FixtureRun;
  beforeAll(async () => {
    run = await fixtureRun({ filter });
  }, 120_000);

  test("carry no bytes, decoded forms, request or patches", () => {
    const full = run.session.results;
    expect(full.some((r) => r.answers.some((a) => a.hex.length > 0 && a.json !== undefined))).toBe(true);
    expect(full.some((r) => r.patches.length > 0)).toBe(true);
    for (const r of full.map(slimResult)) {
      expect(r.request).toBeUndefined();
      expect(r.patches).toEqual([]);
      for (const a of [...r.answers, ...(r.oracle ? [r.oracle] : []), ...(r.otherOracles ?? [])])
        expect([a.hex, a.json, a.elided]).toEqual([[], undefined, undefined]);
    }
  });

  test("give the matrix, the ledger's findings and the summary what whole results give", () => {
    const full = run.session.results;
    const slim = full.map(slimResult);
    expect(full.some((r) => r.divergences.length > 0)).toBe(true);
    const start = run.events.find((e) => e.type === "run-start");
    if (start?.type !== "run-start") throw new Error("no run-start");
    const c = new Chalk({ level: 0 });
    expect(renderMatrix(start.builds, slim, c)).toEqual(renderMatrix(start.builds, full, c));
    const identities = run.config.builds.map((b) => ({ name: b.name, implementation: b.implementation, version: b.version }));
    const today = new Date("2026-01-01");
    expect(ledgerFindings(run.ledger, slim, identities, today)).toEqual(ledgerFindings(run.ledger, full, identities, today));
    const names = run.config.builds.map((b) => b.name);
    const findings = ledgerFindings(run.ledger, full, identities, today);
    expect(summarize(slim, findings, 0, names)).toEqual(summarize(full, findings, 0, names));
  });

  test("a session that does not collect hands back none, with the same summary, and reporters still get whole results", async () => {
    const uncollected = await fixtureRun({ filter, collect: false });
    expect(uncollected.session.results).toEqual([]);
    const { durationMs: _a, ...summary } = uncollected.session.summary;
    const { durationMs: _b, ...expected } = run.session.summary;
    expect(summary).toEqual(expected);
    expect(uncollected.session.exitCode).toBe(run.session.exitCode);
    expect(ids(uncollected)).toEqual(ids(run));
    expect(caseResults(uncollected).some((r) => r.answers.some((a) => a.hex.length > 0))).toBe(true);
  }, 120_000);
});
