// `zconform darkside`: bad input is exit code 2 with the reason; a run against real
// lightwalletd prints one line per run and writes a JSON report that fits its schema.

import { describe, expect, test } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chainPath } from "../../test/chain-data.js";
import { schemaErrors } from "../../test/schemas.test-helper.js";
import { darksideGate } from "../../test/tools/real-gate.js";
import { lightwalletdBinary } from "../zcash/real/darkside-process.js";
import { darksideCommand, type DarksideReport } from "./darkside.js";

const ROOT = join(import.meta.dirname, "..", "..");
const binary = lightwalletdBinary();
const withLightwalletd = darksideGate(binary);

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (l: string) => out.push(l), stderr: (l: string) => err.push(l) } };
}

describe("zconform darkside", () => {
  test("a missing lightwalletd is exit code 2, naming where it was looked for", async () => {
    const c = capture();
    expect(await darksideCommand({ lightwalletd: "/nonexistent/lightwalletd", cases: join(ROOT, "cases") }, c.io)).toBe(2);
    expect(c.err.join("\n")).toContain("lightwalletd not found at /nonexistent/lightwalletd");
  });

  test("a missing --chain file is exit code 2, naming it", async () => {
    const c = capture();
    const code = await darksideCommand({ lightwalletd: process.execPath, chain: ["/nonexistent/blocks.txt"], cases: join(ROOT, "cases") }, c.io);
    expect(code).toBe(2);
    expect(c.err.join("\n")).toContain("--chain /nonexistent/blocks.txt: no such file or folder");
  });

  withLightwalletd("one file against real lightwalletd: a line for the run, totals, and a JSON report valid against schemas/darkside.schema.json", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zconform-darkside-cli-"));
    try {
      const c = capture();
      const json = join(dir, "darkside.json");
      const code = await darksideCommand({ chain: [chainPath("lightwalletd", "testnet-380640-380643.blocks.txt")], cases: join(ROOT, "cases"), json }, c.io);
      expect(code).toBe(0);
      expect(c.out.some((l) => l.startsWith("testnet-380640-380643.blocks.txt (testnet 380640–380643): 4 staged; GetBlock 4 equal"))).toBe(true);
      const report = JSON.parse(readFileSync(json, "utf8")) as DarksideReport;
      expect(schemaErrors("darkside", report)).toEqual([]);
      expect(report.totals).toMatchObject({ runs: 1, failedRuns: 0, blocksStaged: 4 });
      expect(report.totals.checks.unexplained).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  withLightwalletd(
    "--reorg: the run and its reorganizations at depths 1 and 3, a line each with how long lightwalletd took, totals, and a JSON report valid against the schema",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "zconform-darkside-cli-"));
      try {
        const c = capture();
        const json = join(dir, "darkside.json");
        const code = await darksideCommand(
          { chain: [chainPath("lightwalletd", "testnet-380640-380643.blocks.txt")], cases: join(ROOT, "cases"), json, reorg: true },
          c.io,
        );
        expect({ code, out: c.out }).toMatchObject({ code: 0 });
        const at = c.out.indexOf("reorganized testnet-380640-380643.blocks.txt (testnet 380640–380643):");
        expect(at).toBeGreaterThan(0);
        expect(c.out[at + 1]).toMatch(
          /^ {2}depth 1 from 380643 \(1 transaction dropped\): tip named in \d+ ms, blocks served in \d+ ms.*; checks \d+ equal, \d+ explained, 0 unexplained.*; chain after it \d+ equal, \d+ explained, 0 unexplained$/,
        );
        expect(c.out[at + 2]).toMatch(/^ {2}depth 3 from 380641 \(0 transactions dropped\): /);
        expect(c.out[c.out.length - 1]).toMatch(
          /^reorganizations: 2 in 1 runs \(0 failed\); checks \d+ equal, \d+ explained, 0 unexplained; chains after them \d+ equal, \d+ explained, 0 unexplained$/,
        );
        const report = JSON.parse(readFileSync(json, "utf8")) as DarksideReport;
        expect(schemaErrors("darkside", report)).toEqual([]);
        expect(report.totals.reorgs).toMatchObject({ runs: 1, failedRuns: 0, reorganizations: 2 });
        expect(report.reorgs?.map((r) => ("error" in r ? r.error : r.reorgs.map((g) => g.depth)))).toEqual([[1, 3]]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
