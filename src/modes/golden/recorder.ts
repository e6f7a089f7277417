// `zconform record`: a reporter that writes every build's answer to each case as its
// golden, as soon as the case is judged.

import type { Reporter } from "../../core/results/events.js";
import { goldenOf, goldenPath, writeGolden } from "./store.js";

export function goldenRecorder(root: string, chain: string): Reporter & { written: () => number } {
  let count = 0;
  return {
    onEvent(e) {
      if (e.type !== "case-result" || e.result.skipped) return;
      for (const a of e.result.answers) {
        if (a.fault) continue;
        writeGolden(goldenPath(root, chain, a.side, e.result.caseId), goldenOf(e.result.caseId, a));
        count++;
      }
    },
    finish: async () => {},
    written: () => count,
  };
}
