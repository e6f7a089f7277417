// `npm run docs:fixture-vs-zebrad [-- DIR]`: from the output folder of a `zconform regtest`
// run (default regtest-out: its report.json and regtest.json), writes
// docs/fixture-vs-zebrad.md and its JSON twin docs/fixture-vs-zebrad.json.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/core/io/atomic-write.js";
import type { JsonReport } from "../src/core/report/json.js";
import { fixtureVsZebrad, fixtureVsZebradMarkdown } from "../src/zcash/real/fixture-vs-zebrad.js";

const dir = process.argv[2] ?? "regtest-out";
const files = { report: join(dir, "report.json"), regtest: join(dir, "regtest.json") };
for (const f of Object.values(files)) {
  if (!existsSync(f)) {
    process.stderr.write(`${f} not found: run \`npx zconform regtest --dir ${dir}\` first\n`);
    process.exit(2);
  }
}
const report = JSON.parse(readFileSync(files.report, "utf8")) as JsonReport;
const regtest = JSON.parse(readFileSync(files.regtest, "utf8")) as {
  tip: number;
  builds: { name: string; implementation: string; version?: string; pin?: string }[];
};
const zebrad = regtest.builds.find((b) => b.implementation === "zebrad" && b.pin !== undefined)?.version ?? "?";
const rows = fixtureVsZebrad(report);
const about = { zebrad, tip: regtest.tip, startedAt: report.startedAt };
writeFileAtomic("docs/fixture-vs-zebrad.md", fixtureVsZebradMarkdown(rows, about));
writeFileAtomic("docs/fixture-vs-zebrad.json", `${JSON.stringify({ kind: "fixture-vs-zebrad", schemaVersion: 1, ...about, methods: rows }, null, 2)}\n`);
process.stdout.write(
  `wrote docs/fixture-vs-zebrad.md and .json: ${rows.length} methods, ${rows.reduce((n, r) => n + r.equal, 0)} of ${rows.reduce((n, r) => n + r.cases, 0)} judged cases equal\n`,
);
