// The zconform process: stdio and the last word on errors around the command line of
// program.ts, whose commands turn their results into exit codes.

import { processOutput } from "./output.js";
import { zconformProgram } from "./program.js";

// A reader that stops early (`| head`) is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

const io = processOutput();

// Every expected error is handled where it arises (exit 2 with its message); anything
// else still ends as one line, not a stack trace. ZCONFORM_DEBUG=1 shows the stack.
try {
  await zconformProgram(io).parseAsync(process.argv);
} catch (e) {
  io.stderr(`zconform: ${process.env.ZCONFORM_DEBUG ? (e as Error).stack : String((e as Error).message ?? e).split("\n")[0]}`);
  process.exit(2);
}
