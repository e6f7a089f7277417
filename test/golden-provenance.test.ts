// Every committed folder of goldens says where its goldens came from: a RECORDED.json
// (schemas/recorded.schema.json) whose recordings claim each golden in the folder exactly
// once, for the chain and the build the folder is for. A golden committed without its
// recording, or a recording that claims a golden the folder does not hold, fails here.

import { describe, expect, test } from "@jest/globals";
import { schemaErrors } from "./schemas.test-helper.js";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { PROVENANCE_FILE, readProvenance } from "../src/modes/golden/provenance.js";
import { buildDir, goldenPath, type Golden } from "../src/modes/golden/store.js";
import { REPO } from "./tools/cli.js";

const GOLDEN = join(REPO, "golden");
// golden/<chain>/chain holds the chain a regtest recording ran on, not goldens.
const NOT_GOLDENS = new Set(["chain"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** Every folder of one build's goldens: golden/<chain>/<build> and golden/<chain>/emulated/<build>. */
interface Folder {
  chain: string;
  dir: string;
  emulated: boolean;
}

function goldenFolders(): Folder[] {
  const subdirs = (d: string) => readdirSync(d).filter((n) => statSync(join(d, n)).isDirectory());
  return subdirs(GOLDEN).flatMap((chain) =>
    subdirs(join(GOLDEN, chain))
      .filter((n) => !NOT_GOLDENS.has(n))
      .flatMap((n): Folder[] =>
        n === "emulated"
          ? subdirs(join(GOLDEN, chain, n)).map((b) => ({ chain, dir: join(GOLDEN, chain, n, b), emulated: true }))
          : [{ chain, dir: join(GOLDEN, chain, n), emulated: false }],
      ),
  );
}

describe("golden provenance", () => {
  const folders = goldenFolders();

  test("the real servers' goldens are here to be checked", () => {
    expect(folders.map((f) => relative(GOLDEN, f.dir))).toEqual(
      expect.arrayContaining(["regtest/zaino-0.10.1", "regtest/oracle", "fixture/lightwalletd-v0.5.4"]),
    );
  });

  test.each(folders.map((f) => [relative(REPO, f.dir), f] as const))("%s says where each of its goldens came from", (_, f) => {
    expect(existsSync(join(f.dir, PROVENANCE_FILE))).toBe(true);
    const p = readProvenance(f.dir)!;
    expect(schemaErrors("recorded", p)).toEqual([]);
    const goldens = files(f.dir)
      .filter((x) => !x.endsWith(`/${PROVENANCE_FILE}`))
      .map((x) => JSON.parse(readFileSync(x, "utf8")) as Golden);
    const claims = p.recordings.flatMap((r) => r.cases.map((c) => ({ c, r })));
    // Each golden claimed once; each claim a golden the folder holds, of the build and chain the recording names.
    expect(goldens.map((g) => `${g.caseId}: ${claims.filter((x) => x.c === g.caseId).length}`)).toEqual(goldens.map((g) => `${g.caseId}: 1`));
    expect(claims.filter((x) => !existsSync(goldenPath(GOLDEN, f.chain, x.r.build.name, x.c, f.emulated))).map((x) => x.c)).toEqual([]);
    for (const r of p.recordings) {
      expect([r.chain, buildDir(GOLDEN, r.chain, r.build.name, f.emulated), r.build.emulated]).toEqual([f.chain, f.dir, f.emulated]);
    }
    const builds = new Set(goldens.map((g) => g.build));
    expect([...builds]).toEqual([...new Set(p.recordings.map((r) => r.build.name))]);
  });
});
