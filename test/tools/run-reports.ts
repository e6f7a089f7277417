// What end-to-end tests check of a finished run: every report written, whole and valid
// (the JSON one against its schema), and one build's answers, to compare a healthy
// build's results with and without a hostile one beside it.

import { expect } from "@jest/globals";
import { Ajv } from "ajv";
import { XMLValidator } from "fast-xml-parser";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonReportFile } from "../../src/core/report/json-file.js";
import { REPO } from "./cli.js";

const validate = new Ajv({ strict: false, validateFormats: false }).compile(JSON.parse(readFileSync(join(REPO, "schemas", "report.schema.json"), "utf8")));

/** `--json`, `--junit` and `--html` arguments for reports at `base`.json/.xml/.html. */
export function reportArgs(base: string): string[] {
  return ["--json", `${base}.json`, "--junit", `${base}.xml`, "--html", `${base}.html`];
}

/** Expects the three reports at `base` whole and valid; returns the JSON one. */
export function validReports(base: string): JsonReportFile {
  const report = JSON.parse(readFileSync(`${base}.json`, "utf8")) as JsonReportFile;
  expect(validate(report) ? [] : validate.errors).toEqual([]);
  expect(XMLValidator.validate(readFileSync(`${base}.xml`, "utf8"))).toBe(true);
  expect(readFileSync(`${base}.html`, "utf8").trimEnd().endsWith("</html>")).toBe(true);
  return report;
}

/** One build's status and bytes on each case (an answer kept as `sameAs` another side is read there). */
export function answersOf(report: JsonReportFile, side: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of report.cases) {
    const all = [...(c.oracle ? [c.oracle] : []), ...c.answers];
    const a = c.answers.find((x) => x.side === side);
    if (!a) continue;
    const bytes = "sameAs" in a ? all.find((x) => x.side === a.sameAs)! : a;
    out.set(c.caseId, JSON.stringify([a.status, "hex" in bytes ? bytes.hex : null]));
  }
  return out;
}

/** One build's fault kind on each case it was asked, "answer" where it answered. */
export function faultsOf(report: JsonReportFile, side: string, transport?: "grpc" | "jsonrpc"): string[] {
  return report.cases
    .filter((c) => transport === undefined || c.transport === transport)
    .flatMap((c) => c.answers.filter((a) => a.side === side).map((a) => a.fault?.kind ?? "answer"));
}
