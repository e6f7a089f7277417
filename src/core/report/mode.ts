// Reporters of a mode's events (sweep, latency, wirecost): its JSON document, written
// atomically once it is finished, and its terminal lines.

import { writeFileAtomic } from "../io/atomic-write.js";
import type { Envelope } from "../results/envelope.js";
import type { ModeEvent, Reporter } from "../results/events.js";

export function modeJsonReporter<D extends Envelope<string>>(file: string): Reporter<ModeEvent<D>> {
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

export function modeTerminalReporter<D extends Envelope<string>>(lines: (document: D) => string[], write: (line: string) => void): Reporter<ModeEvent<D>> {
  return {
    onEvent: (e) => {
      if (e.type === "mode-end") for (const line of lines(e.document)) write(line);
    },
    finish: async () => {},
  };
}
