// What a mode command (sweep, latency, wirecost) reports to: its --json file, its --html
// page (for a mode that draws one) and, unless --quiet, the terminal. The stream is
// started with the secrets of the command's builds.

import { modeHtmlReporter } from "../core/report/html-mode.js";
import { modeJsonReporter, modeTerminalReporter } from "../core/report/mode.js";
import type { Envelope } from "../core/results/envelope.js";
import type { BuildInfo, ModeEvent, Reporter } from "../core/results/events.js";
import { modeStream, type ModeStream } from "../core/run/mode-stream.js";
import type { Build, JsonRpcEndpoint } from "../core/targets/config.js";
import { secretsOf } from "../core/targets/secrets.js";
import type { Output } from "./output.js";

export interface ModeStart<D extends Envelope<string>> {
  kind: D["kind"];
  startedAt: Date;
  chain: string;
  builds: BuildInfo[];
}

/** The mode's stream, its start already emitted; `progress` shows its progress events (unless --quiet); `page` draws its --html page. */
export function startModeStream<D extends Envelope<string>, P = unknown>(
  o: { json?: string; html?: string; quiet?: boolean },
  lines: (document: D) => string[],
  out: Output,
  endpoints: { builds: readonly Build[]; oracle?: JsonRpcEndpoint },
  start: ModeStart<D>,
  progress?: Reporter<ModeEvent<D, P>>,
  page?: (document: D) => string,
): ModeStream<D, P> {
  const reporters: Reporter<ModeEvent<D, P>>[] = [];
  // Progress first: a display redrawn in place is cleared before the report is printed.
  if (!o.quiet && progress) reporters.push(progress);
  if (o.json) reporters.push(modeJsonReporter<D, P>(o.json));
  if (o.html && page) reporters.push(modeHtmlReporter<D, P>(o.html, page));
  if (!o.quiet) reporters.push(modeTerminalReporter<D, P>(lines, out.stdout));
  const secrets = secretsOf({ builds: [...endpoints.builds], ...(endpoints.oracle ? { oracle: { jsonrpc: endpoints.oracle } } : {}) });
  const stream = modeStream<D, P>(reporters, secrets);
  stream.emit({ type: "mode-start", kind: start.kind, startedAt: start.startedAt.toISOString(), chain: start.chain, builds: start.builds });
  return stream;
}
