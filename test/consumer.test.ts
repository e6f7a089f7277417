// zconform as a consumer gets it: `npm pack`, the tarball installed into a fresh project
// outside this repository, and the README's jest snippet run there against the embedded
// fixture network. The installed package must find its own corpus (cases/), load through
// the `zconform/jest` export, and its command line must work from that project.
// Slow (a pack, an install, a jest run): minutes, not seconds.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { lightwalletProtocol } from "../src/zcash/protocol.js";
import { loadCorpus } from "../src/core/corpus/load.js";
import { REPO } from "./tools/cli.js";
import { tempDir, type TempDir } from "./tools/temp-corpus.js";

const MINUTE = 60_000;
const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
// The consumer's own environment: nothing of this repository's jest run leaks into it.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_OPTIONS" && !k.startsWith("JEST_") && k !== "NODE_ENV"));
const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10 * MINUTE });

/** The README's jest snippet, with `config` swapped for the embedded fixture (no real servers here). */
function readmeSnippet(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('from "zconform/jest"'));
  if (!block) throw new Error("README.md has no ```ts block importing zconform/jest");
  const call = 'conformanceSuite({ config: "zconform.config.yaml" });';
  expect(block).toContain(call);
  return block.replace(call, 'conformanceSuite({ fixture: { profiles: ["reference", "zaino-0.10.1"] } });');
}

describe("installed from a packed tarball into a fresh project", () => {
  let project: TempDir;

  beforeAll(() => {
    project = tempDir("zconform-consumer-");
    npm(["pack", "--pack-destination", project.path], REPO);
    const tarball = readdirSync(project.path).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack wrote no tarball");
    project.write("package.json", `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }, null, 2)}\n`);
    project.write("tsconfig.json", `${JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, isolatedModules: true } })}\n`);
    project.write("jest.config.js", [
      "export default {",
      '  testEnvironment: "node",',
      '  extensionsToTreatAsEsm: [".ts"],',
      '  transform: { "^.+\\\\.ts$": ["ts-jest", { useESM: true }] },',
      "};",
      "",
    ].join("\n"));
    project.write("conformance.test.ts", readmeSnippet());
    const dev = (name: string) => `${name}@${pkg.devDependencies[name]}`;
    npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact", `./${tarball}`, dev("jest"), dev("ts-jest"), dev("typescript"), dev("@types/node")], project.path);
  }, 15 * MINUTE);

  afterAll(() => project?.remove());

  test("the README's jest snippet passes, over the shipped corpus", () => {
    const run = spawnSync("npx", ["jest", "--ci"], {
      cwd: project.path, env: { ...env, NODE_OPTIONS: "--experimental-vm-modules --disable-warning=ExperimentalWarning" }, encoding: "utf8", timeout: 10 * MINUTE,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect({ status: run.status, tail: output.slice(-3000) }).toMatchObject({ status: 0 });
    expect(output).toMatch(/Test Suites: 1 passed, 1 total/);
    // Tests were declared from the shipped corpus: one group per method, e.g. GetBlock.
    // Every test passes but those of cases declared for other chains, which are skipped.
    const corpus = loadCorpus(join(REPO, "cases"), lightwalletProtocol);
    const counts = /Tests:\s+(?:(\d+) skipped, )?(\d+) passed, (\d+) total/.exec(output);
    const [skipped, passed, total] = [1, 2, 3].map((i) => Number(counts?.[i] ?? 0));
    expect(passed + skipped).toBe(total);
    expect(passed).toBeGreaterThan(corpus.length);
    expect(output).toContain("gRPC GetBlock");
  }, 10 * MINUTE);

  test("the installed command line lists the shipped corpus from the consumer's folder", () => {
    const out = execFileSync(join(project.path, "node_modules", ".bin", "zconform"), ["cases", "--json"], { cwd: project.path, env, encoding: "utf8", timeout: 2 * MINUTE });
    const listed = (JSON.parse(out) as { id: string }[]).map((c) => c.id);
    expect(listed).toEqual(loadCorpus(join(REPO, "cases"), lightwalletProtocol).map((c) => c.id));
  }, 2 * MINUTE);
});
