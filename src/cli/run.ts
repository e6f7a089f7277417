// `zconform run`, `zconform demo` and `zconform record`: the corpus against builds, from
// a config file or (demo, or record without --config) the embedded fixture network with
// the reference and every emulated profile. `npm start` runs `demo`.

import { goldenDrift } from "../modes/golden/drift.js";
import { goldenRecorder } from "../modes/golden/recorder.js";
import { EXIT, ReportWriteError, runSession } from "../core/run/session.js";
import { onInterrupt } from "./interrupt.js";
import { maskedOutput } from "./masked-output.js";
import { guarded, inputsFromConfig, inputsFromFixture, type CorpusOptions, type FixtureChoice, type RunInputs } from "./inputs.js";
import type { Output } from "./output.js";
import { commandReports, type ReportOptions } from "./reporters.js";
import { reportContext } from "../core/report/context.js";
import { HASH_FIELDS } from "../zcash/lightwallet-rpcs.js";
import { shardCases } from "../modes/shard/shard.js";
import { shardOption } from "./shard.js";
import { lightwalletProtocol } from "../zcash/protocol.js";
import type { Command } from "commander";
import type { ProfileName } from "../zcash/fixture/network.js";
import { corpusOptions, SHARD_HELP } from "./options.js";
import { fixtureOptions, forceOption, reportOptions, RUN_EXIT_CODES } from "./run-options.js";

export interface RunLikeOptions extends CorpusOptions, ReportOptions, FixtureChoice {
  /** A config file; absent = the embedded fixture network. */
  config?: string;
  allowStale?: boolean;
  /** Compare with goldens under this folder. */
  golden?: string;
  /** Write goldens under this folder instead of comparing. */
  record?: string;
  /** "k/n": run only shard k of n of the selected corpus (src/modes/shard). */
  shard?: string;
  /** Send cases that carry a valid transaction; refused unless the chain is regtest. */
  allowBroadcast?: boolean;
  /** Folder for the whole bytes of answers above the size results keep. */
  spill?: string;
  /** Go on despite preflight problems. */
  force?: boolean;
  /** Exit 1 also on an unjudged answer, or when the run has no oracle. */
  strict?: boolean;
}

export async function runLikeCommand(o: RunLikeOptions, out: Output): Promise<number> {
  const shard = await guarded(out, () => (o.shard ? shardOption(o.shard) : undefined));
  if (typeof shard === "number") return shard;
  // The fixture's servers run in a process of their own: this one is the client's.
  const inputs = await guarded<RunInputs>(out, () =>
    o.config ? inputsFromConfig({ ...o, config: o.config }, out) : inputsFromFixture({ ...o, ownProcess: true }, out),
  );
  if (typeof inputs === "number") return inputs;
  return runInputs(o, inputs, out, shard);
}

/** Runs the corpus over inputs assembled by the caller, then closes their network. */
export async function runInputs(o: RunLikeOptions, inputs: RunInputs, out: Output, shard?: ReturnType<typeof shardOption>): Promise<number> {
  out = maskedOutput(out, inputs.config);
  if (o.allowBroadcast && inputs.chain.network !== "regtest") {
    out.stderr(
      `--allow-broadcast refused: chain "${inputs.chain.name}" is ${inputs.chain.network}. ` +
        "zconform sends valid transactions only to a regtest chain; remove the flag to run without sending them.",
    );
    await inputs.network?.close();
    return 2;
  }
  if (shard) inputs.cases = shardCases(inputs.cases, shard);
  const interrupt = onInterrupt(out);
  try {
    const reports = commandReports(o, out, reportContext(inputs.ledger, inputs.config, HASH_FIELDS));
    const reporters = [...reports.reporters];
    const emulated = new Set(inputs.config.builds.filter((b) => b.emulated).map((b) => b.name));
    const recorder = o.record ? goldenRecorder(o.record, inputs.chain.name, emulated, inputs.goldenSides) : undefined;
    if (recorder) reporters.push(recorder);
    // Planning problems in the corpus (a bad anchor, a volatile path the answer cannot
    // have) and a preflight that finds the servers on another chain surface here, after
    // the inputs loaded: they are exit 2 like any other bad input. A report that could
    // not be written is exit 2 too, but the run happened: it ends with its verdict line.
    const session = await guarded(out, () =>
      runSession({
        config: inputs.config,
        cases: inputs.cases,
        ...(inputs.leftOut ? { leftOut: inputs.leftOut } : {}),
        chain: inputs.chain,
        ledger: inputs.ledger,
        reporters,
        protocol: lightwalletProtocol,
        allowStale: o.allowStale,
        signal: interrupt.signal,
        allowBroadcast: o.allowBroadcast === true || inputs.allowBroadcast === true,
        force: o.force === true,
        strict: o.strict === true,
        // The command reads the exit code; the reporters keep what they write.
        collect: false,
        ...(o.golden ? { drift: goldenDrift(lightwalletProtocol, o.golden, inputs.chain.name, emulated, inputs.goldenSides) } : {}),
        ...(o.spill ? { spillDir: o.spill } : {}),
        ...(recorder ? { wholeAnswers: true } : {}),
        ...(shard ? { shard } : {}),
      }).catch((e: unknown) => {
        if (e instanceof ReportWriteError) return e;
        throw e;
      }),
    );
    if (typeof session === "number") return session;
    if (session instanceof ReportWriteError) {
      for (const failure of session.failures) out.stderr(failure);
      reports.conclude(EXIT.usage);
      return EXIT.usage;
    }
    if (recorder) out.stderr(`recorded ${recorder.written()} golden answers under ${o.record}/${inputs.chain.name}/`);
    // Goldens of a build that could not be checked are not worth keeping quiet about.
    const code = recorder && !session.partial && session.exitCode !== EXIT.unchecked ? EXIT.ok : session.exitCode;
    reports.conclude(code, recorder ? "goldens recorded" : undefined);
    return code;
  } finally {
    interrupt.dispose();
    await inputs.network?.close();
  }
}

