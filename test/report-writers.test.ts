// Report files are written whole, one at a time and each on its own: a writer that fails
// (a folder that is a file, a full disk) is named with its flag and path and leaves the
// others written, each recording the exit code the process ends with; the temporary file
// of a run killed in mid-write is gone after the next run. The CLI runs in a child
// process against the fixture network.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { XMLValidator } from "fast-xml-parser";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startFixtureNetwork, type FixtureNetwork } from "../src/zcash/fixture/network.js";
import type { JsonReport } from "../src/core/report/json.js";
import { REPO, runCli, waitFor } from "./tools/cli.js";
import { chainProfileYaml, SMALL_CORPUS, tempDir, type TempDir } from "./tools/temp-corpus.js";

let net: FixtureNetwork;
let dir: TempDir;
let config: string;

beforeAll(async () => {
  net = await startFixtureNetwork({ profiles: ["reference"] });
  dir = tempDir();
  for (const [file, text] of Object.entries(SMALL_CORPUS)) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  const ref = net.jsonrpcProfiles.reference!;
  config = dir.write(
    "zconform.config.yaml",
    [
      "chain: fixture",
      `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
      "builds:",
      `  - { name: ref, implementation: other, grpc: { url: "${net.grpc.reference!}" }, jsonrpc: { url: "${ref.url}", cookieFile: "${ref.cookie}" } }`,
    ].join("\n"),
  );
}, 60_000);

afterAll(async () => {
  await net?.close();
  dir?.remove();
});

const temps = (folder: string) => readdirSync(folder).filter((f) => f.endsWith(".tmp"));

describe("report writers", () => {
  test("a report that cannot be written does not keep the others from being written; the run says which failed", async () => {
    // The JSON report's folder is a file: that writer fails, JUnit and HTML must not.
    const blocked = dir.write("not-a-folder", "");
    const junit = join(dir.path, "w.xml");
    const html = join(dir.path, "w.html");
    const r = await runCli([
      "run",
      "-c",
      config,
      "--cases",
      join(dir.path, "cases"),
      "-q",
      "--json",
      join(blocked, "r.json"),
      "--junit",
      junit,
      "--html",
      html,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`could not write the JSON report ${join(blocked, "r.json")} (--json): file already exists (EEXIST: mkdir ${blocked})`);
    expect(XMLValidator.validate(readFileSync(junit, "utf8"))).toBe(true);
    expect(readFileSync(html, "utf8").trimEnd().endsWith("</html>")).toBe(true);
    // Even with -q, where the reports went and why the exit code.
    expect(r.stdout).toContain(`reports written: JUnit ${junit}, HTML ${html}`);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("exit 2: the JSON report could not be written (see above)");
  });

  test("a full disk: the report is named with its flag and path, and every report written records the exit code the process ends with", async () => {
    // A folder whose files cannot be written to, as on a full disk: every write to a file
    // opened under it fails with ENOSPC, in the CLI's process (node's named imports of
    // node:fs follow the patched functions once syncBuiltinESMExports() has run).
    const full = join(dir.path, "full");
    mkdirSync(full);
    const preload = dir.write(
      "full-disk.mjs",
      [
        "import fs from 'node:fs';",
        "import { syncBuiltinESMExports } from 'node:module';",
        `const full = ${JSON.stringify(full)};`,
        "const onFullDisk = new Set();",
        "const { openSync, writeSync, closeSync } = fs;",
        "fs.openSync = (p, ...rest) => { const fd = openSync(p, ...rest); if (String(p).startsWith(full)) onFullDisk.add(fd); return fd; };",
        "fs.closeSync = (fd) => { onFullDisk.delete(fd); return closeSync(fd); };",
        "fs.writeSync = (fd, ...rest) => {",
        "  if (!onFullDisk.has(fd)) return writeSync(fd, ...rest);",
        "  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });",
        "};",
        "syncBuiltinESMExports();",
      ].join("\n"),
    );
    const json = join(dir.path, "full-run.json");
    const junit = join(full, "x.xml");
    const html = join(dir.path, "full-run.html");
    const r = await runCli(["run", "-c", config, "--cases", join(dir.path, "cases"), "--json", json, "--junit", junit, "--html", html], 60_000, {
      env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import ${pathToFileURL(preload).href}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")).toContain(`could not write the JUnit report ${junit} (--junit): no space left on device (ENOSPC)`);
    // The JSON report was written before the JUnit report failed: it records 2, not the run's 0.
    expect((JSON.parse(readFileSync(json, "utf8")) as JsonReport).exitCode).toBe(2);
    expect(readFileSync(html, "utf8")).toContain("exit 2");
    expect(existsSync(junit)).toBe(false);
    expect(temps(full)).toEqual([]);
    expect(r.stdout.trimEnd().split("\n").slice(-2)).toEqual([
      `reports written: JSON ${json}, HTML ${html}`,
      "exit 2: the JUnit report could not be written (see above)",
    ]);
  });

  test("the temporary file of a write killed with SIGKILL is removed by the next run", async () => {
    const target = join(dir.path, "killed.json");
    // A writer that has written its first part and then never finishes.
    const script = dir.write(
      "stuck-writer.mts",
      [
        `import { writeFileAtomicParts } from ${JSON.stringify(join(REPO, "src/core/io/atomic-write.ts"))};`,
        "writeFileAtomicParts(process.argv[2], (function* () {",
        "  yield '{\"partial\":';",
        "  process.stdout.write('started\\n');",
        "  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);",
        "})());",
      ].join("\n"),
    );
    const child = spawn(process.execPath, ["--import", "tsx", script, target], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    await waitFor(() => out.includes("started"), 30_000, "the writer to start");
    const closed = new Promise((r) => child.on("close", r));
    child.kill("SIGKILL");
    await closed;
    expect(temps(dir.path)).toHaveLength(1);
    expect(existsSync(target)).toBe(false);

    const r = await runCli(["run", "-c", config, "--cases", join(dir.path, "cases"), "-q", "--json", target]);
    expect(r.code).toBe(0);
    expect(temps(dir.path)).toEqual([]);
    expect((JSON.parse(readFileSync(target, "utf8")) as JsonReport).partial).toBe(false);
  });
});
