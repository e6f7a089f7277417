// Fuzzing the quirks ledger: parseLedger on the real ledger (when cases/quirks.yaml is
// there) and a purpose-written one, mutated and random; and whatever loads is then used
// as a run uses it (classify, ledgerFindings), which must not throw or hang either.
//
// "Clear" for the ledger loader: a ProblemsError whose every problem names the file, a
// line inside it and a message in words, as for case files.

import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { existsSync, readFileSync } from "node:fs";
import type { Divergence } from "../../src/core/diff/divergence.js";
import { classify } from "../../src/core/ledger/classify.js";
import { ledgerFindings } from "../../src/core/ledger/findings.js";
import { parseLedger, type Quirk } from "../../src/core/ledger/quirk.js";
import type { CaseResult } from "../../src/core/results/result.js";
import { ProblemsError } from "../../src/core/io/located-yaml.js";
import { expectClear, fuzz, FUZZ_RUNS, mutatedText, yamlishText } from "./fuzz.js";

const FILE = "cases/quirks.yaml";

const WRITTEN = `# every field an entry can have
description: known quirks
quirks:
  - id: zaino-internal
    title: Zaino answers INTERNAL where others answer INVALID_ARGUMENT
    kind: error-code
    builds: [{ implementation: zaino, versions: ">=0.9.0 <0.10.2" }]
    protocol: "<0.5.0"
    match:
      transport: grpc
      methods: [GetTransaction, GetBlock]
      cases: ["GetTransaction/*", "GetBlock/bad-*"]
      path: status.code
      shape: { from: [INVALID_ARGUMENT, 3], to: [INTERNAL] }
    reference: lightwallet-protocol.md §3.4
    status: open
    expires: 2099-01-01
    notes: seen in the published comparison
  - id: doubled
    title: A repeated address is counted twice
    kind: [multiplicity, value]
    builds: [{ names: [zt-1] }, { implementation: ztreamer, versions: [master, v0.1.0] }]
    match: { methods: [GetTaddressBalanceStream], path: [valueZat, "vtx[*].fee"], shape: { factor: 2, fromType: number, toType: number } }
    reference: issue 12
    status: fixed
    fixed_in: 0.2.0
`;

function seeds(): string[] {
  const out = [WRITTEN];
  if (existsSync(FILE)) {
    // The head and the first three entries of the real ledger.
    out.push(
      readFileSync(FILE, "utf8")
        .split(/\n(?= {2}- id:)/)
        .slice(0, 4)
        .join("\n"),
    );
  }
  return out;
}

const DIVERGENCES: Divergence[] = [
  { kind: "error-code", path: "status.code", left: "oracle", right: "zaino", leftValue: "INVALID_ARGUMENT", rightValue: "INTERNAL", detail: "" },
  { kind: "multiplicity", path: "valueZat", left: "oracle", right: "zt-1", factor: 2, leftValue: 5, rightValue: 10, detail: "" },
  { kind: "value", path: "[12].vtx[3].outputs[1].ciphertext", left: "oracle", right: "zaino", leftValue: "aa", rightValue: "bb", detail: "" },
];
const BUILDS = [
  { name: "zaino", implementation: "zaino", version: "0.10.1", protocolVersion: "v0.4.0" },
  { name: "zt-1", implementation: "ztreamer", version: "master" },
  { name: "odd", implementation: "other", version: "not a version", protocolVersion: "banana" },
];
const CTX = { caseId: "GetTransaction/a-rather-long-case-id-with-many-parts-0123456789", method: "GetTransaction", transport: "grpc" as const };

function result(caseId: string, quirk: string | null): CaseResult {
  return {
    caseId,
    method: CTX.method,
    transport: "grpc",
    expect: "oracle",
    tags: [],
    source: "x:1",
    answers: BUILDS.map((b) => ({ side: b.name, transport: "grpc", status: "OK", code: null, message: "", count: 0, wireBytes: 0, ms: 0, hex: [] })),
    divergences: [{ ...DIVERGENCES[0]!, caseId, method: CTX.method, transport: "grpc", build: "zaino", quirk }],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
  };
}

function use(ledger: Quirk[]): void {
  for (const d of DIVERGENCES) for (const b of BUILDS) classify(ledger, d, CTX, b);
  ledgerFindings(ledger, [result(CTX.caseId, ledger[0]?.id ?? null), result("GetBlock/x", null)], BUILDS, new Date("2030-01-01"));
}

function check(text: string): void {
  let ledger: Quirk[];
  try {
    ledger = parseLedger(text, FILE);
  } catch (e) {
    const lines = text.split("\n").length;
    expectClear(e, ProblemsError, (err) => {
      for (const p of (err as ProblemsError).problems) {
        if (p.file !== FILE) return `problem names file ${p.file}`;
        if (!Number.isInteger(p.line) || p.line < 1 || p.line > lines + 1) return `line ${p.line} outside 1..${lines + 1}`;
        if (p.message.trim().length < 3 || p.message.includes("[object Object]")) return `message ${JSON.stringify(p.message)}`;
      }
      return (err as ProblemsError).problems.length === 0 ? "no problems listed" : undefined;
    });
    return;
  }
  use(ledger);
}

describe("ledger loader fuzzing", () => {
  test("the seeds load and classify", () => {
    for (const s of seeds()) use(parseLedger(s, FILE));
  });

  test("mutated and random ledgers fail only with clear problems, and what loads can be used", () => {
    const input = fc.oneof({ weight: 5, arbitrary: mutatedText(seeds()) }, { weight: 1, arbitrary: yamlishText });
    const stats = fuzz("parseLedger", 0x1ed9e1, input, check);
    expect(stats.runs).toBe(FUZZ_RUNS);
  });
});
