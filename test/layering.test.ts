// The layering of src/ (docs/architecture.md), checked by dependency-cruiser with the
// rules in .dependency-cruiser.cjs: the core imports no wing, mode, command or jest code;
// a core test helper neither, but for the generated protocol descriptors; the Zcash wing
// imports no mode or command; modes import no command; reporters import no runner
// internals; no folder cycles.

import { describe, expect, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(import.meta.dirname, "..");
const CLI = join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** The violations dependency-cruiser finds in `dir`'s src/ under the project's rules. */
async function violations(dir: string): Promise<Violation[]> {
  // depcruise exits non-zero when it finds violations; the JSON on stdout is the answer either way.
  const run = promisify(execFile)(process.execPath, [CLI, "src", "--config", join(ROOT, ".dependency-cruiser.cjs"), "--output-type", "json"], {
    cwd: dir,
    maxBuffer: 64 << 20,
  }).catch((e: { stdout?: string; stderr?: string }) => {
    if (!e.stdout) throw new Error(`dependency-cruiser failed: ${e.stderr ?? String(e)}`);
    return { stdout: e.stdout };
  });
  const out = JSON.parse((await run).stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  expect(out.summary.totalCruised).toBeGreaterThan(100);
  return out.summary.violations;
}

const describeViolation = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.cycle && v.cycle.length > 0 ? v.cycle.map((c) => c.name).join(" → ") : v.to}`;

describe("layering", () => {
  test("src/ keeps every rule", async () => {
    expect((await violations(ROOT)).map(describeViolation)).toEqual([]);
  }, 60_000);

  test("a core file importing the Zcash wing, a core test helper importing the Zcash protocol, a folder cycle, a reporter reaching into the runner, a mode importing a command and the wing importing a mode each fail", async () => {
    const copy = mkdtempSync(join(tmpdir(), "zconform-layering-"));
    try {
      cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
      cpSync(join(ROOT, "tsconfig.json"), join(copy, "tsconfig.json"));
      writeFileSync(join(copy, "src/core/canon/probe.ts"), 'export { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";\n');
      // core/run imports core/diff, so core/diff importing core/run closes a loop.
      writeFileSync(join(copy, "src/core/diff/probe.ts"), 'export { planCases } from "../run/plan.js";\n');
      writeFileSync(join(copy, "src/core/report/probe.ts"), 'export { runCases } from "../run/runner.js";\n');
      writeFileSync(join(copy, "src/modes/sweep/probe.ts"), 'export { runLikeCommand } from "../../cli/run.js";\n');
      writeFileSync(join(copy, "src/zcash/codec/probe.ts"), 'export { driftOf } from "../../modes/golden/drift.js";\n');
      // A helper that runs the whole program belongs in test/tools/; descriptors are allowed.
      writeFileSync(join(copy, "src/core/report/probe.test-helper.ts"), 'export { lightwalletProtocol } from "../../zcash/protocol.js";\n');
      writeFileSync(join(copy, "src/core/targets/probe.test-helper.ts"), 'export { CompactTxStreamer } from "../../zcash/gen/walletrpc/service_pb.js";\n');
      const found = await violations(copy);
      const rulesOf = (file: string) => new Set(found.filter((v) => v.from === file || v.cycle?.some((c) => c.name === file)).map((v) => v.rule.name));
      expect(rulesOf("src/core/canon/probe.ts")).toContain("core-imports-no-wing");
      expect(rulesOf("src/core/report/probe.ts")).toContain("reporters-import-no-runner");
      expect(rulesOf("src/modes/sweep/probe.ts")).toContain("modes-import-no-cli");
      expect(rulesOf("src/zcash/codec/probe.ts")).toContain("wing-imports-no-modes");
      expect(rulesOf("src/core/report/probe.test-helper.ts")).toEqual(new Set(["core-test-helpers-import-no-wing"]));
      expect(rulesOf("src/core/targets/probe.test-helper.ts")).toEqual(new Set());
      const cycles = found.filter((v) => v.rule.name === "no-folder-cycles").map(describeViolation);
      expect(cycles.some((c) => c.includes("src/core/diff") && c.includes("src/core/run"))).toBe(true);
      // Nothing else broke: every violation involves a probe.
      expect(found.filter((v) => !/probe(\.test-helper)?\.ts$/.test(v.from) && v.rule.name !== "no-folder-cycles")).toEqual([]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
