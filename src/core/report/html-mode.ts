// A mode's HTML page (`latency --html`, `serve-bench --html`): one self-contained file of
// the mode's charts as inline SVG (svg-charts.ts) and its figures as text, with no script
// at all and a Content-Security-Policy that forbids fetching anything.

import { writeFileAtomic } from "../io/atomic-write.js";
import type { Envelope } from "../results/envelope.js";
import type { ModeEvent, Reporter } from "../results/events.js";
import { esc, pageHead } from "./html-render.js";
import { CHART_STYLE } from "./svg-charts.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `${CHART_STYLE}
body { margin: 0; padding: 14px 18px 40px; font: 13px/1.4 system-ui, "DejaVu Sans", "Liberation Sans", sans-serif; color: #1b1f24; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e6edf3; background: #0d1117; } }
h1 { font-size: 18px; margin: 0 0 2px; }
h1 .sub { font-weight: normal; opacity: .7; font-size: 14px; }
h2 { font-size: 15px; margin: 18px 0 4px; }
.facts, .note { margin: 2px 0; opacity: .8; }
.charts { display: flex; flex-wrap: wrap; gap: 0 32px; align-items: flex-start; }
pre { font: 12px ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; background: rgba(127,127,127,.1); padding: 6px 8px; overflow: auto; }
`;

/** The builds as the page names them: emulated profiles say so. */
function buildNames(doc: Envelope<string>): string {
  return doc.builds.map((b) => `${b.name}${b.emulated ? " (EMULATED)" : ""}`).join(", ");
}

/** The whole page: a heading, the run's facts, and the mode's sections. */
export function modePage(doc: Envelope<string>, o: { title: string; facts: string[]; body: string }): string {
  const facts = [`chain ${doc.chain}`, `started ${doc.startedAt}`, `${doc.tool.name} ${doc.tool.version}`, `exit ${doc.exitCode}`, ...o.facts];
  return `${pageHead({ csp: CSP, tool: doc.tool, title: `zconform ${doc.kind} · ${doc.chain}`, style: STYLE })}
<h1>zconform <span class="sub">${esc(o.title)}</span></h1>
<p class="facts">${facts.map((f) => esc(f)).join(" · ")}</p>
<p class="facts">builds: ${esc(buildNames(doc))}</p>
${o.body}
</body>
</html>
`;
}

/** Writes the page of the mode's finished document, atomically. */
export function modeHtmlReporter<D extends Envelope<string>, P = unknown>(file: string, page: (document: D) => string): Reporter<ModeEvent<D, P>> {
  let document: D | undefined;
  return {
    onEvent: (e) => {
      if (e.type === "mode-end") document = e.document;
    },
    finish: async () => {
      if (document) writeFileAtomic(file, page(document));
    },
  };
}
