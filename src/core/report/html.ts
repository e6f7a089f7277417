// The HTML report: one self-contained file (inline style and script, the run's data as
// JSON inside the page, a Content-Security-Policy that forbids every network fetch), for
// reading a run in a browser: the header, the matrix of methods × builds, a filterable
// case list, and a drill-down per case with every side's bytes and decoded form, the
// divergences with the quirk that explains each, the JSON Patch, and reproduce commands.

import { writeFileAtomicParts } from "../io/atomic-write.js";
import type { Reporter, RunEvent } from "../results/events.js";
import type { ReportContext } from "./context.js";
import { htmlDataFrom, scriptJson } from "./html-data.js";
import { esc, renderCaseList, renderHeader, renderMatrix } from "./html-render.js";
import { HTML_SCRIPT } from "./html-script.js";
import { HTML_STYLE } from "./html-style.js";
import { jsonReportFrom, type JsonReport } from "./json.js";
import { jsonParts } from "./json-parts.js";

// 'none' for everything but the inline style and script: the page can fetch nothing.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function htmlReportFrom(report: JsonReport, ctx: ReportContext = {}): string {
  return [...htmlReportParts(report, ctx)].join("");
}

/** The page in parts; the embedded data case by case, so no one string holds it all. */
export function* htmlReportParts(report: JsonReport, ctx: ReportContext = {}): Generator<string> {
  const s = report.summary;
  const status = s ? (s.newDivergences > 0 ? `${s.newDivergences} new` : "0 new") : "partial";
  const data = htmlDataFrom(report, ctx);
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(`${report.tool.name} ${report.tool.version}`)}">
<title>${esc(`zconform · ${report.chain} · ${status}`)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
${renderHeader(report)}
<div class="layout">
<div class="left">
<section aria-label="matrix">
<h2>Methods × builds</h2>
${renderMatrix(report.builds, report.cases, report.oracle !== null)}
</section>
<section aria-label="cases">
<h2>Cases</h2>
${renderCaseList(report.builds, report.cases)}
</section>
</div>
<section id="detail" aria-label="case detail" aria-live="polite">
<div class="empty">Select a case, or a cell of the matrix, to see each build's answer beside the reference's: status, bytes and decoded form, the divergences with the quirk that explains each, the JSON Patch, and commands that repeat the call.</div>
</section>
</div>
<noscript><p class="note">The drill-down needs JavaScript; the JSON report has the same data.</p></noscript>
<script type="application/json" id="zconform-data">`;
  yield* jsonParts({ ...data }, ["blobs", "cases"], scriptJson);
  yield `</script>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

export function htmlReporter(path: string, ctx: ReportContext = {}): Reporter {
  const events: RunEvent[] = [];
  return {
    onEvent: (e) => {
      events.push(e);
    },
    finish: async () => {
      if (events.some((e) => e.type === "run-start")) writeFileAtomicParts(path, htmlReportParts(jsonReportFrom(events), ctx));
    },
  };
}
