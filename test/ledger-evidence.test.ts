// What the ledger says a real server answered is checked against what was committed: an
// entry that quotes a real server's answer names the golden or report holding it
// (`evidence`), and each quote is read there (src/zcash/real/evidence.ts). A golden's gRPC
// messages are decoded from their recorded bytes (the JSON beside them leaves out the
// fields a case declared volatile, such as LightdInfo's versions), so a path reads what
// the server sent.

import { describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadLedger, type Evidence, type Quirk } from "../src/core/ledger/quirk.js";
import type { Golden } from "../src/modes/golden/store.js";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { evidenceProblem } from "../src/zcash/real/evidence.js";
import { REPO } from "./tools/cli.js";

const ledger = loadLedger(join(REPO, "cases", "quirks.yaml"), { implementations: lightwalletProtocol.implementations });

/** Words by which an entry says what a real server answered. */
const SAYS_REAL = /Evidence:|\(real\)|\breal (lightwalletd|zainod|zebrad)\b/;

function evidenceProblems(q: Pick<Quirk, "id" | "evidence">, root = REPO): string[] {
  return (q.evidence ?? []).flatMap((e) => evidenceProblem(e, root) ?? []).map((p) => `${q.id}: ${p}`);
}

describe("the ledger's evidence", () => {
  test("every evidence item's file is committed and holds what the entry quotes", () => {
    expect(ledger.flatMap((q) => evidenceProblems(q))).toEqual([]);
  });

  test("an entry that says what a real server answered names its evidence, or says plainly that it is not committed", () => {
    const unbacked = ledger.filter((q) => SAYS_REAL.test(`${q.title} ${q.reference} ${q.notes ?? ""}`) && !q.evidence && !/not committed/.test(q.reference));
    expect(unbacked.map((q) => q.id)).toEqual([]);
  });

  test("a missing file, another value, another count, an absent quote and a path past the answer are each reported", () => {
    const golden = "golden/regtest/zaino-0.10.1/GetBlockRange/transparent-descending.json";
    const wrong: Evidence[] = [
      { file: "golden/regtest/zaino-0.10.1/GetBlockRange/no-such-case.json", path: "", length: 0 },
      { file: golden, path: "[5].vtx[0].vout[0].scriptPubKey", equals: "IQJS" },
      { file: golden, path: "", length: 7 },
      { file: golden, path: "status.message", holds: "deadline" },
      { file: golden, path: "[6].height", equals: "0" },
      { file: golden, path: "height", equals: "5" },
      { file: "bench/README.md", holds: "a figure nobody measured" },
      { file: "bench/README.md", path: "GetTreeState", holds: "43.0" },
      { file: "../shared/chain-data/README.md", holds: "x" },
    ];
    expect(evidenceProblems({ id: "probe", evidence: wrong })).toEqual([
      'probe: golden/regtest/zaino-0.10.1/GetBlockRange/no-such-case.json at "": no such file',
      `probe: ${golden} at "[5].vtx[0].vout[0].scriptPubKey": holds "", not "IQJS"`,
      `probe: ${golden} at "": holds 6 items, not 7 items`,
      `probe: ${golden} at "status.message": does not hold "deadline"`,
      `probe: ${golden} at "[6].height": has nothing at [6]`,
      `probe: ${golden} at "height": is a stream of 6 messages: start the path with the message's index ([0]…)`,
      'probe: bench/README.md: does not hold "a figure nobody measured"',
      'probe: bench/README.md at "GetTreeState": a path reads a JSON file (a golden or a JSON report); quote text with holds and no path',
      "probe: ../shared/chain-data/README.md: is outside the repository, so it is not committed with it",
    ]);
  });

  test("a field the golden's JSON leaves out as volatile is read from the recorded bytes", () => {
    const info = "golden/fixture/zaino-0.10.1/GetLightdInfo/info.json";
    const g = JSON.parse(readFileSync(join(REPO, info), "utf8")) as Golden;
    expect(g.messages[0]!.json).not.toHaveProperty("lightwalletProtocolVersion");
    expect(evidenceProblems({ id: "probe", evidence: [{ file: info, path: "lightwalletProtocolVersion", equals: "v0.5.0" }] })).toEqual([]);
  });
});
