// Report files are written whole, one at a time and each on its own: a writer that fails
// leaves the others written, and the temporary file of a run killed in mid-write is gone
// after the next run. The CLI runs in a child process against the fixture network.

import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { XMLValidator } from "fast-xml-parser";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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
  config = dir.write("zconform.config.yaml", [
    "chain: fixture",
    `oracle: { jsonrpc: { url: "${net.jsonrpc}", cookieFile: "${net.cookie}" } }`,
    "builds:",
    `  - { name: ref, implementation: other, grpc: { url: "${net.grpc.reference!}" }, jsonrpc: { url: "${ref.url}", cookieFile: "${ref.cookie}" } }`,
  ].join("\n"));
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
    const r = await runCli(["run", "-c", config, "--cases", join(dir.path, "cases"), "-q",
      "--json", join(blocked, "r.json"), "--junit", junit, "--html", html]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`report not written`);
    expect(r.stderr).toContain(blocked);
    expect(XMLValidator.validate(readFileSync(junit, "utf8"))).toBe(true);
    expect(readFileSync(html, "utf8").trimEnd().endsWith("</html>")).toBe(true);
  });

  test("the temporary file of a write killed with SIGKILL is removed by the next run", async () => {
    const target = join(dir.path, "killed.json");
    // A writer that has written its first part and then never finishes.
    const script = dir.write("stuck-writer.mts", [
      `import { writeFileAtomicParts } from ${JSON.stringify(join(REPO, "src/core/io/atomic-write.ts"))};`,
      "writeFileAtomicParts(process.argv[2], (function* () {",
      "  yield '{\"partial\":';",
      "  process.stdout.write('started\\n');",
      "  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);",
      "})());",
    ].join("\n"));
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
