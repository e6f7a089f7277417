// The command line as a commander program: each command declares itself in its own module
// (src/cli/<name>.ts, its register* function); this list is every command there is, in
// the order `zconform --help` shows them.

import { Command } from "commander";
import { registerCases } from "./cases.js";
import { registerCoverage } from "./coverage.js";
import { registerDarkside } from "./darkside.js";
import { registerDecode } from "./decode.js";
import { registerFidelity } from "./fidelity.js";
import { registerFixture } from "./fixture.js";
import { registerLatency } from "./latency.js";
import { registerMerge } from "./merge.js";
import type { Output } from "./output.js";
import { registerRegtest } from "./regtest.js";
import { registerDemo, registerRecord, registerRun } from "./run.js";
import { registerScenario } from "./scenario.js";
import { registerServeBench } from "./serve-bench.js";
import { registerSweep } from "./sweep.js";
import { registerWirecost } from "./wirecost.js";
import { VERSION } from "../version.js";

export type RegisterCommand = (program: Command, io: Output) => void;

export const COMMANDS: readonly RegisterCommand[] = [
  registerDecode,
  registerCases,
  registerRun,
  registerDemo,
  registerRecord,
  registerFidelity,
  registerCoverage,
  registerFixture,
  registerRegtest,
  registerDarkside,
  registerServeBench,
  registerSweep,
  registerMerge,
  registerLatency,
  registerWirecost,
  registerScenario,
];

/** `zconform` with every command, writing to `io`; a command line it cannot parse exits 2. */
export function zconformProgram(io: Output): Command {
  const program = new Command()
    .name("zconform")
    .description(
      "Checks Zcash lightwallet servers (CompactTxStreamer gRPC, Zebra-style JSON-RPC) byte for byte, " +
        "against each other and against Zebra JSON-RPC as ground truth.",
    )
    .version(VERSION, "-V, --version", "print zconform's version")
    .showHelpAfterError()
    // Set before the commands are declared: each inherits it.
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));
  for (const register of COMMANDS) register(program, io);
  return program;
}
