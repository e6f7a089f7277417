// `zconform record`: a reporter that writes every build's answer to each case as its
// golden, as soon as the case is judged, and at the end a RECORDED.json in each build's
// folder saying where those goldens came from (provenance.ts).

import { removeStaleTempsUnder } from "../../core/io/atomic-write.js";
import type { Reporter, RunEvent } from "../../core/results/events.js";
import { ORACLE } from "../../core/run/judge.js";
import { readProvenance, recordedBuild, unknownSide, withRecording, writeProvenance, type PinsPlace } from "./provenance.js";
import { buildDir, goldenAnswers, goldenOf, goldenPath, writeGolden } from "./store.js";

export interface RecorderOptions {
  /** The recording's command as its RECORDED.json names it (default: this process's script and arguments). */
  command?: readonly string[];
  /** real-servers.yaml and the environment, to find a pinned server's binary (default: the checkout's and this process's). */
  pins?: PinsPlace;
}

/** `emulated`: names of the builds that are emulated profiles (recorded under emulated/); `sides`: only these (store.ts goldenAnswers). */
export function goldenRecorder(
  root: string,
  chain: string,
  emulated: ReadonlySet<string> = new Set(),
  sides?: ReadonlySet<string>,
  o: RecorderOptions = {},
): Reporter & { written: () => number } {
  // A record killed in mid-write left its temporary files among the goldens.
  removeStaleTempsUnder(root);
  let count = 0;
  let start: Extract<RunEvent, { type: "run-start" }> | undefined;
  // Until a run-end says otherwise: a run that never ended recorded only part of its cases.
  let partial = true;
  /** The cases written per side, in the order the sides first wrote. */
  const written = new Map<string, string[]>();
  return {
    onEvent(e) {
      if (e.type === "run-start") start = e;
      if (e.type === "run-end") partial = e.partial;
      if (e.type !== "case-result" || e.result.skipped) return;
      for (const a of goldenAnswers(e.result, sides)) {
        if (a.fault) continue;
        writeGolden(goldenPath(root, chain, a.side, e.result.caseId, emulated.has(a.side)), goldenOf(e.result.caseId, a));
        const cases = written.get(a.side) ?? [];
        if (cases.length === 0) written.set(a.side, cases);
        cases.push(e.result.caseId);
        count++;
      }
    },
    finish: async () => {
      for (const [side, cases] of written) {
        const info = start?.builds.find((b) => b.name === side);
        const build = info ? await recordedBuild(info, o.pins) : unknownSide(side, side === ORACLE ? start?.oracle : undefined);
        const dir = buildDir(root, chain, side, emulated.has(side));
        writeProvenance(
          dir,
          withRecording(readProvenance(dir), {
            recordedAt: start?.startedAt ?? "unknown",
            tool: start?.tool ?? "unknown",
            command: [...(o.command ?? process.argv.slice(1))],
            chain,
            build,
            ...(partial ? { partial: true as const } : {}),
            cases,
          }),
        );
      }
    },
    written: () => count,
  };
}
