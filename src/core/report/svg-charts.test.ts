import { describe, expect, test } from "@jest/globals";
import { barChart, binCounts, formatMs, histogramRows, lineChart, logEdges, percent, stackedBars } from "./svg-charts.js";

/** Every element `tag` of the markup, as its attributes. */
function elements(svg: string, tag: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${tag}\\b([^>]*?)/?>`, "g"))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}
const texts = (svg: string) => [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const tableRows = (html: string) =>
  [...html.matchAll(/<tr><th scope="row">([^<]*)<\/th>((?:<td>[^<]*<\/td>)*)<\/tr>/g)].map((m) => [
    m[1],
    ...[...m[2]!.matchAll(/<td>([^<]*)<\/td>/g)].map((c) => c[1]),
  ]);

const series = [
  { label: "pass", color: "#0072b2", pattern: "solid" as const },
  { label: "known", color: "#e69f00", pattern: "hatch" as const },
  { label: "new", color: "#d55e00", pattern: "cross" as const },
];

describe("stacked bars", () => {
  const html = stackedBars({
    id: "s",
    title: "Outcomes <per> build",
    series,
    rows: [
      { label: "a&b", values: [300, 100, 0] },
      { label: "c", values: [1, 0, 399] },
    ],
  });

  test("each segment's length is its share of the row, a sliver stays visible, and a row's segments fill the bar", () => {
    const bars = elements(html, "rect").filter((r) => r.fill?.startsWith("#") && Number(r.y) > 20);
    // Row a&b: 300 and 100 of 400 cases; row c: 1 and 399 (no rect for an empty segment).
    expect(bars.map((r) => Number(r.width))).toHaveLength(4);
    const [a1, a2, c1, c2] = bars.map((r) => Number(r.width));
    const whole = a1! + a2!;
    expect(c1! + c2!).toBeCloseTo(whole, 0);
    expect(Math.abs(a1! - 0.75 * whole)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(a2! - 0.25 * whole)).toBeLessThanOrEqual(0.1);
    // One case in 400 would be a pixel wide: it is drawn 3 px wide, and said after the bar.
    expect(c1).toBe(3);
    expect(texts(html)).toContain("400 cases · 1 pass");
  });

  test("segments carry their pattern, and labels say count and share where they fit", () => {
    expect(html).toContain(`fill="url(#s-hatch)"`);
    expect(html).toContain(`fill="url(#s-cross)"`);
    expect(texts(html)).toEqual(expect.arrayContaining(["300 · 75%", "100 · 25%", "399 · &gt;99%", "400 cases"]));
    // The 1-case segment is too narrow for a label; its title still names it.
    expect(html).toContain("<title>c: 1 pass (&lt;1%)</title>");
  });

  test("a screen reader and a table get every number; names are escaped", () => {
    expect(html).toContain(`aria-labelledby="s-t s-d"`);
    expect(html).toContain('<title id="s-t">Outcomes &lt;per&gt; build</title>');
    expect(html).toMatch(/<desc id="s-d">a&amp;b: 300 pass \(75%\), 100 known \(25%\), 0 new \(0%\); c: 1 pass \(&lt;1%\)/);
    expect(tableRows(html)).toEqual([
      ["a&amp;b", "300 (75%)", "100 (25%)", "0 (0%)", "400"],
      ["c", "1 (&lt;1%)", "0 (0%)", "399 (&gt;99%)", "400"],
    ]);
  });
});

describe("histogram rows on a log axis", () => {
  const edges = logEdges(0.1, 1000, 1);
  const html = histogramRows({
    id: "h",
    title: "times",
    edges,
    axisLabel: "ms",
    band: { from: 35, to: 45, label: "~40 ms plateau" },
    rows: [
      { label: "fast", counts: binCounts([0.5, 0.6, 2], edges), note: "p50 0.6 ms" },
      { label: "slow", counts: binCounts([40, 41, 42, 900], edges) },
    ],
    table: {
      head: ["build", "calls"],
      rows: [
        ["fast", 3],
        ["slow", 4],
      ],
    },
  });

  test("edges and bins: a decade per bin, values outside in the end bins", () => {
    expect(edges).toEqual([0.1, 1, 10, 100, 1000]);
    expect(binCounts([0.01, 0.5, 5, 50, 500, 5000], edges)).toEqual([2, 1, 1, 2]);
    expect(logEdges(1, 100, 2).length).toBe(5);
  });

  test("bars stand in their bins, taller where more calls fell, and the band spans 35–45 ms", () => {
    const bars = elements(html, "rect").filter((r) => r.fill === "#0072b2");
    // The axis as its tick labels place it: 0.1 ms at one end, 1 s at the other.
    const tick = (label: string) => Number(new RegExp(`<text x="([\\d.]+)"[^>]*>${label}</text>`).exec(html)![1]);
    const x = (v: number) => tick("0.1 ms") + (Math.log10(v / 0.1) / 4) * (tick("1 s") - tick("0.1 ms"));
    // fast: 2 calls in 0.1–1 ms, 1 in 1–10 ms; slow: 3 in 10–100, 1 in 100–1000.
    expect(bars.map((b) => Math.round(Number(b.x)))).toEqual([x(0.1), x(1), x(10), x(100)].map(Math.round));
    expect(Number(bars[0]!.height)).toBeGreaterThan(Number(bars[1]!.height));
    const band = elements(html, "rect").find((r) => r.class === "band")!;
    expect(Number(band.x)).toBeCloseTo(x(35), 0);
    expect(Number(band.x) + Number(band.width)).toBeCloseTo(x(45), 0);
    expect(texts(html)).toEqual(expect.arrayContaining(["~40 ms plateau", "0.1 ms", "1 ms", "10 ms", "100 ms", "1 s", "fast", "slow", "p50 0.6 ms"]));
    expect(html).toContain("Marked: ~40 ms plateau (35 ms–45 ms)");
  });
});

describe("lines and bars", () => {
  const table = { head: ["x"], rows: [] };
  test("a line per series through its points in client order, each with its own marker and an end label", () => {
    const html = lineChart({
      id: "l",
      title: "blocks/s",
      xLabel: "clients",
      yLabel: "blocks/s",
      table,
      series: [
        {
          label: "one",
          points: [
            { x: 1, y: 100, lo: 90, hi: 110 },
            { x: 8, y: 400 },
            { x: 128, y: 800 },
          ],
        },
        {
          label: "two",
          points: [
            { x: 1, y: 50 },
            { x: 128, y: 60 },
          ],
        },
      ],
    });
    const lines = elements(html, "path").filter((p) => p["stroke-width"] === "1.8");
    expect(lines).toHaveLength(2);
    const xs = [...lines[0]!.d!.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(xs.map(([x]) => x)).toEqual([...xs.map(([x]) => x!)].sort((a, b) => a - b));
    // log2 axis: 8 clients is 3/7 of the way from 1 to 128; y grows upwards.
    expect((xs[1]![0]! - xs[0]![0]!) / (xs[2]![0]! - xs[0]![0]!)).toBeCloseTo(3 / 7, 2);
    expect(xs[2]![1]).toBeLessThan(xs[0]![1]!);
    expect(elements(html, "circle").length).toBeGreaterThan(0);
    expect(elements(html, "rect").filter((r) => r.fill === "#e69f00").length).toBeGreaterThan(0);
    expect(texts(html)).toEqual(expect.arrayContaining(["one", "two", "1", "8", "128"]));
    expect(html).toContain("one: 100 at 1 (runs 90–110)");
  });

  test("bars from zero, as long as their value, with the runs' spread as a whisker", () => {
    const html = barChart({
      id: "b",
      title: "download",
      unit: "blocks/s",
      table,
      rows: [
        { label: "a", value: 1000, lo: 900, hi: 1100 },
        { label: "b", value: 250 },
      ],
    });
    const bars = elements(html, "rect").filter((r) => r.fill?.startsWith("#"));
    expect(Number(bars[0]!.width) / Number(bars[1]!.width)).toBeCloseTo(4, 2);
    expect(texts(html)).toEqual(expect.arrayContaining(["1000", "250", "blocks/s"]));
    expect(elements(html, "path").filter((p) => p.stroke === "currentColor")).toHaveLength(1);
  });
});

test("times and shares as people read them", () => {
  expect([0.25, 3.456, 12.4, 999, 1500, 12_000].map(formatMs)).toEqual(["0.25 ms", "3.5 ms", "12 ms", "999 ms", "1.5 s", "12 s"]);
  expect([percent(1, 400), percent(399, 400), percent(0, 0), percent(1, 3), percent(2, 2)]).toEqual(["<1%", ">99%", "0%", "33%", "100%"]);
});
