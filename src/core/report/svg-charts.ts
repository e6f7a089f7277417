// Charts as inline SVG, drawn at report time: no script, no external resource, so a page
// stays self-contained and its pictures show with JavaScript off. Four shapes cover every
// report: stacked bars (outcomes per build), rows of histograms on a log time axis
// (answer times, latency), a line chart (rate against clients) and bars (one figure per
// build). Each chart is a <figure> whose SVG has a title and a text description for
// screen readers, and the numbers drawn as a table under "as a table". Nothing relies on
// colour alone: stacked segments carry patterns and labels, lines carry their own marker
// shape and a label at their end, and every row is named.

import { esc } from "./html-render.js";

/** Okabe–Ito colours, distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#7f7f7f"] as const;

/** Drawn over a segment's colour, so segments differ without it. */
export type Pattern = "solid" | "hatch" | "cross" | "dots" | "outline";

export interface Table {
  head: string[];
  rows: (string | number)[][];
}

const FONT = 11;
const LABEL_W = 150;

const r1 = (v: number) => String(Math.round(v * 10) / 10);
/** About how wide a text is drawn, for laying out labels (an average glyph of the sans-serif fonts at FONT px). */
const textWidth = (s: string) => s.length * FONT * 0.58;

/** Black or white, whichever reads better on `color` (#rrggbb). */
function inkOn(color: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.45 ? "#000" : "#fff";
}

/** "0.25 ms", "12 ms", "1.5 s": times as people read them. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms >= 1000) return `${+(ms / 1000).toPrecision(2)} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${+ms.toPrecision(2)} ms`;
}

export function percent(part: number, whole: number): string {
  if (whole === 0) return "0%";
  const p = (100 * part) / whole;
  // Never 0% or 100% for a share that is neither.
  return p > 0 && p < 1 ? "<1%" : p > 99 && p < 100 ? ">99%" : `${Math.round(p)}%`;
}

function tableHtml(t: Table): string {
  const cell = (v: string | number, i: number) => (i === 0 ? `<th scope="row">${esc(v)}</th>` : `<td>${esc(v)}</td>`);
  return (
    `<table class="chart-data"><thead><tr>${t.head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${t.rows.map((r) => `<tr>${r.map(cell).join("")}</tr>`).join("")}</tbody></table>`
  );
}

/** The figure around a chart: caption, the SVG named by its title and description, the numbers as a table. */
function figure(id: string, title: string, desc: string, width: number, height: number, body: string, table: Table, defs = ""): string {
  return (
    `<figure class="chart" id="${esc(id)}"><figcaption>${esc(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${esc(id)}-t ${esc(id)}-d" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-size="${FONT}">` +
    `<title id="${esc(id)}-t">${esc(title)}</title><desc id="${esc(id)}-d">${esc(desc)}</desc>${defs}${body}</svg>` +
    `<details class="chart-table"><summary>as a table</summary>${tableHtml(table)}</details></figure>`
  );
}

const text = (x: number, y: number, s: string, attrs = "") => `<text x="${r1(x)}" y="${r1(y)}"${attrs ? ` ${attrs}` : ""}>${esc(s)}</text>`;
/** A name cut to what fits beside the chart; the full name stays in the table and the title. */
const fitLabel = (s: string, width: number) => (textWidth(s) <= width ? s : `${s.slice(0, Math.max(1, Math.floor(width / (FONT * 0.58)) - 1))}…`);

// ---- stacked bars ----

export interface StackSeries {
  label: string;
  color: string;
  pattern: Pattern;
}

export interface StackRow {
  label: string;
  /** One count per series, in the series' order. */
  values: number[];
}

function patternDefs(id: string): string {
  const p = (name: string, body: string) => `<pattern id="${esc(id)}-${name}" patternUnits="userSpaceOnUse" width="6" height="6">${body}</pattern>`;
  return (
    `<defs>${p("hatch", `<path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="#fff" stroke-opacity=".6" stroke-width="1.5"/>`)}` +
    `${p("cross", `<path d="M0,0 l6,6 M6,0 l-6,6" stroke="#fff" stroke-opacity=".6" stroke-width="1.2"/>`)}` +
    `${p("dots", `<circle cx="3" cy="3" r="1.3" fill="#fff" fill-opacity=".7"/>`)}</defs>`
  );
}

