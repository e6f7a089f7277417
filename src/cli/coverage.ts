// `zconform coverage`: which parts of the protocol (rpcs, request fields, enum values,
// JSON-RPC methods) no case exercises. Requests are planned with a chain profile's
// anchors (default: the fixture chain, cases/chains/fixture.yaml). Always exits 0 for a
// valid corpus: gaps are information, not failures.

import { loadChainProfile } from "../core/corpus/chain-profile.js";
import { loadCorpus } from "../core/corpus/load.js";
import { coverageOf, formatCoverage } from "../modes/coverage/coverage.js";
import { ProblemsError } from "../core/io/located-yaml.js";
import { guarded, InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";

export interface CoverageOptions {
  cases: string;
  chain?: string;
  json?: boolean;
}

export async function coverageCommand(o: CoverageOptions, out: Output): Promise<number> {
  const loaded = await guarded(out, () => {
    const cases = loadCorpus(o.cases, lightwalletProtocol);
    let chain;
    try {
      chain = loadChainProfile(o.cases, o.chain ?? "fixture");
    } catch (e) {
      if (e instanceof ProblemsError) throw e;
      throw new InputError((e as Error).message);
    }
    return coverageOf(cases, chain, lightwalletProtocol);
  });
  if (typeof loaded === "number") return loaded;
  if (o.json) out.stdout(JSON.stringify(loaded, null, 2));
  else for (const line of formatCoverage(loaded)) out.stdout(line);
  return 0;
}

/** Declares `zconform coverage` on the program. */
export function registerCoverage(program: Command, io: Output): void {
  program
    .command("coverage")
    .description(
      "list the rpcs, request fields, enum values and JSON-RPC methods that no case exercises (requests planned with a chain profile's anchors, " +
        "a live chain's tip at the profile's frozen block), and every case the chain cannot plan, with why",
    )
    .addOption(casesOption("corpus folder"))
    .option("--chain <name>", "chain profile whose anchors plan the requests (<cases>/chains/<name>.yaml)", "fixture")
    .option("--json", "print a stable JSON object instead of text")
    .action(async (opts: CoverageOptions) => {
      process.exitCode = await coverageCommand(opts, io);
    });
}
