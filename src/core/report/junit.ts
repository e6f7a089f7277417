// The JUnit XML report, for CI systems that show test results: one <testcase> per case
// and build that ran (a <failure> when that build diverges from its reference in a way
// the ledger does not know, an <error> when it could not be checked — no answer, or no
// oracle answer to measure it against — and <skipped> when it answered but had nothing
// to be judged against), one <skipped> testcase per case that did not run, known quirks in <system-out>, one <testsuite> per method,
// and a "ledger" suite whose one testcase fails on stale or expired entries — so the CI
// page fails exactly when the run's exit code does.

import { writeFileAtomicParts } from "../io/atomic-write.js";
import { formatPatch } from "../diff/patch.js";
import type { Reporter, RunEvent } from "../results/events.js";
import type { CaseResult, ClassifiedDivergence } from "../results/result.js";
import type { ReportContext } from "./context.js";
import { jsonReportFrom, type JsonReport } from "./json.js";
import { adviceFor } from "../targets/fault-advice.js";
import { uncheckedLine } from "../results/unchecked.js";

/** Characters XML 1.0 cannot carry even as references become a visible \uXXXX. */
function xmlSafe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function xmlText(s: string): string {
  return xmlSafe(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function xmlAttr(s: string): string {
  // Tabs and newlines in attributes would be normalized to spaces by parsers: keep them.
  return xmlText(s).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

function attrs(a: Record<string, string | number | undefined>): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join("");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function value(v: unknown): string {
  return v === undefined ? "(absent)" : JSON.stringify(v);
}

function divergenceLines(ds: readonly ClassifiedDivergence[], ctx: ReportContext): string[] {
  const titles = new Map((ctx.quirks ?? []).map((q) => [q.id, q]));
  return ds.flatMap((d) => {
    const q = d.quirk === null ? undefined : titles.get(d.quirk);
    const label = d.quirk === null ? "NEW" : `known quirk ${d.quirk}${q ? ` (${q.title}; ${q.reference})` : ""}`;
    return [
      `${label}: ${d.kind} at ${d.path || "(whole answer)"}`,
      `  ${d.left}: ${value(d.leftValue)}`,
      `  ${d.right}: ${value(d.rightValue)}`,
      ...(d.detail ? [`  ${d.detail}`] : []),
    ];
  });
}

interface TestCase {
  xml: string;
  failed: boolean;
  errored: boolean;
  skipped: boolean;
  ms: number;
}

function caseTestcases(r: CaseResult, ctx: ReportContext): TestCase[] {
  if (r.skipped) {
    return [
      {
        xml: `    <testcase${attrs({ classname: r.method, name: r.caseId, time: "0.000", file: r.source })}>\n      <skipped${attrs({ message: r.skipped })}/>\n    </testcase>`,
        failed: false,
        errored: false,
        skipped: true,
        ms: 0,
      },
    ];
  }
  return r.answers.map((a) => {
    const mine = r.divergences.filter((d) => d.build === a.side);
    const fresh = mine.filter((d) => d.quirk === null);
    const known = mine.filter((d) => d.quirk !== null);
    const drift = (r.drift ?? []).find((d) => d.build === a.side && d.status === "changed");
    const outcome = r.outcomes?.find((o) => o.build === a.side);
    const body: string[] = [];
    let verdictTag = "";
    const fault = outcome?.fault ?? a.fault;
    const unchecked = outcome?.outcome === "unchecked" || (a.fault !== undefined && !outcome);
    if (unchecked && !fault) {
      // Nobody's fault: the chain moved through every attempt (moving-chain.ts).
      const message = `could not check: ${a.side}: ${outcome?.reason ?? "no answer to compare"}`;
      const unsettled = (r.reasked?.unsettled ?? []).filter((d) => d.build === a.side);
      verdictTag = `\n      <error${attrs({ message, type: `unchecked:${outcome?.cause ?? "unknown"}` })}>${xmlText([message, ...divergenceLines(unsettled, ctx)].join("\n"))}</error>`;
    } else if (unchecked && fault) {
      const who = outcome?.cause === "oracle" ? "the oracle" : a.side;
      const advice = adviceFor(fault);
      const message = `could not check: ${who}: ${advice.what} — ${fault.detail}; ${advice.hint}`;
      verdictTag = `\n      <error${attrs({ message, type: `unchecked:${fault.kind}` })}>${xmlText([message, ...divergenceLines(fresh, ctx)].join("\n"))}</error>`;
    } else if (fresh.length > 0 || drift) {
      const message = [
        ...fresh.map((d) => `${d.kind} ${d.path || "(whole answer)"}`),
        ...(drift ? [`drift from golden (${drift.divergences.length})`] : []),
      ].join("; ");
      const lines = [...divergenceLines(fresh, ctx)];
      for (const p of r.patches.filter((p) => p.right === a.side)) {
        lines.push("", `JSON Patch ${p.left} → ${p.right}:`, ...formatPatch(p.ops).map((l) => `  ${l}`), JSON.stringify(p.ops));
      }
      if (drift)
        lines.push(
          "",
          "drift from the recorded golden:",
          ...drift.divergences.map((d) => `  ${d.kind} ${d.path || "(whole answer)"}: ${value(d.leftValue)} → ${value(d.rightValue)}`),
        );
      const type = [...new Set(fresh.map((d) => d.kind))].join(",") || "drift";
      verdictTag = `\n      <failure${attrs({ message, type })}>${xmlText(lines.join("\n"))}</failure>`;
    } else if (outcome?.outcome === "unjudged") {
      verdictTag = `\n      <skipped${attrs({ message: `unjudged: ${outcome.reason ?? "nothing to measure it against"}` })}/>`;
    }
    if (known.length > 0) body.push(...divergenceLines(known, ctx));
    if (a.fault && !verdictTag) body.push(`fault ${a.fault.kind}: ${a.fault.detail}`);
    const out = body.length > 0 ? `\n      <system-out>${xmlText(body.join("\n"))}</system-out>` : "";
    const name = `${r.caseId} [${a.side}]`;
    return {
      xml: `    <testcase${attrs({ classname: r.method, name, time: seconds(a.ms), file: r.source })}>${verdictTag}${out}${verdictTag || out ? "\n    " : ""}</testcase>`,
      failed: verdictTag.includes("<failure"),
      errored: verdictTag.includes("<error"),
      skipped: verdictTag.includes("<skipped"),
      ms: a.ms,
    };
  });
}

function* suite(name: string, tests: TestCase[], timestamp: string, props: string): Generator<string> {
  const count = (f: (t: TestCase) => boolean) => tests.filter(f).length;
  yield `  <testsuite${attrs({
    name,
    tests: tests.length,
    failures: count((t) => t.failed),
    errors: count((t) => t.errored),
    skipped: count((t) => t.skipped),
    time: seconds(tests.reduce((s, t) => s + t.ms, 0)),
    timestamp,
  })}>\n`;
  if (props !== "") yield `${props}\n`;
  for (const t of tests) yield `${t.xml}\n`;
  yield "  </testsuite>\n";
}

function ledgerTestcase(report: JsonReport, allowStale: boolean): TestCase {
  const s = report.summary;
  const stale = s?.stale ?? [];
  const expired = s?.expired ?? [];
  const lines = [...expired.map((e) => `expired: ${e.quirk} (expired ${e.expires})`), ...stale.map((e) => `stale: ${e.quirk}: ${e.reason}`)];
  const failing = expired.length > 0 || (!allowStale && stale.length > 0);
  const message = `${expired.length} expired, ${stale.length} stale ledger entries`;
  const inner = failing
    ? `\n      <failure${attrs({ message, type: "ledger" })}>${xmlText(lines.join("\n"))}</failure>\n    `
    : lines.length > 0
      ? `\n      <system-out>${xmlText(lines.join("\n"))}</system-out>\n    `
      : "";
  return {
    xml: `    <testcase${attrs({ classname: "ledger", name: "no stale or expired ledger entries", time: "0.000" })}>${inner}</testcase>`,
    failed: failing,
    errored: false,
    skipped: false,
    ms: 0,
  };
}

export interface JunitOptions {
  context?: ReportContext;
  /** Stale entries do not fail the ledger testcase (as --allow-stale). */
  allowStale?: boolean;
}

/** The whole document, from the same data as the JSON report. */
export function junitXmlFrom(report: JsonReport, o: JunitOptions = {}): string {
  return [...junitXmlParts(report, o)].join("");
}

/** The document testsuite by testsuite and testcase by testcase, for writing without one string. */
export function* junitXmlParts(report: JsonReport, o: JunitOptions = {}): Generator<string> {
  const ctx = o.context ?? {};
  const timestamp = report.startedAt.replace(/\.\d+Z$/, "Z");
  const props = [
    `    <properties>`,
    `      <property${attrs({ name: "chain", value: report.chain })}/>`,
    `      <property${attrs({ name: "oracle", value: report.oracle ?? "none" })}/>`,
    ...report.builds.map(
      (b) =>
        `      <property${attrs({ name: `build.${b.name}`, value: `${b.implementation}${b.version ? ` ${b.version}` : ""}${b.emulated ? " (EMULATED)" : ""}${b.pin ? ` (REAL, pinned ${b.pin})` : ""}` })}/>`,
    ),
    ...(report.partial ? [`      <property${attrs({ name: "partial", value: report.interrupted ? `true (${report.interrupted})` : "true" })}/>`] : []),
    ...report.conditions.map((k) => `      <property${attrs({ name: `condition.${k.kind}.${k.side}`, value: k.detail })}/>`),
    ...(report.summary?.unchecked ?? []).map((u) => `      <property${attrs({ name: `unchecked.${u.side}`, value: uncheckedLine(u) })}/>`),
    `    </properties>`,
  ].join("\n");
  const byMethod = new Map<string, TestCase[]>();
  for (const r of report.cases) {
    const key = `${r.transport}.${r.method}`;
    byMethod.set(key, [...(byMethod.get(key) ?? []), ...caseTestcases(r, ctx)]);
  }
  const ledger = [ledgerTestcase(report, o.allowStale ?? false)];
  const all = [...[...byMethod.values()].flat(), ...ledger];
  const total = (f: (t: TestCase) => boolean) => all.filter(f).length;
  const durationMs = report.summary?.durationMs ?? all.reduce((s, t) => s + t.ms, 0);
  yield `<?xml version="1.0" encoding="UTF-8"?>\n`;
  yield `<testsuites${attrs({
    name: `zconform ${report.chain}`,
    tests: all.length,
    failures: total((t) => t.failed),
    errors: total((t) => t.errored),
    skipped: total((t) => t.skipped),
    time: seconds(durationMs),
    timestamp,
  })}>\n`;
  for (const [name, tests] of byMethod) yield* suite(name, tests, timestamp, props);
  yield* suite("ledger", ledger, timestamp, props);
  yield "</testsuites>\n";
}

export function junitReporter(path: string, o: JunitOptions = {}): Reporter {
  const events: RunEvent[] = [];
  return {
    onEvent: (e) => {
      events.push(e);
    },
    finish: async () => {
      if (events.some((e) => e.type === "run-start")) writeFileAtomicParts(path, junitXmlParts(jsonReportFrom(events), o));
    },
  };
}
