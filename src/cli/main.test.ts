import { describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";

// The real command line (bin → tsx → cli.ts), as a user runs it.
function help(...args: string[]): string {
  return execFileSync(process.execPath, ["bin/zconform.js", ...args, "--help"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
}

describe("--help of the real command line names each command's options", () => {
  test.each([
    [
      "sweep",
      [
        "--from <height>",
        "--to <height>",
        "--pool-types <list>",
        "--oracle",
        "--chunk <blocks>",
        "--window <blocks>",
        "--shard <k/n>",
        "--long-chain <tip>",
        "--json <file>",
      ],
    ],
    ["merge", ["<reports...>", "--json <file>", "--ledger <file>", "--allow-stale"]],
    ["latency", ["--calls <n>", "--warmup <n>", "--rpc <name>", "--reference <build>", "--parallel", "--json <file>"]],
    ["wirecost", ["--calls <n>", "--json <file>"]],
    ["scenario", ["--scenario <id>", "--profile <name>", "--timing-scale <x>", "--json <file>", "--html <file>"]],
    ["run", ["--shard <k/n>"]],
    ["demo", ["--shard <k/n>"]],
  ])(
    "%s",
    (command, options) => {
      const text = help(command);
      expect(text).toMatch(new RegExp(`^Usage: zconform ${command} `));
      for (const o of options) expect(text).toContain(o);
    },
    30_000,
  );
});
