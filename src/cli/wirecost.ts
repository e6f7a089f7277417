// `zconform wirecost`: bytes and decode time of the same data over gRPC and JSON-RPC, per
// build that serves both (src/modes/latency/wirecost.ts). Informational: exit 0 unless the
// input is bad (2).

import { runWireCost } from "../modes/latency/wirecost.js";
import { wireCostLines, wireCostReport, type WireCostReport } from "../modes/latency/wirecost-report.js";
import { buildInfo } from "../core/run/session.js";
import { grpcTarget } from "../core/targets/grpc.js";
import { jsonRpcTarget } from "../core/targets/jsonrpc.js";
import { guarded, InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { probeInputs, type ProbeChoice } from "./probe-inputs.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { buildsChoice, fixtureChoice } from "./options.js";
import { startModeStream } from "./mode-reporters.js";

export interface WireCostCommandOptions extends ProbeChoice {
  calls?: string;
  json?: string;
  quiet?: boolean;
}

export async function wirecostCommand(o: WireCostCommandOptions, out: Output): Promise<number> {
  const calls = await guarded(out, () => {
    const v = Number(o.calls ?? 20);
    if (!Number.isInteger(v) || v < 1) throw new InputError(`--calls must be an integer >= 1, got ${JSON.stringify(o.calls)}`);
    return { v };
  });
  if (typeof calls === "number") return calls;
  const inputs = await guarded(out, () => probeInputs(o, out));
  if (typeof inputs === "number") return inputs;
  const both = inputs.builds.filter((b) => b.grpc && b.jsonrpc);
  const targets = both.map((b) => ({ name: b.name, grpc: grpcTarget(b.grpc!), jsonrpc: jsonRpcTarget(b.jsonrpc!) }));
  try {
    const startedAt = new Date();
    const builds = both.map((b) => buildInfo(b, b.protocolVersion));
    const stream = startModeStream<WireCostReport>(o, wireCostLines, out, { builds: both }, { kind: "wirecost", startedAt, chain: inputs.chain, builds });
    const { rows, skipped } = await runWireCost(targets, inputs.anchors, calls.v);
    stream.emit({ type: "mode-end", document: wireCostReport(rows, skipped, { startedAt, chain: inputs.chain, builds, calls: calls.v }) });
    await stream.finish();
    return 0;
  } finally {
    await Promise.all(targets.flatMap((t) => [t.grpc.close(), t.jsonrpc.close()]));
    await inputs.close();
  }
}

/** Declares `zconform wirecost` on the program. */
export function registerWirecost(program: Command, io: Output): void {
  fixtureChoice(
    buildsChoice(
      program
        .command("wirecost")
        .description(
          "bytes on the wire and decode time of the same data over both transports: GetBlock vs getblock 0/1, " +
            "GetTransaction vs getrawtransaction 0/1, GetTreeState vs z_gettreestate, per build serving both",
        ),
    )
      .option("-n, --calls <n>", "calls per request (median time reported)", "20")
      .addOption(casesOption("corpus folder: chain profiles (anchors for requests)"))
      .option("--json <file>", "write the wire-cost report (JSON) to this file")
      .option("-q, --quiet", "no terminal report"),
  ).action(async (opts) => {
    process.exitCode = await wirecostCommand(
      { ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) },
      io,
    );
  });
}