/** One horizontal bar per row, its segments in series order, each labelled with its count and share where it fits. */
export function stackedBars(o: { id: string; title: string; series: StackSeries[]; rows: StackRow[]; width?: number; unit?: string }): string {
  const width = o.width ?? 640;
  const barW = width - LABEL_W - 150;
  const rowH = 22;
  const legendH = 20;
  const height = legendH + o.rows.length * rowH + 6;
  const unit = o.unit ?? "cases";
  let lx = LABEL_W;
  const legend = o.series
    .map((s) => {
      const x = lx;
      lx += 16 + textWidth(s.label) + 14;
      return `${swatch(o.id, s, x, 4, 12, 12)}${text(x + 16, 14, s.label)}`;
    })
    .join("");
  const bars = o.rows
    .map((row, ri) => {
      const y = legendH + ri * rowH;
      const total = row.values.reduce((a, b) => a + b, 0);
      const widths = segmentWidths(row.values, barW);
      const unlabelled: string[] = [];
      let x = LABEL_W;
      const segs = row.values
        .map((v, si) => {
          if (v === 0 || total === 0) return "";
          const w = widths[si]!;
          const s = o.series[si]!;
          const share = percent(v, total);
          const label = w >= 64 ? `${v} · ${share}` : w >= 8 + String(v).length * 7 ? String(v) : "";
          if (!label) unlabelled.push(`${v} ${s.label}`);
          const out =
            `<g><title>${esc(`${row.label}: ${v} ${s.label} (${share})`)}</title>${swatch(o.id, s, x, y + 2, w, rowH - 6)}` +
            (label
              ? text(
                  x + w / 2,
                  y + rowH / 2 + 3,
                  label,
                  s.pattern === "outline"
                    ? `text-anchor="middle" fill="currentColor" class="seg-label"`
                    : // A halo in the segment's colour keeps the label readable over its pattern.
                      `text-anchor="middle" fill="${inkOn(s.color)}" stroke="${s.color}" stroke-width="3" paint-order="stroke" class="seg-label"`,
                )
              : "") +
            "</g>";
          x += w;
          return out;
        })
        .join("");
      return (
        `${text(LABEL_W - 6, y + rowH / 2 + 3, fitLabel(row.label, LABEL_W - 10), `text-anchor="end" fill="currentColor"`)}${segs}` +
        text(LABEL_W + barW + 6, y + rowH / 2 + 3, [`${total} ${unit}`, ...unlabelled].join(" · "), `fill="currentColor" class="muted"`)
      );
    })
    .join("");
  const desc = o.rows
    .map((r) => {
      const total = r.values.reduce((a, b) => a + b, 0);
      return `${r.label}: ${o.series.map((s, i) => `${r.values[i]} ${s.label} (${percent(r.values[i]!, total)})`).join(", ")}`;
    })
    .join("; ");
  const table: Table = {
    head: ["", ...o.series.map((s) => s.label), "total"],
    rows: o.rows.map((r) => {
      const total = r.values.reduce((a, b) => a + b, 0);
      return [r.label, ...r.values.map((v) => `${v} (${percent(v, total)})`), total];
    }),
  };
  return figure(o.id, o.title, desc, width, height, `<g fill="currentColor">${legend}</g>${bars}`, table, patternDefs(o.id));
}

/** Segment widths in proportion to the values, except that none that is not zero is narrower than 3 px (taken from the widest). */
function segmentWidths(values: readonly number[], barW: number): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  if (total === 0) return values.map(() => 0);
  const widths = values.map((v) => (v > 0 ? Math.max(3, (v / total) * barW) : 0));
  const widest = widths.indexOf(Math.max(...widths));
  widths[widest] = widths[widest]! - (widths.reduce((a, b) => a + b, 0) - barW);
  return widths;
}

/** A rectangle in the series' colour with its pattern over it. */
function swatch(id: string, s: StackSeries, x: number, y: number, w: number, h: number): string {
  const box = `x="${r1(x)}" y="${r1(y)}" width="${r1(Math.max(w, 0))}" height="${r1(h)}"`;
  if (s.pattern === "outline") return `<rect ${box} fill="none" stroke="${s.color}" stroke-width="1.5" stroke-dasharray="3 2"/>`;
  const over = s.pattern === "solid" ? "" : `<rect ${box} fill="url(#${esc(id)}-${s.pattern})"/>`;
  return `<rect ${box} fill="${s.color}"/>${over}`;
}

