// A jest reporter that ends the run with one line counting the tests skipped, by the
// reason test/tools/skips.ts recorded for them. Plain JavaScript: jest loads reporters
// without transforming them.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default class SkipReporter {
  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "zconform-skips-"));
    this.log = join(this.dir, "skips.jsonl");
    // Workers are started after reporters, and inherit this.
    process.env.ZCONFORM_SKIP_LOG = this.log;
  }

  onRunComplete(_contexts, results) {
    const byFile = new Map();
    let lines = [];
    try {
      lines = readFileSync(this.log, "utf8").split("\n").filter(Boolean);
    } catch {
      // no skip recorded
    }
    for (const line of lines) {
      const { file, reason, scope } = JSON.parse(line);
      const entry = byFile.get(file) ?? { tests: new Map(), whole: undefined };
      if (scope === "file") entry.whole = reason;
      else entry.tests.set(reason, (entry.tests.get(reason) ?? 0) + 1);
      byFile.set(file, entry);
    }
    const counts = new Map();
    const add = (reason, n) => n > 0 && counts.set(reason, (counts.get(reason) ?? 0) + n);
    for (const r of results.testResults) {
      const entry = byFile.get(r.testFilePath);
      let left = r.numPendingTests;
      for (const [reason, n] of entry?.tests ?? []) {
        add(reason, Math.min(n, left));
        left -= Math.min(n, left);
      }
      add(entry?.whole ?? "skipped by their suites (cases not sent on this chain, platform)", left);
    }
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} ${reason}`);
    process.stderr.write(total === 0 ? "skipped: none\n" : `skipped ${total} of ${results.numTotalTests} tests: ${parts.join("; ")}\n`);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
