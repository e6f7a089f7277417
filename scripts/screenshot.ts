// The README's pictures: runs the demo (the whole corpus against the embedded fixture
// network, with the ledger), writes its HTML report, opens it in headless Chromium on a
// case where an emulated build diverges from the oracle, and saves the matrix and that
// drill-down as docs/report.png, and the top of the page — the run's facts and the charts
// of each build's outcomes and answer times — as docs/report-charts.png.
//
//   npx tsx scripts/screenshot.ts [--out docs/report.png] [--charts-out docs/report-charts.png] [--html <file>] [--case <id> --build <name>]
//
// The HTML report stays at --html (default: zconform-report.html in the temp folder).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { inputsFromFixture } from "../src/cli/inputs.js";
import { reportContext } from "../src/core/report/context.js";
import { HASH_FIELDS } from "../src/zcash/lightwallet-rpcs.js";
import { htmlReporter } from "../src/core/report/html.js";
import type { CaseResult } from "../src/core/results/result.js";
import { runSession } from "../src/core/run/session.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";

const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: "docs/report.png" },
    "charts-out": { type: "string", default: "docs/report-charts.png" },
    html: { type: "string" },
    case: { type: "string" },
    build: { type: "string" },
  },
});

/** A gRPC case where a build answered, but not what the oracle derives: a known quirk if there is one. */
function showcase(results: readonly CaseResult[]): { caseId: string; build: string } | undefined {
  const candidates = results.flatMap((r) =>
    r.transport === "grpc" && r.oracle?.status === "OK"
      ? r.divergences
          .filter((d) => d.left === "oracle" && r.answers.some((a) => a.side === d.build && a.status === "OK" && a.count === 1))
          .map((d) => ({ caseId: r.caseId, build: d.build, known: d.quirk !== null, n: r.divergences.filter((x) => x.build === d.build).length }))
      : [],
  );
  candidates.sort((a, b) => Number(b.known) - Number(a.known) || (a.n >= 2 && a.n <= 4 ? -1 : 0) - (b.n >= 2 && b.n <= 4 ? -1 : 0));
  return candidates[0];
}

const dir = mkdtempSync(join(tmpdir(), "zconform-screenshot-"));
const htmlPath = resolve(args.html ?? join(tmpdir(), "zconform-report.html"));
const inputs = await inputsFromFixture({ cases: "cases" }, { stdout: console.log, stderr: console.error });
let results: CaseResult[];
try {
  const session = await runSession({
    config: inputs.config,
    cases: inputs.cases,
    chain: inputs.chain,
    ledger: inputs.ledger,
    reporters: [htmlReporter(htmlPath, reportContext(inputs.ledger, inputs.config, HASH_FIELDS))],
    protocol: lightwalletProtocol,
    allowStale: true,
  });
  results = session.results;
} finally {
  await inputs.network?.close();
}
console.log(`HTML report: ${htmlPath}`);

const pick = args.case ? { caseId: args.case, build: args.build ?? "" } : showcase(results);
const context = await chromium.launchPersistentContext(join(dir, "profile"), {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1680, height: 1180 },
  deviceScaleFactor: 1,
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  const hash = pick ? `#case=${encodeURIComponent(pick.caseId)}${pick.build ? `&build=${encodeURIComponent(pick.build)}` : ""}` : "";
  await page.goto(`file://${htmlPath}${hash}`);
  // The drill-down is drawn once the page has unpacked its data.
  await page.waitForSelector("html[data-loaded]");
  // The build list is open by default; closed, the run's facts and the charts share the first screen.
  await page.evaluate(() => document.querySelector("details.buildlist")?.removeAttribute("open"));
  // Down to the line that opens the per-method charts.
  const end = await page.locator("section.charts details.by-method > summary").boundingBox();
  await page.screenshot({ path: args["charts-out"]!, clip: { x: 0, y: 0, width: 1680, height: Math.ceil((end?.y ?? 600) + (end?.height ?? 0) + 10) } });
  console.log(`screenshot: ${args["charts-out"]}`);
  // The matrix and the drill-down: the page scrolled to them.
  await page.evaluate(() => document.querySelector(".layout")?.scrollIntoView());
  await page.screenshot({ path: args.out! });
  console.log(`screenshot: ${args.out}${pick ? ` (${pick.caseId} [${pick.build}])` : ""}`);
} finally {
  await context.close();
  rmSync(dir, { recursive: true, force: true });
}
