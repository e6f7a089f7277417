// Every command's --help, walked from the program the CLI runs: each command and option
// says what it is, an option means one thing in every command or says what it does in
// each, and the corpus an option defaults to is the shipped one.

import { describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { Command, type Option } from "commander";
import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { PROFILE_NAMES } from "../zcash/fixture/network.js";
import { COMMANDS, zconformProgram } from "./program.js";

const silent = { stdout: () => {}, stderr: () => {} };
const program = zconformProgram(silent);
const commands = program.commands.filter((c) => c.name() !== "help");

/** What `zconform <command> --help` prints, the text after the option list included. */
function helpOf(cmd: Command): string {
  let text = "";
  cmd.configureOutput({
    writeOut: (s) => {
      text += s;
    },
  });
  cmd.outputHelp();
  return text;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
const ownOptions = (cmd: Command) => cmd.options.filter((o) => o.long !== "--help");
const nameOf = (o: Option) => o.long ?? o.flags;

/**
 * Options whose meaning depends on the command: each command's text says what it does
 * there, and every such text still says the words here. Any other option reads the same
 * in every command that takes it.
 */
const PER_COMMAND: Record<string, RegExp> = {
  // What the command reads from the corpus.
  "--cases": /^corpus folder\b/,
  // The ledger, and how the command's findings match it.
  "--ledger": /\bledger\b/,
  // The document written (a file) or printed (a flag).
  "--json": /^(write|print)\b.*\bJSON\b/,
  "--junit": /^write a JUnit XML report\b/,
  "--html": /^write\b.*\b(HTML|page)\b/,
  // A run's, or the merged run's.
  "--allow-stale": /^stale ledger entries do not fail the (merged )?run$/,
  "--quiet": /^no terminal (report|table)\b/,
  // run has a default file; the others measure the fixture without one.
  "--config": /^builds config\b/,
  // run and demo compare with goldens; regtest also replays the chain they were recorded on.
  "--golden": /^(?=.*\bcompare\b)(?=.*\(default folder: golden\))/,
  // Cases dealt round robin (run, demo), or parts of a height range (sweep).
  "--shard": /^(run|sweep) only (shard|part) k of n\b/,
  // A chain file to serve or stage, or coverage's chain profile.
  "--chain": /\b(raw blocks|chain profile)\b/,
  "--profile": new RegExp(`\\((default [^;]+; )?${PROFILE_NAMES.join(", ")}\\); repeatable$`),
  // Beside the fixture's builds, or (scenario) in place of the fixture's moving node.
  "--real": /^((fixture: )?also start the installed real servers of real-servers\.yaml\b.* against the fixture's JSON-RPC\b|instead of the fixture: )/,
  // Addresses in decode, a chain file's network elsewhere.
  "--network": /\bmainnet, testnet,? (or )?regtest\b/,
  // record's goldens, regtest's outputs.
  "--dir": /\bfolder\b/,
  "--calls": /\bcalls per\b/,
  "--rpc": /\brpcs to time \(default [^)]+\); repeatable$/,
  "--reference": /^the build .*\(default: "reference" if present\b/,
};

describe("zconform --help", () => {
  test("every command register* function of src/cli is in the program's list, each declaring one command of its own", async () => {
    const modules = readdirSync(import.meta.dirname).filter((f) => f.endsWith(".ts") && !/\.test(-helper)?\.ts$/.test(f) && f !== "main.ts");
    const exported: unknown[] = [];
    for (const f of modules) {
      const m = (await import(`./${f.replace(/\.ts$/, ".js")}`)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(m)) if (/^register[A-Z]/.test(name) && typeof value === "function") exported.push(value);
    }
    expect(new Set(exported)).toEqual(new Set(COMMANDS));
    const declared = COMMANDS.map((register) => {
      const root = new Command("probe");
      register(root, silent);
      return root.commands.map((c) => c.name());
    });
    expect(declared.every((names) => names.length === 1)).toBe(true);
    expect(commands.map((c) => c.name())).toEqual(declared.flat());
    expect(new Set(declared.flat()).size).toBe(COMMANDS.length);
  });

  test("the zconform process lists the program's commands, in its order", () => {
    const text = execFileSync(process.execPath, ["bin/zconform.js", "--help"], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    const listed = [...text.matchAll(/^ {2}([a-z][\w-]*) /gm)].map((m) => m[1]).filter((n) => n !== "help");
    expect(listed).toEqual(commands.map((c) => c.name()));
  }, 30_000);

  test.each(commands.map((c) => [c.name(), c] as const))("%s: a description, every argument and option explained, each shown by --help", (_, cmd) => {
    const help = helpOf(cmd);
    expect(help).toMatch(new RegExp(`^Usage: zconform ${cmd.name()} `));
    expect(cmd.description().trim()).not.toBe("");
    expect(squash(help)).toContain(squash(cmd.description()));
    for (const a of cmd.registeredArguments)
      expect({ argument: a.name(), description: a.description.trim() }).not.toEqual({ argument: a.name(), description: "" });
    for (const o of ownOptions(cmd)) {
      expect({ option: o.flags, described: o.description.trim() !== "" }).toEqual({ option: o.flags, described: true });
      expect({ option: o.flags, shown: squash(help).includes(`${o.flags} ${squash(o.description)}`) }).toEqual({ option: o.flags, shown: true });
    }
  });

  test("an option reads the same in every command, unless its meaning is the command's and its text says so", () => {
    const texts = new Map<string, Map<string, string[]>>();
    for (const cmd of commands) {
      for (const o of ownOptions(cmd)) {
        const byText = texts.get(nameOf(o)) ?? new Map<string, string[]>();
        texts.set(nameOf(o), byText.set(o.description, [...(byText.get(o.description) ?? []), cmd.name()]));
      }
    }
    const differing = [...texts].filter(([, byText]) => byText.size > 1).map(([name]) => name);
    expect(differing.filter((name) => !(name in PER_COMMAND))).toEqual([]);
    const unsaid = Object.entries(PER_COMMAND).flatMap(([name, words]) =>
      [...(texts.get(name) ?? [])].filter(([text]) => !words.test(text)).map(([text, where]) => `${where.join(", ")} ${name}: ${text}`),
    );
    expect(unsaid).toEqual([]);
    // A name listed here but read the same everywhere (or by one command) should read the same on purpose.
    expect(Object.keys(PER_COMMAND).filter((name) => !differing.includes(name))).toEqual([]);
  });

  test("every command that reads the corpus takes --cases, defaulting to the shipped corpus", () => {
    expect(isAbsolute(SHIPPED_CASES)).toBe(true);
    expect(existsSync(join(SHIPPED_CASES, "quirks.yaml"))).toBe(true);
    expect(existsSync(join(SHIPPED_CASES, "chains", "fixture.yaml"))).toBe(true);
    const problems: string[] = [];
    for (const cmd of commands) {
      const help = squash(helpOf(cmd));
      const cases = cmd.options.find((o) => o.long === "--cases");
      // The corpus, its ledger, its chain profiles or its cases named anywhere in the help.
      const readsCorpus = /\b(corpus|ledger|chain profiles?)\b|<cases>|--case\b|--method\b/.test(help);
      if (readsCorpus && !cases) problems.push(`${cmd.name()}: reads the corpus but takes no --cases`);
      if (cases && (cases.defaultValue !== SHIPPED_CASES || !help.includes("--cases <dir>") || !/\(default: the corpus shipped with zconform\)/.test(help))) {
        problems.push(`${cmd.name()}: --cases defaults to ${JSON.stringify(cases.defaultValue)} (${cases.defaultValueDescription})`);
      }
      // A folder of the corpus is <cases>/…: a bare cases/… would be wherever zconform runs.
      for (const m of help.matchAll(/(?<![<\w])cases\/[\w<>./-]*/g)) problems.push(`${cmd.name()}: names ${m[0]}, not <cases>/…`);
      for (const o of cmd.options) {
        if (typeof o.defaultValue === "string" && /(^|\/)cases(\/|$)/.test(o.defaultValue) && o.defaultValue !== SHIPPED_CASES) {
          problems.push(`${cmd.name()} ${o.flags}: defaults to the folder ${o.defaultValue}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
