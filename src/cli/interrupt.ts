// SIGINT/SIGTERM during a run: stop starting cases and cut the calls in flight at once
// (the session aborts its targets), then the run ends with what finished: reports are
// written and marked partial, and the exit code is 130 (SIGINT) or 143 (SIGTERM). A
// second signal exits at once with the same code.

import type { Output } from "./output.js";
import { EXIT } from "../core/run/session.js";

export function onInterrupt(out: Output): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = (sig: NodeJS.Signals) => {
    const exitCode = sig === "SIGTERM" ? EXIT.sigterm : EXIT.sigint;
    if (controller.signal.aborted) process.exit(exitCode);
    out.stderr(`\n${sig}: stopping the calls in flight and writing partial reports (again to quit at once)`);
    controller.abort({ signal: sig, exitCode });
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    },
  };
}
