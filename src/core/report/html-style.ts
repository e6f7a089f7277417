// The HTML report's stylesheet, inlined into the page. Status colours are from the
// Okabe–Ito palette (distinguishable with the common colour-vision deficiencies), and
// every status also has its own symbol and fill, so colour is never the only cue.

import { CHART_STYLE } from "./svg-charts.js";

export const HTML_STYLE = `${CHART_STYLE}
:root {
  --fg: #1b1f24; --muted: #5b636e; --line: #d8dde3; --bg: #ffffff; --panel: #f6f8fa; --hl: #eef4fb;
  --ok: #0072b2; --ok-bg: #e3f0f9; --known: #9a6700; --known-bg: #fdf0d5; --known-line: #e69f00;
  --new: #ffffff; --new-bg: #d55e00; --none: #8c959f; --skip: #6e7781;
  --mark: #ffd8b0; --mono: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9aa4ae; --line: #30363d; --bg: #0d1117; --panel: #161b22; --hl: #1c2a3a;
    --ok: #56b4e9; --ok-bg: #0f2a3d; --known: #f0c060; --known-bg: #3a2c0c; --known-line: #e69f00;
    --new-bg: #d55e00; --mark: #6b3a12;
  }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 14px 18px 40px; font: 13px/1.4 system-ui, "DejaVu Sans", "Liberation Sans", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 18px; margin: 0 0 2px; }
h1 .sub { font-weight: normal; color: var(--muted); font-size: 14px; }
h2 { font-size: 15px; margin: 16px 0 6px; }
h3 { font-size: 13px; margin: 12px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
code, .mono, pre { font-family: var(--mono); font-size: 12px; }
.facts { margin: 0 0 6px; color: var(--muted); }
.facts b { color: var(--fg); }
.note { margin: 4px 0; color: var(--muted); font-size: 12px; }
.summary { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; }
.chip { border: 1px solid var(--line); border-radius: 10px; padding: 0 8px; background: var(--panel); white-space: nowrap; }
.chip.ok { color: var(--ok); border-color: var(--ok); background: var(--ok-bg); }
.chip.known { color: var(--known); border-color: var(--known-line); background: var(--known-bg); }
.chip.new { color: var(--new); background: var(--new-bg); border-color: var(--new-bg); font-weight: 600; }
ul.ledger { margin: 4px 0; padding-left: 18px; }
ul.ledger .bad { color: var(--new-bg); font-weight: 600; }
.buildlist summary { cursor: pointer; color: var(--muted); margin: 4px 0; }
table { border-collapse: collapse; }
table.builds td, table.builds th { padding: 0 12px 0 0; text-align: left; vertical-align: top; font-size: 12px; }
table.builds th { font-weight: 600; }
.real { font-size: 11px; color: var(--ok); }
.emu { display: inline-block; font-size: 10px; font-weight: 600; letter-spacing: .05em; color: var(--muted); border: 1px dashed var(--muted); border-radius: 3px; padding: 0 3px; margin-left: 4px; }
table.matrix { margin-top: 8px; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 0; text-align: center; }
table.matrix thead th { padding: 3px 4px; vertical-align: bottom; background: var(--panel); }
table.matrix thead th:first-child { text-align: left; }
table.matrix th.build { height: 118px; width: 50px; }
table.matrix th.build .bname { display: inline-block; writing-mode: vertical-rl; transform: rotate(180deg); font-family: var(--mono); font-size: 12px; white-space: nowrap; }
table.matrix th.build .emu { display: block; margin: 3px auto 0; font-size: 9px; padding: 0 2px; width: max-content; }
table.matrix th.method { text-align: left; padding: 2px 8px; font-family: var(--mono); font-weight: normal; white-space: nowrap; cursor: pointer; }
.tp { display: inline-block; min-width: 30px; color: var(--muted); font-size: 11px; }
.n { color: var(--muted); font-size: 11px; }
.cell { font-family: var(--mono); font-size: 12px; min-width: 50px; white-space: nowrap; }
.cell button { all: unset; display: block; width: 100%; padding: 1px 5px; cursor: pointer; box-sizing: border-box; }
.cell button:focus-visible { outline: 2px solid var(--fg); outline-offset: -2px; }
.cell.ok { color: var(--ok); background: var(--ok-bg); }
.cell.known { color: var(--known); background: var(--known-bg); box-shadow: inset 0 0 0 1px var(--known-line); }
.cell.new { color: var(--new); background: var(--new-bg); font-weight: 700; }
.cell.none { color: var(--none); }
.cell.unchecked { color: var(--new); background: var(--new-bg); font-weight: 700; font-style: italic; }
.cell.unjudged { color: var(--none); box-shadow: inset 0 0 0 1px var(--line); }
td.cell.selected { outline: 2px solid var(--fg); outline-offset: -2px; }
.legend { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
.legend .cell { display: inline-block; min-width: 0; padding: 0 5px; margin: 0 3px 0 10px; border-radius: 2px; }
.legend .cell:first-child { margin-left: 0; }
.layout { display: grid; grid-template-columns: fit-content(720px) minmax(0, 1fr); gap: 18px; align-items: start; margin-top: 6px; }
.left { min-width: 0; }
#detail { position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow: auto; padding-right: 2px; }
@media (max-width: 1200px) { .layout { grid-template-columns: 1fr; } #detail { position: static; max-height: none; } }
.filters { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 6px; }
.filters input, .filters select { font: inherit; padding: 2px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
.filters input { flex: 1; min-width: 160px; }
#methodchip { font-family: var(--mono); background: var(--hl); border-radius: 10px; padding: 0 8px; cursor: pointer; }
.listwrap { max-height: 70vh; overflow: auto; border: 1px solid var(--line); }
table.cases { width: 100%; }
table.cases th { position: sticky; top: 0; background: var(--panel); font-weight: 600; text-align: left; padding: 2px 4px; border-bottom: 1px solid var(--line); z-index: 1; }
table.cases th.rot { height: 86px; vertical-align: bottom; padding: 2px 0; width: 18px; }
table.cases th.rot span { writing-mode: vertical-rl; transform: rotate(180deg); font-family: var(--mono); font-weight: normal; font-size: 11px; white-space: nowrap; }
table.cases td { padding: 1px 4px; border-bottom: 1px solid var(--line); vertical-align: top; }
tr.case { cursor: pointer; }
tr.case:hover, tr.case:focus { background: var(--hl); outline: none; }
tr.case.current { background: var(--hl); box-shadow: inset 3px 0 0 var(--ok); }
.cid .mono { display: block; word-break: break-all; }
.ctitle { display: block; color: var(--muted); font-size: 11px; }
.verdict { color: var(--muted); font-size: 11px; white-space: nowrap; }
td.mini { text-align: center; font-family: var(--mono); width: 18px; padding: 1px 0; }
.mini.ok { color: var(--ok); } .mini.known { color: var(--known); font-weight: 700; }
.mini.new, .mini.unchecked { color: var(--new); background: var(--new-bg); font-weight: 700; } .mini.none, .mini.skipped, .mini.unjudged { color: var(--none); }
.empty { color: var(--muted); padding: 30px; border: 1px dashed var(--line); text-align: center; }
.dhead h2 { margin: 0; font-family: var(--mono); word-break: break-all; }
.dhead .ctitle { font-size: 13px; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 1px 10px; margin: 6px 0; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; }
.badge { display: inline-block; border-radius: 3px; padding: 0 5px; font-size: 11px; font-weight: 700; font-family: var(--mono); }
.badge.new { color: var(--new); background: var(--new-bg); }
.badge.known { color: var(--known); background: var(--known-bg); box-shadow: inset 0 0 0 1px var(--known-line); }
.badge.ok { color: var(--ok); background: var(--ok-bg); }
.badge.none, .badge.skipped, .badge.unjudged { color: var(--none); border: 1px solid var(--line); }
.badge.unchecked { color: var(--new); background: var(--new-bg); }
.tabs { display: flex; flex-wrap: wrap; gap: 2px; border-bottom: 1px solid var(--line); margin-top: 10px; }
.tabs button { font: 12px var(--mono); border: 1px solid var(--line); border-bottom: none; background: var(--panel); color: var(--fg); padding: 3px 8px; cursor: pointer; border-radius: 4px 4px 0 0; }
.tabs button[aria-selected="true"] { background: var(--bg); font-weight: 700; position: relative; top: 1px; }
.tabs button .sym { margin-left: 4px; }
.tabs .sym.new { color: var(--new-bg); } .tabs .sym.known { color: var(--known); } .tabs .sym.ok { color: var(--ok); }
table.divs { width: 100%; margin: 4px 0; }
table.divs th, table.divs td { border-bottom: 1px solid var(--line); padding: 2px 6px 2px 0; text-align: left; vertical-align: top; }
table.divs td.val { font-family: var(--mono); font-size: 12px; word-break: break-all; max-width: 220px; }
table.divs td.path { font-family: var(--mono); font-size: 12px; word-break: break-all; }
table.patch { width: 100%; table-layout: fixed; font-family: var(--mono); font-size: 12px; }
table.patch td { padding: 1px 6px 1px 0; border-bottom: 1px solid var(--line); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; vertical-align: top; }
table.patch td.op { width: 60px; font-weight: 700; }
table.patch td.op.add { color: var(--ok); } table.patch td.op.remove { color: var(--new-bg); } table.patch td.op.replace { color: var(--known); }
table.patch td.ppath { width: 32%; }
details.raw summary { cursor: pointer; color: var(--muted); font-size: 11px; margin: 2px 0; }
.quirk a { color: inherit; }
.sides { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 8px; margin-top: 6px; }
.side { min-width: 0; border-left: 1px solid var(--line); border-right: 1px solid var(--line); }
.side.shead { background: var(--panel); padding: 4px 6px; border-top: 1px solid var(--line); border-radius: 4px 4px 0 0; font-size: 12px; }
.side.shex { border-bottom: 1px solid var(--line); border-radius: 0 0 4px 4px; padding-bottom: 4px; }
.side.shead b { font-family: var(--mono); }
.side.this.shead { box-shadow: inset 0 3px 0 var(--ok); }
.status { font-family: var(--mono); }
.status.err { color: var(--new-bg); font-weight: 700; }
.side h4 { margin: 6px 6px 2px; font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; font-weight: 600; }
.side pre { margin: 0 6px; }
.side pre.json { max-height: 260px; }
.side pre.hex { max-height: 220px; }
pre { margin: 0; padding: 4px 6px; background: var(--panel); overflow: auto; max-height: 340px; white-space: pre; }
pre.hex { white-space: pre; }
pre.hex mark { background: var(--mark); color: inherit; }
.msgno { color: var(--muted); }
.trunc { color: var(--known); font-size: 11px; margin: 2px 6px; }
.cmd { position: relative; margin: 4px 0; }
.cmd pre { white-space: pre-wrap; word-break: break-all; padding-right: 54px; }
.cmd button { position: absolute; right: 4px; top: 4px; font-size: 11px; cursor: pointer; }
.cmd .tool { font-size: 11px; color: var(--muted); }
.cmd .cnote { font-size: 11px; color: var(--muted); margin: 1px 0 0; }
.muted { color: var(--muted); }
section.charts { margin: 8px 0 4px; }
.chart-pair { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; }
details.by-method > summary { cursor: pointer; color: var(--muted); margin: 2px 0 6px; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(390px, 1fr)); gap: 0 16px; }
.multiples figure.chart figcaption { font-family: var(--mono); font-weight: normal; font-size: 12px; }
`;
