// SIGINT/SIGTERM during a run: stop starting cases, let the run finish with what it has
// (reports are written and marked partial); a second signal exits at once.

import type { Output } from "./output.js";

export function onInterrupt(out: Output): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(130);
    out.stderr(`\n${sig}: finishing the cases in flight and writing partial reports (again to quit at once)`);
    controller.abort();
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
