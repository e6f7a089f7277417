// The HTML report of a real run, opened in headless Chromium: the charts draw a row per
// build, the matrix renders a cell for every build, and clicking a case opens its
// drill-down (from the data the page unpacks) with both sides' bytes and decoded JSON and
// a reproduce command. Without Chromium the test is skipped locally, with a message, and
// fails under CI=true (where .ci/run installs it).

import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { reportContext } from "./context.js";
import { fixtureRun } from "../../../test/tools/fixture-run.js";
import { htmlReporter } from "./html.js";
import { pageData } from "./html-page-data.test-helper.js";
import { describeIf } from "../../../test/tools/skips.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const available = existsSync(CHROMIUM);
const inCi = process.env.CI === "true";

if (!available && inCi) {
  test("Chromium is installed for the HTML report test", () => {
    throw new Error(`${CHROMIUM} not found: CI must install Debian's chromium (apt-get install chromium), as .ci/run does`);
  });
}

/** The build whose answers the report shows as asked again. */
const ASKED_AGAIN = "zebrad-builtin";

describeIf(available, `need chromium at ${CHROMIUM} (apt-get install chromium; CI=true fails without it)`)("HTML report in headless Chromium", () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  let builds: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "zconform-html-"));
    const run = await fixtureRun({
      profiles: ["reference", "lightwalletd", "zebrad-builtin", "ztreamer-v0.1.0"],
      filter: { method: ["GetBlock", "GetLightdInfo", "GetSubtreeRoots", "getblockcount", "getblock"] },
    });
    builds = run.config.builds.map((b) => b.name);
    const reporter = htmlReporter(join(dir, "report.html"), reportContext(run.ledger, run.config));
    // One build's GetBlock answers as a deadline case's answer asked again would be.
    for (const e of run.events) {
      if (e.type === "case-result" && e.result.method === "GetBlock") {
        for (const a of e.result.answers) if (a.side === ASKED_AGAIN) a.askedAgain = [346];
      }
      reporter.onEvent(e);
    }
    await reporter.finish();
    context = await chromium.launchPersistentContext(join(dir, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1500, height: 1000 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => requests.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") requests.push(`console ${m.type()}: ${m.text()}`);
    });
    await page.goto(`file://${join(dir, "report.html")}`);
    await page.waitForSelector("html[data-loaded]", { timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("the charts draw, with JavaScript or without: outcomes and answer times per build, answer times per method", async () => {
    const rowsOf = (id: string) => page.$$eval(`#${id} svg > text[text-anchor="end"]`, (ts) => ts.map((t) => t.textContent));
    const labels = builds.map((b) => (b === "reference" ? b : `${b} (EMU)`));
    expect(await rowsOf("chart-outcomes")).toEqual(labels);
    expect(await rowsOf("chart-times")).toEqual(labels);
    // Each build's bar stands for every case it was asked: the table under it says so, and adds up.
    const table = await page.$$eval("#chart-outcomes table.chart-data tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? "")));
    const data = pageData(readFileSync(join(dir, "report.html"), "utf8"));
    for (const [i, b] of builds.entries()) {
      const asked = data.cases.filter((c) => !c.skipped && c.answers.some((a) => a.side === b)).length;
      expect(table[i]![0]).toBe(labels[i]);
      expect(Number(table[i]![table[i]!.length - 1])).toBe(asked);
      expect(table[i]!.slice(1, -1).reduce((n, cell) => n + Number(cell.split(" ")[0]), 0)).toBe(asked);
    }
    const bars = await page.$$eval("#chart-outcomes svg rect", (rs) => rs.filter((r) => r.getBoundingClientRect().width > 0).length);
    expect(bars).toBeGreaterThan(builds.length);
    // One small chart per method the matrix lists.
    const methods = await page.$$eval("#matrix th.method", (ths) => ths.map((th) => th.getAttribute("data-method")));
    expect(await page.$$eval("details.by-method figure.chart figcaption", (fs) => fs.map((f) => f.textContent))).toEqual(methods);
    // With JavaScript off the same charts draw: they are markup, not script.
    const off = await chromium.launchPersistentContext(join(dir, "profile-nojs"), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1500, height: 1000 },
      javaScriptEnabled: false,
    });
    try {
      const p = off.pages()[0] ?? (await off.newPage());
      await p.goto(`file://${join(dir, "report.html")}`);
      expect(await p.$$eval(`#chart-outcomes svg > text[text-anchor="end"]`, (ts) => ts.map((t) => t.textContent))).toEqual(labels);
      expect(await p.$$eval("#chart-times svg rect", (rs) => rs.filter((r) => r.getBoundingClientRect().height > 0).length)).toBeGreaterThan(builds.length);
    } finally {
      await off.close();
    }
  });

  test("the matrix has a column and a cell per build on every row", async () => {
    const heads = await page.$$eval("#matrix th.build .bname", (els) => els.map((e) => e.textContent));
    expect(heads).toEqual(builds);
    const rows = await page.$$eval("#matrix tbody tr", (trs) => trs.map((tr) => tr.querySelectorAll("td.cell").length));
    expect(rows.length).toBe(5);
    for (const n of rows) expect(n).toBe(builds.length);
    const emulated = await page.$$eval("#matrix th.build", (ths) => ths.map((th) => th.querySelector(".emu") !== null));
    expect(emulated).toEqual([false, true, true, true]);
  });

  test("clicking a case opens its drill-down: both sides' hex and JSON, divergences, a reproduce command", async () => {
    // A GetBlock case where a build answers, but differently from the oracle: two different sides to show.
    const pick = (() => {
      for (const c of pageData(readFileSync(join(dir, "report.html"), "utf8")).cases) {
        if (c.method !== "GetBlock" || c.oracle?.status !== "OK") continue;
        const d = c.divergences.find((x) => x.left === "oracle" && c.answers.some((a) => a.side === x.build && a.status === "OK"));
        if (d) return { id: c.caseId, build: d.build };
      }
      return undefined;
    })();
    expect(pick).toBeDefined();
    const id = pick!.id;
    await page.locator(`tr.case[data-id="${id}"]`).click();
    await page.locator(`#detail .tabs button[data-build="${pick!.build}"]`).click();
    await expect(page.locator("#detail h2").textContent()).resolves.toBe(id);
    expect(await page.locator("#detail .tabs button").count()).toBe(builds.length);
    const sides = page.locator("#detail .sides");
    expect(await sides.locator(".shead").count()).toBe(2);
    const hex = await sides.locator("pre.hex").allTextContents();
    expect(hex).toHaveLength(2);
    for (const h of hex) expect(h).toMatch(/# message 1 · \d+ bytes\n000000 {2}[0-9a-f]{2}/);
    const json = await sides.locator("pre.json").allTextContents();
    expect(json).toHaveLength(2);
    for (const j of json) expect(JSON.parse(j)).toHaveProperty("height");
    expect(await page.locator("#detail table.divs tbody tr").count()).toBeGreaterThan(0);
    const commands = await page.locator("#detail pre.command").allTextContents();
    expect(commands.some((c) => c.startsWith("grpcurl -plaintext") && c.includes("cash.z.wallet.sdk.rpc.CompactTxStreamer/GetBlock"))).toBe(true);
    expect(page.url()).toContain(`#case=${encodeURIComponent(id!)}`);
  });

  test("an answer asked again says how often and why", async () => {
    const id = pageData(readFileSync(join(dir, "report.html"), "utf8")).cases.find(
      (c) => c.method === "GetBlock" && c.answers.some((a) => a.side === ASKED_AGAIN),
    )!.caseId;
    await page.locator(`tr.case[data-id="${id}"]`).click();
    await page.locator(`#detail .tabs button[data-build="${ASKED_AGAIN}"]`).click();
    await expect(page.locator(`#detail .sides .shead[data-side="${ASKED_AGAIN}"]`).textContent()).resolves.toContain(
      "asked 2\u00d7 (zconform stood still 346 ms before)",
    );
  });

  test("a JSON-RPC case reproduces with curl, and its tab switches builds", async () => {
    await page.locator('tr.case[data-method="jsonrpc getblock"]').first().click();
    const tab = page.locator("#detail .tabs button").nth(1);
    const build = await tab.getAttribute("data-build");
    await tab.click();
    await expect(page.locator("#detail .panel").getAttribute("data-build")).resolves.toBe(build);
    const commands = await page.locator("#detail pre.command").allTextContents();
    expect(commands.some((c) => c.startsWith('curl -s --data-binary \'{"jsonrpc":"2.0","id":1,"method":"getblock"'))).toBe(true);
  });

  test("the filters narrow the list, and a matrix cell lists its cases", async () => {
    const total = await page.locator("tr.case").count();
    await page.fill("#q", "getblockcount");
    const visible = await page.locator("tr.case:visible").count();
    expect(visible).toBeGreaterThan(0);
    expect(visible).toBeLessThan(total);
    await page.fill("#q", "");
    await page.locator('#matrix td.cell[data-method="grpc GetLightdInfo"]').nth(1).click();
    const methods = await page.$$eval("tr.case:not([hidden])", (trs) => [...new Set(trs.map((tr) => tr.getAttribute("data-method")))]);
    expect(methods).toEqual(["grpc GetLightdInfo"]);
  });

  test("the page fetched nothing, threw nothing and logged no error", () => {
    expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
  });
});
