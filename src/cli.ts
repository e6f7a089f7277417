// The command line. Each command lives in src/commands/<name>.ts; this file only
// declares them, their options and help, and turns their results into exit codes.

import { Command, InvalidArgumentError } from "commander";
import { decodeCommand } from "./commands/decode.js";
import { casesCommand } from "./commands/cases.js";

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

const io = {
  stdout: (line: string) => process.stdout.write(`${line}\n`),
  stderr: (line: string) => process.stderr.write(`${line}\n`),
};

function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!values.includes(value as T)) throw new InvalidArgumentError(`must be one of ${values.join(", ")}`);
    return value as T;
  };
}

const program = new Command()
  .name("zconform")
  .description("Checks Zcash lightwallet servers (CompactTxStreamer gRPC, Zebra-style JSON-RPC) byte for byte, " +
    "against each other and against Zebra JSON-RPC as ground truth.")
  .showHelpAfterError()
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program.command("decode")
  .description("decode raw Zcash blocks (a file of hex lines, or a .bin block) to one JSON object per block")
  .argument("<file>", "file of raw block hex, one block per line, or a binary .bin block")
  .option("--network <name>", "network for address encoding: mainnet, testnet or regtest", oneOf(["mainnet", "testnet", "regtest"] as const))
  .option("--compact", "print the derived CompactBlock (protobuf JSON, all pools) instead")
  .action(async (file: string, opts: { network?: "mainnet" | "testnet" | "regtest"; compact?: boolean }) => {
    process.exitCode = await decodeCommand(file, opts, io);
  });

program.command("cases")
  .description("list the corpus: one entry per case with id, method and transport")
  .option("--cases <dir>", "corpus folder", "cases")
  .option("--json", "print a JSON array instead of a table")
  .action(async (opts: { cases: string; json?: boolean }) => {
    process.exitCode = await casesCommand(opts, io);
  });

await program.parseAsync(process.argv);
