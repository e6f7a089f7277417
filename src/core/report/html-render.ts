// The static parts of the HTML report, rendered here so they read without JavaScript:
// the header (chain, oracle, builds with EMULATED labels, summary), the matrix of
// methods × builds, and the case list. The drill-down is drawn by the page's script
// from the embedded data. Every piece of run data goes through `esc`.

import type { BuildInfo, RunCondition, RunSummary } from "../results/events.js";
import type { CaseResult } from "../results/result.js";
import type { JsonReport } from "./json.js";
import { cellStatus, matrixOf, type CellStatus, type MatrixCell, type MatrixRow } from "./matrix.js";
import { uncheckedLine } from "../results/unchecked.js";

export { matrixOf };

export function esc(s: string | number): string {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A page's start, to its <body>: its policy of what it may load, who wrote it, its title and its whole stylesheet. */
export function pageHead(o: { csp: string; tool: { name: string; version: string }; title: string; style: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(o.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${esc(`${o.tool.name} ${o.tool.version}`)}">
<title>${esc(o.title)}</title>
<style>${o.style}</style>
</head>
<body>`;
}

/** How one build did on one case: what a matrix cell shows ("none" when it was not asked: it does not serve the transport), or "skipped". */
type CaseStatus = CellStatus | "skipped";

export function caseStatus(r: Pick<CaseResult, "skipped" | "answers" | "divergences" | "drift" | "outcomes">, build: string): CaseStatus {
  if (r.skipped) return "skipped";
  const answer = r.answers.find((a) => a.side === build);
  if (!answer) return "none";
  const outcome = r.outcomes?.find((o) => o.build === build)?.outcome;
  if (outcome === "unchecked" || (answer.fault && !outcome)) return "unchecked";
  if (outcome === "unjudged") return "unjudged";
  const mine = r.divergences.filter((d) => d.build === build);
  if (mine.some((d) => d.quirk === null)) return "new";
  if ((r.drift ?? []).some((d) => d.build === build && d.status === "changed")) return "new";
  return mine.length > 0 ? "known" : "ok";
}

/** The worst status of a case over all builds, for the list's first column. */
export function worstStatus(r: CaseResult, builds: readonly BuildInfo[]): CaseStatus {
  if (r.skipped) return "skipped";
  const all = builds.map((b) => caseStatus(r, b.name));
  for (const s of ["new", "unchecked", "known", "unjudged", "ok"] as const) if (all.includes(s)) return s;
  return "none";
}

const SYMBOL: Record<CaseStatus, string> = { new: "✗", unchecked: "!", known: "~", unjudged: "?", ok: "✓", none: "–", skipped: "○" };

function cellHtml(row: MatrixRow, b: BuildInfo, cell: MatrixCell | undefined): string {
  const data = `data-method="${esc(`${row.transport} ${row.method}`)}" data-build="${esc(b.name)}"`;
  if (!cell) return `<td class="cell none" ${data} title="${esc(`${b.name} does not serve ${row.transport}`)}">–</td>`;
  if (cell.fresh > 0)
    return `<td class="cell new" ${data} title="${esc(`${cell.fresh} new divergence(s) in ${cell.ran} case(s)`)}"><button>${cell.fresh} new</button></td>`;
  if (cell.unchecked > 0)
    return `<td class="cell unchecked" ${data} title="${esc(`could not be checked on ${cell.unchecked} of ${cell.ran} case(s)`)}"><button>!${cell.unchecked}</button></td>`;
  if (cell.known > 0)
    return `<td class="cell known" ${data} title="${esc(`${cell.known} known divergence(s) (ledger) in ${cell.ran} case(s)`)}"><button>~${cell.known}</button></td>`;
  if (cell.unjudged > 0)
    return `<td class="cell unjudged" ${data} title="${esc(`nothing to measure ${cell.unjudged} of ${cell.ran} case(s) against`)}"><button>?${cell.unjudged}</button></td>`;
  return `<td class="cell ok" ${data} title="${esc(`same as the reference in all ${cell.ran} case(s)`)}"><button>✓</button></td>`;
}

/** The legend of the statuses the matrix shows; ✓ says what the reference was in this run. */
function legendHtml(rows: readonly MatrixRow[], hasOracle: boolean, builds: number): string {
  const used = new Set(rows.flatMap((r) => r.cells.map(cellStatus)));
  const against = hasOracle ? "the oracle (or the expected error)" : builds > 1 ? "the other builds (no oracle) or the expected error" : "the expected error";
  const parts: [string, string][] = [
    ["ok", `<span class="cell ok">✓</span> same as ${esc(against)} on every case`],
    ["known", `<span class="cell known">~N</span> known divergences (ledger)`],
    ["new", `<span class="cell new">N new</span> new divergences`],
    ["unchecked", `<span class="cell unchecked">!N</span> could not be checked on N cases`],
    ["unjudged", `<span class="cell unjudged">?N</span> unjudged: nothing to measure N cases against`],
    ["none", `<span class="cell none">–</span> not served`],
  ];
  return parts
    .filter(([k]) => used.has(k as never))
    .map(([, t]) => t)
    .join(" ");
}

function buildHead(b: BuildInfo): string {
  const what = `${b.implementation}${b.version ? ` ${b.version}` : ""}${b.emulated ? " (EMULATED: a profile of the embedded fixture, not the real build)" : ""}${b.pin ? ` (REAL: pinned ${b.pin})` : ""}`;
  return `<th class="build" scope="col" title="${esc(what)}"><span class="bname">${esc(b.name)}</span>${b.emulated ? `<span class="emu">EMU</span>` : ""}</th>`;
}

export function renderMatrix(builds: readonly BuildInfo[], results: readonly CaseResult[], hasOracle = true): string {
  const rows = matrixOf(builds, results);
  const body = rows
    .map(
      (row) =>
        `<tr><th scope="row" class="method" data-method="${esc(`${row.transport} ${row.method}`)}"><span class="tp">${row.transport === "jsonrpc" ? "rpc" : "grpc"}</span> ${esc(row.method)} <span class="n">${row.cases}</span></th>${row.cells.map((c, i) => cellHtml(row, builds[i]!, c)).join("")}</tr>`,
    )
    .join("\n");
  return `<table class="matrix" id="matrix"><thead><tr><th scope="col">method <span class="n">cases</span></th>${builds.map(buildHead).join("")}</tr></thead>
<tbody>
${body}
</tbody></table>
<p class="legend">${legendHtml(rows, hasOracle, builds.length)} · <span class="emu">EMU</span> emulated profile · click a cell to list its cases</p>`;
}

function summaryHtml(s: RunSummary | null, partial: boolean, conditions: readonly RunCondition[]): string {
  if (!s) return `<p class="warn">The run did not finish: no summary.</p>`;
  const chip = (cls: string, text: string) => `<span class="chip ${cls}">${esc(text)}</span>`;
  const verdicts = Object.entries(s.verdicts)
    .map(([k, n]) => chip(`v-${k}`, `${k} ${n}`))
    .join("");
  const ledger = [
    ...conditions.map((k) => `<li class="bad">warning: ${k.side === "run" ? "" : `${esc(k.side)}: `}${esc(k.detail)}</li>`),
    ...s.unchecked.map((u) => `<li class="bad">could not check ${esc(uncheckedLine(u))}</li>`),
    ...s.expired.map((e) => `<li class="bad">expired ledger entry <code>${esc(e.quirk)}</code> (expired ${esc(e.expires)})</li>`),
    ...s.stale.map((e) => `<li class="stale">stale ledger entry <code>${esc(e.quirk)}</code>: ${esc(e.reason)}</li>`),
  ];
  return `<div class="summary">
${chip("", `${s.cases} cases`)}${chip("", `${s.skipped} skipped`)}${chip("", `${(s.durationMs / 1000).toFixed(1)} s`)}
${verdicts}
${chip(s.outcomes.unchecked > 0 ? "new" : "ok", `${s.outcomes.unchecked} could not be checked`)}${chip("", `${s.outcomes.unjudged} unjudged`)}
${chip(s.newDivergences > 0 ? "new" : "ok", `${s.newDivergences} new`)}${chip(s.known > 0 ? "known" : "", `${s.known} known`)}${chip("", `${s.divergences} divergences`)}
${s.drifted !== undefined ? chip(s.drifted > 0 ? "new" : "ok", `${s.drifted} drifted from goldens`) : ""}
${partial ? `<span class="chip new">interrupted: partial results</span>` : ""}
</div>${ledger.length > 0 ? `<ul class="ledger">${ledger.join("")}</ul>` : ""}`;
}

function buildsHtml(builds: readonly BuildInfo[]): string {
  const rows = builds
    .map(
      (b) =>
        `<tr><th scope="row" class="mono">${esc(b.name)}</th><td>${esc(b.implementation)}${b.version ? ` ${esc(b.version)}` : ""}</td><td>${b.protocolVersion ? `protocol ${esc(b.protocolVersion)}` : "protocol –"}</td><td>${b.emulated ? `<span class="emu">EMULATED${b.profile ? ` · ${esc(b.profile)}` : ""}</span>` : `<span class="real">${b.profile === "reference" ? "zconform reference" : b.pin ? `real · pinned ${esc(b.pin)}` : "real"}</span>`}</td><td class="mono muted">${[
          b.grpc && `grpc ${b.grpc}`,
          b.jsonrpc && `jsonrpc ${b.jsonrpc}`,
        ]
          .filter(Boolean)
          .map((s) => esc(s as string))
          .join(" · ")}</td></tr>`,
    )
    .join("\n");
  return `<table class="builds"><tbody>\n${rows}\n</tbody></table></div>`;
}

export function renderHeader(report: JsonReport): string {
  const emulated = report.builds.filter((b) => b.emulated).length;
  const facts = [
    `chain <b>${esc(report.chain)}</b>`,
    `oracle <b class="mono">${esc(report.oracle ?? "none")}</b>`,
    `${report.builds.length} builds${emulated > 0 ? ` (${emulated} emulated)` : ""}`,
    `started ${esc(report.startedAt)}`,
    ...(report.shard ? [`shard ${report.shard.index}/${report.shard.count}`] : []),
    `${esc(report.tool.name)} ${esc(report.tool.version)}`,
    ...(report.exitCode !== null ? [`exit ${report.exitCode}`] : []),
  ];
  return `<header>
<h1>zconform <span class="sub">lightwallet conformance report</span></h1>
<p class="facts">${facts.join(" · ")}</p>
${emulated > 0 ? `<p class="note">Builds marked EMULATED are profiles of zconform's embedded fixture network that reproduce documented behaviour of real servers; they are not the real builds.</p>` : ""}
${summaryHtml(report.summary, report.partial, report.conditions)}
<details class="buildlist"${report.builds.length <= 8 ? " open" : ""}><summary>${report.builds.length} builds</summary>${buildsHtml(report.builds)}</details>
</header>`;
}

export function renderCaseList(builds: readonly BuildInfo[], results: readonly CaseResult[]): string {
  const rows = results
    .map((r, i) => {
      const worst = worstStatus(r, builds);
      const cells = builds
        .map((b) => {
          const s = caseStatus(r, b.name);
          return `<td class="mini ${s}" data-build="${esc(b.name)}" data-status="${s}" title="${esc(`${b.name}: ${s}`)}">${SYMBOL[s]}</td>`;
        })
        .join("");
      const text = `${r.caseId} ${r.title ?? ""} ${r.tags.join(" ")}`.toLowerCase();
      return (
        `<tr class="case" tabindex="0" data-index="${i}" data-id="${esc(r.caseId)}" data-method="${esc(`${r.transport} ${r.method}`)}" data-status="${worst}" data-text="${esc(text)}">` +
        `<td class="mini ${worst}">${SYMBOL[worst]}</td><td class="cid"><span class="mono">${esc(r.caseId)}</span>${r.title ? `<span class="ctitle">${esc(r.title)}</span>` : ""}</td>` +
        `<td class="verdict">${esc(r.skipped ? "skipped" : (r.verdict?.verdict ?? "–"))}</td>${cells}</tr>`
      );
    })
    .join("\n");
  return `<div class="filters">
<input id="q" type="search" placeholder="filter cases: id, title, tag" aria-label="filter cases">
<select id="status" aria-label="status"><option value="">all statuses</option><option value="new">new divergences</option><option value="unchecked">could not be checked</option><option value="known">known quirks only</option><option value="unjudged">unjudged</option><option value="ok">conforming</option><option value="skipped">skipped</option></select>
<select id="build" aria-label="build"><option value="">any build</option>${builds.map((b) => `<option value="${esc(b.name)}">${esc(b.name)}</option>`).join("")}</select>
<span id="methodchip" hidden></span>
<span id="count" class="n"></span>
</div>
<div class="listwrap"><table class="cases" id="cases"><thead><tr><th></th><th>case</th><th>verdict</th>${builds.map((b) => `<th class="rot" title="${esc(b.name)}"><span>${esc(b.name)}</span></th>`).join("")}</tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}
