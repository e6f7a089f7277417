// The scenario report as one self-contained HTML page: the same timelines and tip-following
// table as the terminal, with each new divergence under its check.

import { binCounts, CHART_STYLE, formatMs, histogramRows, logEdges } from "../../core/report/svg-charts.js";
import { networkLabel, type ScenarioDocument } from "./document.js";
import { actionText, cellText } from "./terminal.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Each build's time to serve each block the node accepted, as histograms on one log axis (reorganizations apart). */
function tipChart(doc: ScenarioDocument): string {
  const per = doc.tipFollowing
    .map((t) => ({
      t,
      ms: doc.scenarios.flatMap((s) =>
        s.tips
          .filter((e) => e.kind === "block")
          .flatMap((e) => {
            const v = e.served[t.build];
            return v === null || v === undefined ? [] : [Math.max(1, v)];
          }),
      ),
    }))
    .filter((x) => x.ms.length > 0);
  if (per.length === 0) return "";
  const all = per.flatMap((x) => x.ms);
  const edges = logEdges(Math.min(...all), Math.max(...all) * 1.01);
  return histogramRows({
    id: "chart-tip-following",
    title: "Time to serve each new block as the latest",
    edges,
    axisLabel: "ms from the node accepting a block",
    plotWidth: 360,
    rows: per.map(({ t, ms }) => ({
      label: t.build,
      counts: binCounts(ms, edges),
      note: `${t.blocks.served}/${t.blocks.events} · p50 ${formatMs(t.blocks.p50Ms ?? 0)} · p99 ${formatMs(t.blocks.p99Ms ?? 0)}`,
    })),
    table: {
      head: ["build", "served", "p50", "p99", "max"],
      rows: per.map(({ t }) => [
        t.build,
        `${t.blocks.served}/${t.blocks.events}`,
        ...[t.blocks.p50Ms, t.blocks.p99Ms, t.blocks.maxMs].map((v) => (v === null ? "–" : formatMs(v))),
      ]),
    },
  });
}

export function scenarioHtml(doc: ScenarioDocument): string {
  const builds = doc.builds.map((b) => b.name);
  const head = `<tr><th>step</th><th>action / check</th>${builds.map((b) => `<th>${esc(b)}</th>`).join("")}</tr>`;
  const sections = doc.scenarios.map((s) => {
    const rows = s.steps.flatMap((st) => {
      const a = st.action;
      const times =
        a.kind === "read" || a.kind === "wait-tip"
          ? builds.map((b) => {
              const t = a.builds.find((x) => x.build === b)?.ms ?? null;
              return t === null ? "not in time" : `${t} ms`;
            })
          : builds.map(() => "");
      return [
        `<tr class="step"><td>${st.index}</td><td>${esc(actionText(a))}</td>${times.map((t) => `<td>${esc(t)}</td>`).join("")}</tr>`,
        ...st.checks.map((c) => {
          const cells = builds.map((b) => {
            const x = c.builds.find((y) => y.build === b);
            return `<td class="${x?.outcome ?? "none"}">${esc(cellText(x))}</td>`;
          });
          const fresh = c.divergences
            .filter((d) => d.quirk === null)
            .map((d) => `<div class="div">${esc(`${d.build}: ${d.kind} ${d.path}: ${d.detail}`)}</div>`)
            .join("");
          return `<tr><td></td><td>${esc(c.id === c.caseId ? c.caseId : `${c.method} ${c.id}`)}${fresh}</td>${cells.join("")}</tr>`;
        }),
      ];
    });
    return (
      `<h2>${esc(s.id)}${s.title ? ` — ${esc(s.title)}` : ""}</h2><p class="src">${esc(s.source)} · ${(s.durationMs / 1000).toFixed(1)} s${s.error ? ` · stopped: ${esc(s.error)}` : ""}</p>` +
      `<table>${head}${rows.join("")}</table>`
    );
  });
  const tip = doc.tipFollowing
    .map(
      (t) =>
        `<tr><td>${esc(t.build)}</td>${[
          t.blocks.served + "/" + t.blocks.events,
          t.blocks.p50Ms,
          t.blocks.p99Ms,
          t.blocks.maxMs,
          t.reorgs.served + "/" + t.reorgs.events,
          t.reorgs.p50Ms,
          t.reorgs.maxMs,
        ]
          .map((v) => `<td>${v === null ? "–" : esc(String(typeof v === "number" ? Math.round(v) : v))}</td>`)
          .join("")}</tr>`,
    )
    .join("");
  const o = doc.summary.outcomes;
  return `<!doctype html><html><head><meta charset="utf-8"><title>zconform scenarios</title><style>
body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
tr.step td{background:#f3f3f3;font-weight:600}.pass{color:#176b28}.known{color:#8a6d00}.new,.unchecked{color:#b00020;font-weight:600}.div{color:#b00020;font-size:12px}.src{color:#666}
${CHART_STYLE}</style></head><body><h1>zconform scenarios</h1><p>${esc(doc.chain)} · ${esc(networkLabel(doc.network))} · ${o.pass} pass, ${o.known} known (*), ${o.new} new, ${o.unchecked} unchecked · exit ${doc.exitCode}</p>
${sections.join("\n")}
<h2>Tip following</h2><p>ms from the node accepting a block to each build serving it as its latest block</p>
${tipChart(doc)}
<table><tr><th>build</th><th>blocks</th><th>p50</th><th>p99</th><th>max</th><th>reorgs</th><th>p50</th><th>max</th></tr>${tip}</table>
</body></html>
`;
}