// ---- a log-scaled time axis ----

/** Bin edges from `min` to `max`, `perDecade` to a factor of ten. */
export function logEdges(min: number, max: number, perDecade = 4): number[] {
  const lo = Math.floor(Math.log10(min) * perDecade);
  const hi = Math.ceil(Math.log10(max) * perDecade);
  const edges: number[] = [];
  for (let k = lo; k <= Math.max(hi, lo + 1); k++) edges.push(10 ** (k / perDecade));
  return edges;
}

/** Counts of `samples` in each bin [edges[i], edges[i+1]); values outside go to the first or last bin. */
export function binCounts(samples: readonly number[], edges: readonly number[]): number[] {
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (const v of samples) {
    let i = edges.findIndex((e) => v < e) - 1;
    if (i < 0) i = v < edges[0]! ? 0 : counts.length - 1;
    counts[Math.min(i, counts.length - 1)]!++;
  }
  return counts;
}

function logScale(min: number, max: number, x0: number, x1: number): (v: number) => number {
  const [a, b] = [Math.log10(min), Math.log10(max)];
  return (v) => x0 + ((Math.log10(Math.min(Math.max(v, min), max)) - a) / (b - a)) * (x1 - x0);
}

/** Powers of ten between min and max, and 2× and 5× when there are too few of them. */
function logTicks(min: number, max: number): number[] {
  const decades: number[] = [];
  for (let k = Math.ceil(Math.log10(min) - 1e-9); k <= Math.floor(Math.log10(max) + 1e-9); k++) decades.push(10 ** k);
  if (decades.length >= 3) return decades;
  const more: number[] = [];
  for (let k = Math.floor(Math.log10(min)); k <= Math.ceil(Math.log10(max)); k++) for (const m of [1, 2, 5]) more.push(m * 10 ** k);
  return more.filter((t) => t >= min * (1 - 1e-9) && t <= max * (1 + 1e-9));
}

// ---- histogram rows ----

export interface Band {
  from: number;
  to: number;
  label: string;
}

export interface HistogramRow {
  label: string;
  counts: number[];
  /** Drawn after the row: n, median, … */
  note?: string;
  /** A range of the axis marked on this row only (e.g. a plateau above this row's baseline). */
  band?: Band;
}

/**
 * One histogram per row, all on the same log-scaled axis of milliseconds (`edges`: the
 * bins' edges). Each row is scaled to its own tallest bin: the rows compare shapes.
 */