/** The command line's options as runLikeCommand names them (--chain is a chain file, --profile a list). */
function runLikeOptions(opts: Record<string, unknown>): RunLikeOptions {
  const { chain, profile, golden } = opts as { chain?: string; profile?: ProfileName[]; golden?: string | true };
  return {
    ...(opts as unknown as RunLikeOptions),
    ...(chain ? { chainFile: chain } : {}),
    ...(profile ? { profiles: profile } : {}),
    // A bare --golden compares with the goldens under golden/.
    ...(golden === true ? { golden: "golden" } : {}),
  };
}

const GOLDEN_HELP = "also compare every answer with its recorded golden (default folder: golden)";

/** Declares `zconform run` on the program. */
export function registerRun(program: Command, io: Output): void {
  reportOptions(
    forceOption(
      corpusOptions(
        program
          .command("run")
          .description("run the corpus against the builds of a config file, anchored to its oracle")
          .addHelpText("after", RUN_EXIT_CODES)
          .option("-c, --config <file>", "builds config", "zconform.config.yaml")
          .option("--allow-broadcast", "send cases whose request is a valid transaction (refused unless the chain profile's network is regtest)")
          .option("--spill <dir>", "write the whole bytes of every answer above 1 MiB to <dir>/<sha256>.bin (reports keep its length, hash, head and tail)")
          .option("--golden [dir]", GOLDEN_HELP),
      ),
    ),
  )
    .option("--shard <k/n>", SHARD_HELP)
    .action(async (opts) => {
      process.exitCode = await runLikeCommand(runLikeOptions(opts), io);
    });
}

/** Declares `zconform demo` on the program. */
export function registerDemo(program: Command, io: Output): void {
  fixtureOptions(
    reportOptions(
      forceOption(
        corpusOptions(
          program
            .command("demo")
            .description("start the embedded fixture network (the reference and every emulated profile) and run the whole corpus against it")
            .addHelpText("after", RUN_EXIT_CODES)
            .option("--golden [dir]", GOLDEN_HELP),
        ),
      ),
    ),
  )
    .option("--shard <k/n>", SHARD_HELP)
    .action(async (opts) => {
      process.exitCode = await runLikeCommand(runLikeOptions(opts), io);
    });
}

/** Declares `zconform record` on the program. */
export function registerRecord(program: Command, io: Output): void {
  fixtureOptions(
    forceOption(
      corpusOptions(
        program
          .command("record")
          .description(
            "record every build's answers as goldens under <dir>/<chain>/<build>/ (written atomically); " +
              "without --config, against the embedded fixture network",
          )
          .addHelpText(
            "after",
            "\nExit codes: 0 recorded; 2 bad config, corpus or command line; 3 a build or the oracle could not be checked\n" +
              "on some case (its goldens are not worth trusting); 130/143 interrupted by SIGINT/SIGTERM (what finished is recorded)",
          )
          .option("-c, --config <file>", "builds config (default: the embedded fixture network)")
          .option("--dir <dir>", "golden folder", "golden")
          .option("-q, --quiet", "no terminal report"),
      ),
    ),
  ).action(async (opts) => {
    process.exitCode = await runLikeCommand({ ...runLikeOptions(opts), record: opts.dir, allowStale: true }, io);
  });
}
