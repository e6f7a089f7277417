// `zconform scenario` end to end on the embedded fixture network: every shipped scenario
// moves the fixture's chain, every emulated build follows with its own timing, and the
// command exits 0 with a report that conforms to its schema.

import { describe, expect, test } from "@jest/globals";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScenarioDocument } from "../src/modes/scenario/document.js";
import { schemaErrors } from "./schemas.test-helper.js";

const ROOT = join(import.meta.dirname, "..");

/** The command in a process of its own (its timers are the fixture's, not jest's). */
function zconform(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [join(ROOT, "bin", "zconform.js"), ...args], { cwd: ROOT });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("zconform scenario", () => {
  test("every scenario runs to its end on the fixture network and exits 0; the report conforms and shows each build's tip following", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-scenario-"));
    try {
      const json = join(dir, "scenario.json");
      const html = join(dir, "scenario.html");
      const r = await zconform(["scenario", "--json", json, "--html", html]);
      expect(r.stderr).not.toMatch(/stopped/);
      expect(r.code).toBe(0);
      const doc = JSON.parse(readFileSync(json, "utf8")) as ScenarioDocument;
      expect(schemaErrors("scenario", doc)).toEqual([]);
      expect(doc.scenarios.map((s) => s.id)).toEqual(
        expect.arrayContaining([
          "range-open-when-block-arrives",
          "mempool-stream-block",
          "reorg-depth-1",
          "reorg-depth-3",
          "tx-dropped-by-reorg",
          "tx-moves-index",
          "mempool-burst",
          "stream-across-reorg",
          "tip-following",
        ]),
      );
      for (const s of doc.scenarios) expect(s.error).toBeUndefined();
      // Every build of every check converged on the oracle's answer, or differs only as the ledger explains.
      const cells = doc.scenarios.flatMap((s) => s.steps.flatMap((st) => st.checks.flatMap((c) => c.builds.map((b) => `${c.caseId} ${b.build} ${b.outcome}`))));
      expect(cells.filter((c) => !/ (pass|known)$/.test(c))).toEqual([]);
      // The dedicated scenario alone mines 50 blocks one at a time; each build served at least that many.
      const tipFollowing = doc.scenarios.find((s) => s.id === "tip-following")!;
      expect(tipFollowing.tips.filter((t) => t.kind === "block").length).toBeGreaterThanOrEqual(50);
      const figures = new Map(doc.tipFollowing.map((t) => [t.build, t.blocks]));
      for (const [, f] of figures) expect(f.served).toBeGreaterThanOrEqual(50);
      // An indexer that polls its node (Zaino's chain head every 1 s, here 100 ms) serves a new block later than a server that reads the node at once.
      expect(figures.get("zaino-0.10.1")!.p50Ms!).toBeGreaterThan(figures.get("reference")!.p50Ms!);
      expect(figures.get("ztreamer-master")!.p50Ms!).toBeGreaterThan(figures.get("zebrad-builtin")!.p50Ms!);
      expect(r.stdout).toMatch(/^tip following: /m);
      const page = readFileSync(html, "utf8");
      expect(page).toContain("reorg-depth-3");
      // The tip-following chart: one histogram row per build, its p50 as the report says it.
      const chart = page.slice(page.indexOf('id="chart-tip-following"'));
      expect(chart.length).toBeLessThan(page.length);
      for (const t of doc.tipFollowing) expect(chart).toContain(`${t.build}: ${t.blocks.served}/${t.blocks.events} · p50 `);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test("an unknown --scenario exits 2 and names the nearest one", async () => {
    const r = await zconform(["scenario", "--scenario", "reorg-depth-2"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no scenario "reorg-depth-2" \(did you mean reorg-depth-1\?\)/);
  });
});