export function histogramRows(o: {
  id: string;
  title: string;
  edges: number[];
  rows: HistogramRow[];
  band?: Band;
  axisLabel: string;
  table: Table;
  plotWidth?: number;
  rowHeight?: number;
}): string {
  // The plot keeps its width whatever the notes say, so that charts of one axis line up.
  const noteW = Math.max(20, ...o.rows.map((r) => textWidth(r.note ?? ""))) + 12;
  const width = LABEL_W + (o.plotWidth ?? 420) + noteW;
  const rowH = o.rowHeight ?? 30;
  const top = o.band ? 16 : 6;
  const plotH = o.rows.length * rowH;
  const height = top + plotH + 32;
  const [x0, x1] = [LABEL_W, width - noteW];
  const edges = o.edges;
  const x = logScale(edges[0]!, edges[edges.length - 1]!, x0, x1);
  const bandRect = (b: Band, y: number, h: number, cls: string) =>
    `<rect x="${r1(x(b.from))}" y="${r1(y)}" width="${r1(Math.max(2, x(b.to) - x(b.from)))}" height="${r1(h)}" class="${cls}"><title>${esc(`${b.label}: ${formatMs(b.from)}–${formatMs(b.to)}`)}</title></rect>`;
  const ticks = logTicks(edges[0]!, edges[edges.length - 1]!);
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${r1(x(t))}" x2="${r1(x(t))}" y1="${top}" y2="${top + plotH}" class="grid"/>${text(x(t), top + plotH + 13, formatMs(t), `text-anchor="middle" fill="currentColor"`)}`,
    )
    .join("");
  const band = o.band ? `${bandRect(o.band, top, plotH, "band")}${text(x(o.band.from), top - 4, o.band.label, `fill="currentColor" class="band-label"`)}` : "";
  const rows = o.rows
    .map((row, ri) => {
      const y = top + ri * rowH;
      const peak = Math.max(1, ...row.counts);
      const bars = row.counts
        .map((c, i) => {
          if (c === 0) return "";
          const h = (c / peak) * (rowH - 6);
          return `<rect x="${r1(x(edges[i]!))}" y="${r1(y + rowH - 2 - h)}" width="${r1(Math.max(1, x(edges[i + 1]!) - x(edges[i]!) - 1))}" height="${r1(h)}" fill="${PALETTE[0]}"><title>${esc(`${row.label}: ${c} in ${formatMs(edges[i]!)}–${formatMs(edges[i + 1]!)}`)}</title></rect>`;
        })
        .join("");
      return (
        `${row.band ? bandRect(row.band, y + 1, rowH - 2, "band") : ""}<line x1="${x0}" x2="${x1}" y1="${r1(y + rowH - 2)}" y2="${r1(y + rowH - 2)}" class="base"/>` +
        `${text(x0 - 6, y + rowH / 2 + 4, fitLabel(row.label, LABEL_W - 10), `text-anchor="end" fill="currentColor"`)}${bars}` +
        (row.note ? text(x1 + 8, y + rowH / 2 + 4, row.note, `fill="currentColor" class="muted"`) : "")
      );
    })
    .join("");
  const axis = text((x0 + x1) / 2, height - 4, o.axisLabel, `text-anchor="middle" fill="currentColor" class="muted"`);
  const desc =
    `${o.axisLabel}, log scale from ${formatMs(edges[0]!)} to ${formatMs(edges[edges.length - 1]!)}. ` +
    `${o.band ? `Marked: ${o.band.label} (${formatMs(o.band.from)}–${formatMs(o.band.to)}). ` : ""}` +
    o.rows
      .map((r) => `${r.label}${r.note ? `: ${r.note}` : ""}${r.band ? ` (marked: ${r.band.label}, ${formatMs(r.band.from)}–${formatMs(r.band.to)})` : ""}`)
      .join("; ");
  return figure(o.id, o.title, desc, width, height, `${grid}${band}${rows}${axis}`, o.table);
}

// ---- lines ----

export interface LineSeries {
  label: string;
  points: { x: number; y: number; lo?: number; hi?: number }[];
}

const MARKERS = ["circle", "square", "triangle", "diamond", "cross", "triangle-down", "plus", "star"] as const;

function marker(kind: (typeof MARKERS)[number], x: number, y: number, color: string): string {
  const s = 4;
  switch (kind) {
    case "circle":
      return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${s}" fill="${color}"/>`;
    case "square":
      return `<rect x="${r1(x - s)}" y="${r1(y - s)}" width="${2 * s}" height="${2 * s}" fill="${color}"/>`;
    case "triangle":
      return `<path d="M${r1(x)},${r1(y - s - 1)} l${s + 1},${2 * s + 1} h${-2 * s - 2}z" fill="${color}"/>`;
    case "triangle-down":
      return `<path d="M${r1(x)},${r1(y + s + 1)} l${s + 1},${-2 * s - 1} h${-2 * s - 2}z" fill="${color}"/>`;
    case "diamond":
      return `<path d="M${r1(x)},${r1(y - s - 1)} l${s + 1},${s + 1} l${-s - 1},${s + 1} l${-s - 1},${-s - 1}z" fill="${color}"/>`;
    case "cross":
      return `<path d="M${r1(x - s)},${r1(y - s)} l${2 * s},${2 * s} M${r1(x + s)},${r1(y - s)} l${-2 * s},${2 * s}" stroke="${color}" stroke-width="2.5"/>`;
    case "plus":
      return `<path d="M${r1(x - s - 1)},${r1(y)} h${2 * s + 2} M${r1(x)},${r1(y - s - 1)} v${2 * s + 2}" stroke="${color}" stroke-width="2.5"/>`;
    case "star":
      return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${s}" fill="none" stroke="${color}" stroke-width="2"/>`;
  }
}

/** Where labels meant to sit at `wanted` heights go so that none is nearer another than `gap` (NaN: no label). */
function labelPositions(wanted: readonly number[], gap: number): number[] {
  const order = wanted
    .map((y, i) => ({ y, i }))
    .filter((x) => Number.isFinite(x.y))
    .sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k++) order[k]!.y = Math.max(order[k]!.y, order[k - 1]!.y + gap);
  const out = wanted.map(() => NaN);
  for (const x of order) out[x.i] = x.y;
  return out;
}

