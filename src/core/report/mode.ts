// Reporters of a mode's events (sweep, latency, wirecost): its JSON document, written
// atomically once it is finished, and its terminal lines. Progress events are for the
// modes' own progress reporters (sweep/progress.ts, latency/latency-report.ts).

import { writeFileAtomic } from "../io/atomic-write.js";
import type { Envelope } from "../results/envelope.js";
import type { ModeEvent, Reporter } from "../results/events.js";

export function modeJsonReporter<D extends Envelope<string>, P = unknown>(file: string): Reporter<ModeEvent<D, P>> {
  let document: D | undefined;
  return {
    onEvent: (e) => {
      if (e.type === "mode-end") document = e.document;
    },
    finish: async () => {
      if (document) writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
    },
  };
}

export function modeTerminalReporter<D extends Envelope<string>, P = unknown>(
  lines: (document: D) => string[],
  write: (line: string) => void,
): Reporter<ModeEvent<D, P>> {
  return {
    onEvent: (e) => {
      if (e.type === "mode-end") for (const line of lines(e.document)) write(line);
    },
    finish: async () => {},
  };
}
