// `zconform record`: a reporter that writes every build's answer to each case as its
// golden, as soon as the case is judged.

import { removeStaleTempsUnder } from "../../core/io/atomic-write.js";
import type { Reporter } from "../../core/results/events.js";
import { goldenAnswers, goldenOf, goldenPath, writeGolden } from "./store.js";

/** `emulated`: names of the builds that are emulated profiles (recorded under emulated/); `sides`: only these (store.ts goldenAnswers). */
export function goldenRecorder(root: string, chain: string, emulated: ReadonlySet<string> = new Set(), sides?: ReadonlySet<string>): Reporter & { written: () => number } {
  // A record killed in mid-write left its temporary files among the goldens.
  removeStaleTempsUnder(root);
  let count = 0;
  return {
    onEvent(e) {
      if (e.type !== "case-result" || e.result.skipped) return;
      for (const a of goldenAnswers(e.result, sides)) {
        if (a.fault) continue;
        writeGolden(goldenPath(root, chain, a.side, e.result.caseId, emulated.has(a.side)), goldenOf(e.result.caseId, a));
        count++;
      }
    },
    finish: async () => {},
    written: () => count,
  };
}