/** A "nice" upper bound for a linear axis from zero, and its ticks. */
function linearTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const step0 = 10 ** Math.floor(Math.log10(max / 4));
  const step = [1, 2, 5, 10].map((m) => m * step0).find((s) => max / s <= 5)!;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(t);
  return ticks;
}

const compact = (v: number) => (v >= 1e6 ? `${+(v / 1e6).toPrecision(3)}M` : v >= 1e4 ? `${+(v / 1e3).toPrecision(3)}k` : `${+v.toPrecision(3)}`);

/**
 * One line per series over x values on a log2 axis (client counts), y linear from zero;
 * `lo`/`hi` draw the spread of repeated runs as a bar through each point.
 */
export function lineChart(o: {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: LineSeries[];
  table: Table;
  width?: number;
  height?: number;
}): string {
  const width = o.width ?? 640;
  const height = o.height ?? 300;
  const [x0, x1, y0, y1] = [60, width - 130, height - 40, 14];
  const xs = [...new Set(o.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const ymax = Math.max(0, ...o.series.flatMap((s) => s.points.map((p) => p.hi ?? p.y)).filter(Number.isFinite));
  const yt = linearTicks(ymax);
  const top = yt[yt.length - 1]!;
  const lx = (v: number) =>
    xs.length < 2 ? (x0 + x1) / 2 : x0 + ((Math.log2(v) - Math.log2(xs[0]!)) / (Math.log2(xs[xs.length - 1]!) - Math.log2(xs[0]!))) * (x1 - x0);
  const ly = (v: number) => y0 - (v / top) * (y0 - y1);
  const grid =
    yt
      .map(
        (t) =>
          `<line x1="${x0}" x2="${x1}" y1="${r1(ly(t))}" y2="${r1(ly(t))}" class="grid"/>${text(x0 - 6, ly(t) + 4, compact(t), `text-anchor="end" fill="currentColor"`)}`,
      )
      .join("") + xs.map((v) => text(lx(v), y0 + 14, String(v), `text-anchor="middle" fill="currentColor"`)).join("");
  const ends = labelPositions(
    o.series.map((s) => {
      const pts = s.points.filter((p) => Number.isFinite(p.y));
      return pts.length > 0 ? ly(pts[pts.length - 1]!.y) : NaN;
    }),
    13,
  );
  const lines = o.series
    .map((s, si) => {
      const color = PALETTE[si % PALETTE.length]!;
      const pts = s.points.filter((p) => Number.isFinite(p.y));
      if (pts.length === 0) return "";
      const path = pts.map((p, i) => `${i === 0 ? "M" : "L"}${r1(lx(p.x))},${r1(ly(p.y))}`).join(" ");
      const spreads = pts
        .filter((p) => p.lo !== undefined && p.hi !== undefined && Number.isFinite(p.lo) && Number.isFinite(p.hi))
        .map((p) => `<path d="M${r1(lx(p.x))},${r1(ly(p.lo!))} V${r1(ly(p.hi!))}" stroke="${color}" stroke-width="1" opacity=".7"/>`)
        .join("");
      const marks = pts
        .map(
          (p) =>
            `<g><title>${esc(`${s.label}: ${compact(p.y)} at ${p.x}${p.lo !== undefined ? ` (runs ${compact(p.lo)}–${compact(p.hi ?? p.lo)})` : ""}`)}</title>${marker(MARKERS[si % MARKERS.length]!, lx(p.x), ly(p.y), color)}</g>`,
        )
        .join("");
      const y = ends[si]!;
      return (
        `<path d="${path}" fill="none" stroke="${color}" stroke-width="1.8"/>${spreads}${marks}` +
        `${marker(MARKERS[si % MARKERS.length]!, x1 + 18, y, color)}${text(x1 + 27, y + 4, fitLabel(s.label, 100), `fill="currentColor"`)}`
      );
    })
    .join("");
  const labels =
    text((x0 + x1) / 2, height - 6, o.xLabel, `text-anchor="middle" fill="currentColor" class="muted"`) +
    text(14, (y0 + y1) / 2, o.yLabel, `text-anchor="middle" fill="currentColor" class="muted" transform="rotate(-90 14 ${r1((y0 + y1) / 2)})"`);
  const desc =
    `${o.yLabel} against ${o.xLabel}. ` + o.series.map((s) => `${s.label}: ${s.points.map((p) => `${compact(p.y)} at ${p.x}`).join(", ")}`).join("; ");
  return figure(o.id, o.title, desc, width, height, `${grid}${lines}${labels}`, o.table);
}

// ---- bars ----

export interface BarRow {
  label: string;
  value: number;
  lo?: number;
  hi?: number;
  /** The bar's colour (default: the palette's, row by row); a build keeps its colour from chart to chart. */
  color?: string;
}

/** One horizontal bar per row from zero, its value written after it, the runs' spread as a whisker. */
export function barChart(o: { id: string; title: string; unit: string; rows: BarRow[]; table: Table; width?: number }): string {
  const width = o.width ?? 640;
  const rowH = 20;
  const height = o.rows.length * rowH + 26;
  const [x0, x1] = [LABEL_W, width - 90];
  const ticks = linearTicks(Math.max(0, ...o.rows.map((r) => r.hi ?? r.value).filter(Number.isFinite)));
  const top = ticks[ticks.length - 1]!;
  const lx = (v: number) => x0 + (Math.max(0, v) / top) * (x1 - x0);
  const plotH = o.rows.length * rowH;
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${r1(lx(t))}" x2="${r1(lx(t))}" y1="0" y2="${plotH}" class="grid"/>${text(lx(t), plotH + 13, compact(t), `text-anchor="middle" fill="currentColor"`)}`,
    )
    .join("");
  const bars = o.rows
    .map((r, i) => {
      const y = i * rowH;
      const v = Number.isFinite(r.value) ? r.value : 0;
      const whisker =
        r.lo !== undefined && r.hi !== undefined && Number.isFinite(r.lo) && Number.isFinite(r.hi)
          ? `<path d="M${r1(lx(r.lo))},${y + rowH / 2} H${r1(lx(r.hi))} M${r1(lx(r.lo))},${y + 5} v${rowH - 10} M${r1(lx(r.hi))},${y + 5} v${rowH - 10}" stroke="currentColor" stroke-width="1"/>`
          : "";
      return (
        `${text(x0 - 6, y + rowH / 2 + 4, fitLabel(r.label, LABEL_W - 10), `text-anchor="end" fill="currentColor"`)}` +
        `<rect x="${x0}" y="${y + 3}" width="${r1(lx(v) - x0)}" height="${rowH - 6}" fill="${r.color ?? PALETTE[i % PALETTE.length]}"><title>${esc(`${r.label}: ${compact(v)} ${o.unit}`)}</title></rect>${whisker}` +
        text(
          Math.max(lx(v), r.hi !== undefined && Number.isFinite(r.hi) ? lx(r.hi) : 0) + 6,
          y + rowH / 2 + 4,
          Number.isFinite(r.value) ? `${compact(r.value)}` : "–",
          `fill="currentColor"`,
        )
      );
    })
    .join("");
  const axis = text((x0 + x1) / 2, height - 2, o.unit, `text-anchor="middle" fill="currentColor" class="muted"`);
  const desc = `${o.unit}: ${o.rows.map((r) => `${r.label} ${Number.isFinite(r.value) ? compact(r.value) : "none"}`).join(", ")}`;
  return figure(o.id, o.title, desc, width, height, `${grid}${bars}${axis}`, o.table);
}

/** The charts' stylesheet, for any page that shows them; colours follow the page's text (currentColor). */
export const CHART_STYLE = `
figure.chart { margin: 8px 0 14px; max-width: 100%; overflow-x: auto; }
figure.chart figcaption { font-weight: 600; margin: 0 0 4px; }
figure.chart svg { display: block; overflow: visible; font-family: inherit; }
figure.chart .grid { stroke: currentColor; stroke-opacity: .15; }
figure.chart .base { stroke: currentColor; stroke-opacity: .35; }
figure.chart .muted { fill-opacity: .7; }
figure.chart .band { fill: #d55e00; fill-opacity: .16; }
figure.chart .band-label { fill: #d55e00; font-weight: 600; }
figure.chart .seg-label { font-weight: 600; pointer-events: none; }
details.chart-table summary { cursor: pointer; font-size: 11px; opacity: .75; }
table.chart-data { border-collapse: collapse; font-size: 12px; margin: 4px 0; }
table.chart-data th, table.chart-data td { border: 1px solid rgba(127,127,127,.35); padding: 1px 6px; text-align: right; }
table.chart-data th[scope="row"] { text-align: left; font-weight: normal; }
`;
