// The HTML report: one self-contained file (inline style and script, the run's data as
// gzip-compressed JSON inside the page, a Content-Security-Policy that forbids every
// network fetch), for reading a run in a browser: the header, charts of each build's
// outcomes and answer times, the matrix of methods × builds, a filterable case list, and
// a drill-down per case with every side's bytes and decoded form, the divergences with
// the quirk that explains each, the JSON Patch, and reproduce commands. Everything but
// the drill-down is markup that reads with JavaScript off; the drill-down's data is
// compressed (the demo's: 7.6 MB of JSON, 2.7 MB in the page) and unpacked by the
// browser with DecompressionStream.

import { gzipSync } from "node:zlib";
import { writeFileAtomicParts } from "../io/atomic-write.js";
import type { Reporter, RunEvent } from "../results/events.js";
import type { ReportContext } from "./context.js";
import { renderCharts } from "./html-charts.js";
import { htmlDataFrom } from "./html-data.js";
import { pageHead, renderCaseList, renderHeader, renderMatrix } from "./html-render.js";
import { HTML_SCRIPT } from "./html-script.js";
import { HTML_STYLE } from "./html-style.js";
import { jsonReportFrom, type JsonReport } from "./json.js";
import { jsonParts } from "./json-parts.js";

// 'none' for everything but the inline style and script: the page can fetch nothing.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export function htmlReportFrom(report: JsonReport, ctx: ReportContext = {}): string {
  return [...htmlReportParts(report, ctx)].join("");
}

/** The page in parts; the embedded data built case by case and compressed as bytes, so no one string holds it all. */
export function* htmlReportParts(report: JsonReport, ctx: ReportContext = {}): Generator<string> {
  const s = report.summary;
  const status = s ? (s.newDivergences > 0 ? `${s.newDivergences} new` : "0 new") : "partial";
  const data = htmlDataFrom(report, ctx);
  yield `${pageHead({ csp: CSP, tool: report.tool, title: `zconform · ${report.chain} · ${status}`, style: HTML_STYLE })}
${renderHeader(report)}
${renderCharts(report.builds, report.cases)}
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
<script type="application/octet-stream" id="zconform-data" data-encoding="gzip+base64">
`;
  yield* gzipBase64(jsonParts({ ...data }, ["blobs", "cases"]));
  yield `
</script>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}

/** Base64 lines of 3 MiB (a multiple of 3 bytes, so each encodes on its own) of the parts gzip-compressed. */
function* gzipBase64(parts: Iterable<string>): Generator<string> {
  const gz = gzipSync(Buffer.concat([...parts].map((p) => Buffer.from(p, "utf8"))));
  const line = 3 * 1024 * 1024;
  for (let at = 0; at < gz.length; at += line) yield `${at === 0 ? "" : "\n"}${gz.subarray(at, at + line).toString("base64")}`;
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
