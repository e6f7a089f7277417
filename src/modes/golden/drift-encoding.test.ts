// Goldens keep a JSON-RPC answer's bytes (hex), and drift compares them as a run compares
// two answers: bytes first. The same value in another encoding is drift too.

import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Answer, CaseResult } from "../../core/results/result.js";
import { lightwalletProtocol } from "../../zcash/protocol.js";
import { driftOf } from "./drift.js";
import { goldenOf, goldenPath, writeGolden } from "./store.js";

describe("drift of a JSON-RPC answer from its golden", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-golden-encoding-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const answer = (body: string): Answer => ({
    side: "zebrad 7.0.0 (real)",
    transport: "jsonrpc",
    status: "OK",
    code: null,
    message: "",
    count: 1,
    wireBytes: body.length,
    ms: 1,
    hex: [Buffer.from(body).toString("hex")],
  });
  const result = (a: Answer): CaseResult => ({
    caseId: "getdifficulty/plain",
    method: "getdifficulty",
    transport: "jsonrpc",
    expect: "oracle",
    tags: [],
    source: "t:1",
    answers: [a],
    divergences: [],
    volatile: [],
    excluded: [],
    unordered: false,
    patches: [],
  });
  writeGolden(
    goldenPath(dir, "regtest", "zebrad 7.0.0 (real)", "getdifficulty/plain"),
    goldenOf("getdifficulty/plain", answer('{"jsonrpc":"2.0","id":1,"result":1.0}')),
  );
  const drift = (body: string) => driftOf(result(answer(body)), lightwalletProtocol, dir, "regtest")[0]!;

  test("the same bytes, or another envelope around them, are unchanged", () => {
    expect(drift('{"jsonrpc":"2.0","id":1,"result":1.0}').status).toBe("unchanged");
    expect(drift('{"result":1.0,"id":1,"jsonrpc":"2.0"}').status).toBe("unchanged");
  });

  test("the same value spelled otherwise is drift, as encoding-only", () => {
    const d = drift('{"jsonrpc":"2.0","id":1,"result":1}');
    expect([d.status, d.divergences.map((x) => [x.kind, x.path, x.encoding, x.leftValue, x.rightValue])]).toEqual([
      "changed",
      [["encoding-only", "result", "number", "1.0", "1"]],
    ]);
  });
});
