// zconform as a consumer gets it: `npm pack`, the tarball installed into a fresh project
// outside this repository, and that project set up as the "In CI with jest" section of
// docs/ci.md says: its commands run as written, its files written as shown, its snippet run
// against the embedded fixture network (the one change: `config` becomes `fixture`, there
// are no real servers here). When those instructions stop working, this fails.
// Slow (a pack, an install, four jest runs): minutes, not seconds.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { distIsCurrent } from "../bin/dist-current.js";
import { REPO } from "./tools/cli.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const MINUTE = 60_000;
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
// The consumer's own environment: nothing of this repository's jest run leaks into it.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_OPTIONS" && !k.startsWith("JEST_") && k !== "NODE_ENV"));
const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10 * MINUTE });

/** The jest section of docs/ci.md, and what it shows. */
function jestSection() {
  const page = readFileSync(join(REPO, "docs", "ci.md"), "utf8");
  const start = page.indexOf("## In CI with jest\n");
  if (start < 0) throw new Error('docs/ci.md has no "## In CI with jest" section');
  const end = page.indexOf("\n## ", start + 1);
  const text = page.slice(start, end < 0 ? undefined : end);
  const blocks = [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  const block = (lang: string, has: (body: string) => boolean, what: string) => {
    const found = blocks.find((b) => b.lang === lang && has(b.body));
    if (!found) throw new Error(`the jest section of docs/ci.md shows no ${what}`);
    return found.body;
  };
  const inline = (re: RegExp, what: string) => {
    const m = re.exec(text);
    if (!m) throw new Error(`the jest section of docs/ci.md names no ${what}`);
    return m[1]!;
  };
  const lines = (body: string) => body.split("\n").filter((l) => l.trim() !== "");
  return {
    setup: lines(block("sh", (b) => b.includes("config:init"), "setup commands")),
    testFile: block("ts", (b) => b.includes('from "zconform/jest"'), "test file"),
    run: lines(block("sh", (b) => /^npx jest\s*$/m.test(b), "command that runs jest"))[0]!,
    plainRequire: inline(/`(const \{ conformanceSuite \} = require\("zconform\/jest"\);)`/, "require line for plain JavaScript"),
    moduleConfigLine: inline(/`(import \{ createDefaultPreset \} from "ts-jest";)`/, "first line for a jest.config.js of an ES-module project"),
    esmConfig: block("js", (b) => b.includes("createDefaultEsmPreset"), "jest.config.js for jest's ESM mode"),
    esmTsconfig: block("json", (b) => b.includes("compilerOptions"), "tsconfig.json for jest's ESM mode"),
    esmRun: lines(block("sh", (b) => b.includes("NODE_OPTIONS="), "command for jest's ESM mode"))[0]!,
  };
}

const DOC = jestSection();
const CONFIG_CALL = 'conformanceSuite({ config: "zconform.config.yaml" });';
/** The whole corpus, as the main run checks it. */
const WHOLE = 'conformanceSuite({ fixture: { profiles: ["reference", "zaino-0.10.1"] } });';
/** One method: the other setups are checked for loading and passing, not for the corpus again. */
const ONE_METHOD = 'conformanceSuite({ fixture: { profiles: ["reference"] }, caseFilter: { method: ["GetLightdInfo"] } });';

function snippet(call: string): string {
  expect(DOC.testFile).toContain(CONFIG_CALL);
  return DOC.testFile.replace(CONFIG_CALL, call);
}

/** The file name a block names in its first line (`// conformance.test.ts`). */
function fileOf(body: string): string {
  const name = /^\/\/ (\S+)\n/.exec(body)?.[1];
  if (!name) throw new Error(`a docs/ci.md block names no file in its first line: ${body.split("\n")[0]}`);
  return name;
}

describe("installed from a packed tarball into a fresh project, set up as docs/ci.md says", () => {
  let project: TempDir;
  const sh = (line: string, timeout = 10 * MINUTE) => {
    const r = spawnSync("sh", ["-c", line], { cwd: project.path, env, encoding: "utf8", timeout });
    return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
  };
  const counts = (output: string) => {
    const m = /Tests:\s+(?:(\d+) skipped, )?(\d+) passed, (\d+) total/.exec(output);
    return { skipped: Number(m?.[1] ?? 0), passed: Number(m?.[2] ?? 0), total: Number(m?.[3] ?? -1) };
  };

  beforeAll(() => {
    project = tempDir("zconform-consumer-");
    // What `npm pack` builds first (prepare), only when the build is not current already.
    if (!distIsCurrent(REPO)) npm(["run", "build"], REPO);
    npm(["pack", "--ignore-scripts", "--pack-destination", project.path], REPO);
    const tarball = readdirSync(project.path).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack wrote no tarball");
    npm(["init", "-y"], project.path);
    for (const line of DOC.setup) {
      const install = /^npm install --save-dev ((?:[@\w/.-]+ ?)+)$/.exec(line);
      if (!install) {
        const r = sh(line);
        if (r.status !== 0) throw new Error(`${line}: exit ${r.status}\n${r.output}`);
        continue;
      }
      // zconform from the tarball; the others at the versions zconform itself is tested with.
      const names = install[1]!.trim().split(" ");
      const specs = names.map((n) => {
        if (n === "zconform") return `./${tarball}`;
        if (!pkg.devDependencies[n]) throw new Error(`docs/ci.md installs ${n}, which zconform's own package.json does not pin`);
        return `${n}@${pkg.devDependencies[n]}`;
      });
      npm(["install", "--save-dev", "--save-exact", "--no-audit", "--no-fund", "--prefer-offline", ...specs], project.path);
    }
    project.write(fileOf(DOC.testFile), snippet(WHOLE));
  }, 15 * MINUTE);

  afterAll(() => project?.remove());

  test(
    "the default setup (ts-jest's CommonJS preset) passes over the shipped corpus; cases for other chains are skipped tests",
    () => {
      const run = sh(`${DOC.run} --ci`);
      expect({ status: run.status, tail: run.output.slice(-3000) }).toMatchObject({ status: 0 });
      expect(run.output).toMatch(/Test Suites: 1 passed, 1 total/);
      const corpus = loadCorpus(join(REPO, "cases"), lightwalletProtocol);
      const { skipped, passed, total } = counts(run.output);
      expect(passed + skipped).toBe(total);
      expect(passed).toBeGreaterThan(corpus.length);
      expect(run.output).toContain("gRPC GetBlock");
      // On the fixture chain, what is not sent is what is declared for other chains: one
      // test per build, each drawn skipped (○), none passed (✓).
      const elsewhere = corpus.filter((c) => c.chains && !c.chains.includes("fixture")).map((c) => c.id);
      expect(elsewhere.length).toBeGreaterThan(0);
      expect(skipped).toBe(elsewhere.length * 2);
      for (const id of elsewhere) {
        expect(run.output).toContain(`○ skipped ${id} [reference]`);
        expect(run.output).not.toContain(`✓ ${id} [`);
      }
      // The synthetic regtest chain takes the valid transaction: it is sent, and passes.
      expect(run.output).toMatch(/✓ SendTransaction\/valid-transaction-regtest \[reference\]/);
    },
    10 * MINUTE,
  );

  test(
    "plain JavaScript: jest's defaults and the documented require line",
    () => {
      project.write("conformance.test.js", `${DOC.plainRequire}\n${ONE_METHOD}\n`);
      const run = sh(`${DOC.run} --ci --config '{}' conformance.test.js`);
      expect({ status: run.status, tail: run.output.slice(-3000) }).toMatchObject({ status: 0 });
      expect(counts(run.output).passed).toBeGreaterThan(1);
    },
    10 * MINUTE,
  );

  test(
    'a "type": "module" project: ts-jest config:init, its first line as documented',
    () => {
      for (const f of ["conformance.test.js", "jest.config.js"]) rmSync(join(project.path, f));
      npm(["pkg", "set", "type=module"], project.path);
      for (const line of DOC.setup.filter((l) => l.includes("config:init"))) expect(sh(line).status).toBe(0);
      const config = readFileSync(join(project.path, "jest.config.js"), "utf8").split("\n");
      project.write("jest.config.js", [DOC.moduleConfigLine, ...config.slice(1)].join("\n"));
      project.write("one-method.test.ts", snippet(ONE_METHOD));
      const run = sh(`${DOC.run} --ci one-method.test.ts`);
      expect({ status: run.status, tail: run.output.slice(-3000) }).toMatchObject({ status: 0 });
      expect(counts(run.output).passed).toBeGreaterThan(1);
    },
    10 * MINUTE,
  );

  test(
    "jest's ES-module mode: the documented config, tsconfig and command",
    () => {
      project.write(fileOf(DOC.esmConfig), DOC.esmConfig);
      project.write("tsconfig.json", DOC.esmTsconfig);
      const run = sh(`${DOC.esmRun} --ci one-method.test.ts`);
      expect({ status: run.status, tail: run.output.slice(-3000) }).toMatchObject({ status: 0 });
      expect(counts(run.output).passed).toBeGreaterThan(1);
    },
    10 * MINUTE,
  );

  test(
    "the installed command line lists the shipped corpus from the consumer's folder",
    () => {
      const out = execFileSync(join(project.path, "node_modules", ".bin", "zconform"), ["cases", "--json"], {
        cwd: project.path,
        env,
        encoding: "utf8",
        timeout: 2 * MINUTE,
      });
      const listed = (JSON.parse(out) as { id: string }[]).map((c) => c.id);
      expect(listed).toEqual(loadCorpus(join(REPO, "cases"), lightwalletProtocol).map((c) => c.id));
    },
    2 * MINUTE,
  );
});
