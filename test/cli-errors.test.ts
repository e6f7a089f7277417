// Every command, given a typical bad input, answers with one clear message and exit 2:
// never a stack trace. (The fixture's "Starting…" notice may precede the message.)

import { describe, expect, test } from "@jest/globals";
import { runCli } from "./tools/cli.js";
import { chainPath, haveChainData } from "./chain-data.js";

const STARTING = /^Starting the embedded fixture network/;

function errorLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.trim() !== "" && !STARTING.test(l));
}

const notAtGenesis = () => chainPath("zebra", "blocks", "testnet", "block-test-0-000-001.txt");

const CASES: [string, () => string[], RegExp][] = [
  ["decode: a missing file", () => ["decode", "/nonexistent/blocks.txt"], /^\/nonexistent\/blocks\.txt: cannot read/],
  ["cases: a missing corpus folder", () => ["cases", "--cases", "/nonexistent"], /^\/nonexistent:0: corpus folder not found$/],
  ["run: a missing config", () => ["run", "-c", "/nonexistent.yaml"], /^config file not found: \/nonexistent\.yaml/],
  ["demo: a method no case has", () => ["demo", "--method", "GetBlok"], /^--method GetBlok: no case of this method in the corpus \(did you mean GetBlock/],
  [
    "demo: a case pattern that matches nothing",
    () => ["demo", "--case", "GetBlock/no-such-case"],
    /^--case GetBlock\/no-such-case: no case matches \(did you mean /,
  ],
  [
    "fixture: a testnet block file that does not start at genesis",
    () => ["fixture", "--chain", notAtGenesis()],
    /cannot tell the network from the blocks .*; pass --network/,
  ],
  ["demo: the same file", () => ["demo", "--chain", notAtGenesis()], /cannot tell the network from the blocks .*; pass --network/],
  ["fixture: --network without --chain", () => ["fixture", "--network", "testnet"], /^--network names the network of a --chain file/],
  ["record: a missing block file", () => ["record", "--chain", "/nonexistent/blocks.txt"], /^\/nonexistent\/blocks\.txt: no such file or directory$/],
  ["coverage: an unknown chain profile", () => ["coverage", "--chain", "nope"], /^no chain profile "nope"/],
  ["sweep: a height that is not one", () => ["sweep", "--from", "abc"], /^--from must be a block height/],
  ["merge: a missing report", () => ["merge", "/nonexistent.json"], /^\/nonexistent\.json: not a readable JSON report/],
  ["latency: a missing config", () => ["latency", "-c", "/nonexistent.yaml"], /^\/nonexistent\.yaml:1: cannot read/],
  ["wirecost: a missing config", () => ["wirecost", "-c", "/nonexistent.yaml"], /^\/nonexistent\.yaml:1: cannot read/],
  ["an unknown option", () => ["run", "--no-such-option"], /^error: unknown option '--no-such-option'/],
];

describe("bad input: one message, exit 2, no stack trace", () => {
  test.each(CASES)(
    "%s",
    async (_name, args, message) => {
      // Without the chain data (never under CI=true, see chain-data.ts) the two block-file rows cannot run.
      if (!haveChainData && args().some((a) => a.startsWith(chainPath()))) return;
      const r = await runCli(args(), 120_000);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      const lines = errorLines(r.stderr);
      // commander follows its one-line error with the command's help, as asked for.
      expect(lines[0]).toMatch(message);
      if (!/^error: unknown option/.test(lines[0]!)) expect(lines).toHaveLength(1);
      expect(r.code).toBe(2);
    },
    150_000,
  );
});
