// A mode's event stream: like a run's (session.ts), every event reaches the reporters as
// a copy with the config's secrets masked, so a mode's document and terminal lines are
// scrubbed the way a run's reports are.

import type { Envelope } from "../results/envelope.js";
import type { ModeEvent, Reporter } from "../results/events.js";
import { scrubber } from "./redact.js";

export interface ModeStream<D extends Envelope<string>, P = unknown> {
  emit(event: ModeEvent<D, P>): void;
  /** Lets every reporter write what it holds. */
  finish(): Promise<void>;
}

export function modeStream<D extends Envelope<string>, P = unknown>(
  reporters: readonly Reporter<ModeEvent<D, P>>[],
  secrets: readonly string[],
): ModeStream<D, P> {
  const scrub = scrubber(secrets);
  return {
    emit: (event) => {
      const safe = scrub(event);
      for (const r of reporters) r.onEvent(safe);
    },
    finish: async () => {
      for (const r of reporters) await r.finish();
    },
  };
}
