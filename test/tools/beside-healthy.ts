// Runs of the CLI in which builds under test stand beside a healthy one (the fixture's
// reference server) on a corpus of GetBlock and getblock cases, with the fixture's node as
// the oracle: a hostile or frozen build must leave the healthy build's answers as a run
// without it has them (`baseline`).

import { join } from "node:path";
import { startFixtureNetwork, type FixtureNetwork } from "../../src/zcash/fixture/network.js";
import type { JsonReportFile } from "../../src/core/report/json-file.js";
import { runCli } from "./cli.js";
import { answersOf, reportArgs, validReports } from "./run-reports.js";
import { blockCorpus, chainProfileYaml, tempDir, type TempDir } from "./temp-corpus.js";

export interface BesideHealthy {
  net: FixtureNetwork;
  dir: TempDir;
  /** The healthy build's answers in a run where it is the only build. */
  baseline: Map<string, string>;
  /** The config's oracle line, the fixture's node unless another URL is given. */
  oracleLine(url?: string): string;
  /** Writes `<name>.config.yaml`: `head` (default: the oracle line), the healthy build, then `builds`. */
  config(name: string, builds: string[], head?: string[]): string;
  /** `zconform run` arguments with the corpus and all three reports under `<name>`. */
  args(name: string): string[];
  /** Where the reports of `<name>` are (without extension). */
  base(name: string): string;
  /** Runs to the end; the reports are checked whole and valid. */
  run(name: string, builds: string[], head?: string[]): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; report: JsonReportFile }>;
  close(): Promise<void>;
}

export async function besideHealthy(cases: number): Promise<BesideHealthy> {
  const net = await startFixtureNetwork({ profiles: ["reference"] });
  const dir = tempDir();
  for (const [file, text] of Object.entries(blockCorpus(cases))) dir.write(join("cases", file), text);
  dir.write("cases/chains/fixture.yaml", chainProfileYaml("fixture", "regtest", net.anchors));
  const ref = net.jsonrpcProfiles.reference!;
  const healthy = `  - { name: healthy, implementation: other, grpc: { url: "${net.grpc.reference!}" }, jsonrpc: { url: "${ref.url}", cookieFile: "${ref.cookie}" } }`;
  const oracleLine = (url = net.jsonrpc) => `oracle: { jsonrpc: { url: "${url}", cookieFile: "${net.cookie}" } }`;
  const base = (name: string) => join(dir.path, name);
  const configPath = (name: string) => join(dir.path, `${name}.config.yaml`);
  const config = (name: string, builds: string[], head = [oracleLine()]) =>
    dir.write(`${name}.config.yaml`, ["chain: fixture", ...head, "builds:", healthy, ...builds].join("\n"));
  const args = (name: string) => ["run", "-c", configPath(name), "--cases", join(dir.path, "cases"), ...reportArgs(base(name))];
  const run = async (name: string, builds: string[], head?: string[]) => {
    config(name, builds, head);
    const t0 = Date.now();
    const r = await runCli(args(name), 240_000);
    return { ...r, ms: Date.now() - t0, report: validReports(base(name)) };
  };
  const baseline = answersOf((await run("baseline", [])).report, "healthy");
  return {
    net,
    dir,
    baseline,
    oracleLine,
    config,
    args,
    base,
    run,
    close: async () => {
      await net.close();
      dir.remove();
    },
  };
}
