// `zconform latency`: times small unary rpcs on every build (src/modes/latency) and reports a
// ~40 ms plateau as a latency divergence the ledger can explain. Exit 0 when every such
// divergence is known, 1 when one is new, 2 for bad input.

import { SHIPPED_CASES } from "../core/corpus/shipped.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { classify } from "../core/ledger/classify.js";
import { loadLedger } from "../core/ledger/quirk.js";
import { runLatency, type LatencyProgress } from "../modes/latency/latency.js";
import { CONTROL_REQUEST, DEFAULT_RPCS, probeSpec, type ProbeSpec } from "../modes/latency/probe.js";
import { latencyHtml, latencyLines, latencyProgressReporter, latencyReport, type LatencyReport } from "../modes/latency/latency-report.js";
import { buildInfo } from "../core/run/session.js";
import { grpcTarget } from "../core/targets/grpc.js";
import { guarded, InputError } from "./inputs.js";
import type { Output } from "./output.js";
import { probeInputs, type ProbeChoice } from "./probe-inputs.js";
import type { Command } from "commander";
import { casesOption } from "./cases-option.js";
import { buildsChoice, collect, fixtureChoice } from "./options.js";
import { startModeStream } from "./mode-reporters.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface LatencyCommandOptions extends ProbeChoice {
  reference?: string;
  rpc?: string[];
  calls?: string;
  warmup?: string;
  parallel?: boolean;
  ledger?: string;
  json?: string;
  html?: string;
  quiet?: boolean;
}

function count(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isInteger(v) || v < min) throw new InputError(`${name} must be an integer >= ${min}, got ${JSON.stringify(text)}`);
  return v;
}

export async function latencyCommand(o: LatencyCommandOptions, out: Output): Promise<number> {
  const prepared = await guarded(out, () => {
    const ledgerPath = o.ledger ?? join(o.cases ?? SHIPPED_CASES, "quirks.yaml");
    if (o.ledger && !existsSync(o.ledger)) throw new InputError(`ledger file not found: ${o.ledger}`);
    return {
      calls: count("--calls", o.calls, 200, 1),
      warmup: count("--warmup", o.warmup, 5, 0),
      ledger: existsSync(ledgerPath) ? loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) : [],
    };
  });
  if (typeof prepared === "number") return prepared;
  const inputs = await guarded(out, () => probeInputs(o, out));
  if (typeof inputs === "number") return inputs;
  const builds = inputs.builds.filter((b) => b.grpc);
  const targets = builds.map((b) => ({ name: b.name, target: grpcTarget(b.grpc!) }));
  try {
    const reference = o.reference ?? (builds.some((b) => b.name === "reference") ? "reference" : undefined);
    if (reference && !builds.some((b) => b.name === reference)) {
      out.stderr(`--reference: no build named ${reference}`);
      return 2;
    }
    const probes: ProbeSpec[] = [];
    const skipped: { rpc: string; reason: string }[] = [];
    for (const rpc of o.rpc ?? DEFAULT_RPCS) {
      const spec = probeSpec(rpc, inputs.anchors);
      if ("skipped" in spec) skipped.push({ rpc, reason: spec.skipped });
      else probes.push(spec);
    }
    if (probes.length === 0) {
      out.stderr(`nothing to time: ${skipped.map((s) => `${s.rpc}: ${s.reason}`).join("; ")}`);
      return 2;
    }
    const control = probeSpec("GetBlock", inputs.anchors, CONTROL_REQUEST);
    if ("skipped" in control) skipped.push({ rpc: "GetBlock (control)", reason: control.skipped });
    const byName = new Map(builds.map((b) => [b.name, b]));
    const startedAt = new Date();
    const infos = builds.map((b) => buildInfo(b, b.protocolVersion));
    const stream = startModeStream<LatencyReport, LatencyProgress>(
      o,
      latencyLines,
      out,
      { builds },
      { kind: "latency", startedAt, chain: inputs.chain, builds: infos },
      latencyProgressReporter(out.stderr),
      latencyHtml,
    );
    const result = await runLatency({
      builds: targets,
      probes,
      ...("skipped" in control ? {} : { control }),
      ...(reference ? { reference } : {}),
      calls: prepared.calls,
      warmup: prepared.warmup,
      parallel: o.parallel === true,
      onProgress: (progress) => stream.emit({ type: "mode-progress", kind: "latency", progress }),
      classify: (d, build, rpc) => {
        const b = byName.get(build)!;
        return classify(
          prepared.ledger,
          d,
          { caseId: `latency.${rpc}`, method: rpc, transport: "grpc" },
          { name: b.name, implementation: b.implementation, version: b.version, protocolVersion: b.protocolVersion },
        );
      },
    });
    const report = latencyReport(result, {
      startedAt,
      chain: inputs.chain,
      builds: infos,
      ...(reference ? { reference } : {}),
      calls: prepared.calls,
      warmup: prepared.warmup,
      skipped,
    });
    stream.emit({ type: "mode-end", document: report });
    await stream.finish();
    return report.exitCode;
  } finally {
    await Promise.all(targets.map((t) => t.target.close()));
    await inputs.close();
  }
}

/** Declares `zconform latency` on the program. */
export function registerLatency(program: Command, io: Output): void {
  fixtureChoice(
    buildsChoice(
      program
        .command("latency")
        .description(
          "time N calls per small unary rpc and build; p50/p90/p99/max and a histogram; reports a plateau near 40 ms " +
            "(TCP_NODELAY missing on one side, delayed ACKs on the other) as a latency divergence the ledger can classify",
        ),
    )
      .option("--reference <build>", 'the build whose timings are the baseline (default: "reference" if present)')
      .option("--rpc <name>", "rpcs to time (default GetLatestBlock, GetLightdInfo, GetTreeState, GetTaddressBalance); repeatable", collect)
      .option("-n, --calls <n>", "timed calls per rpc and build", "200")
      .option("--warmup <n>", "calls per rpc and build before timing, reported apart", "5")
      .option("--parallel", "time all builds at once (default one after the other; builds served by this process would measure each other)")
      .addOption(casesOption("corpus folder: chain profiles (anchors for requests) and the default ledger"))
      .option("--ledger <file>", "known-quirks ledger; latency divergences match as case id latency.<Rpc>")
      .option("--json <file>", "write the latency report (JSON) to this file")
      .option("--html <file>", "write a page of the timings to this file: per rpc and build a histogram, the ~40 ms plateau marked")
      .option("-q, --quiet", "no terminal report"),
  ).action(async (opts) => {
    process.exitCode = await latencyCommand(
      { ...opts, ...(opts.chain ? { chainFile: opts.chain } : {}), ...(opts.profile ? { profiles: opts.profile } : {}) },
      io,
    );
  });
}
