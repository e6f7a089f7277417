// `zconform run`, `zconform demo` and `zconform record`: the corpus against builds, from
// a config file or (demo, or record --demo) the embedded fixture network with the
// reference and every emulated profile. `npm start` runs `demo`.

import { goldenDrift } from "../modes/golden/drift.js";
import { goldenRecorder } from "../modes/golden/recorder.js";
import { EXIT, runSession } from "../core/run/session.js";
import { onInterrupt } from "./interrupt.js";
import { maskedOutput } from "./masked-output.js";
import { guarded, inputsFromConfig, inputsFromFixture, type CorpusOptions, type FixtureChoice, type RunInputs } from "./inputs.js";
import type { Output } from "./output.js";
import { reportersFor, type ReportOptions } from "./reporters.js";
import { reportContext } from "../core/report/context.js";
import { HASH_FIELDS } from "../zcash/lightwallet-rpcs.js";
import { shardCases } from "../modes/shard/shard.js";
import { shardOption } from "./shard.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

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
}

export async function runLikeCommand(o: RunLikeOptions, out: Output): Promise<number> {
  const shard = await guarded(out, () => (o.shard ? shardOption(o.shard) : undefined));
  if (typeof shard === "number") return shard;
  // The fixture's servers run in a process of their own: this one is the client's.
  const inputs = await guarded<RunInputs>(out, () => (o.config ? inputsFromConfig({ ...o, config: o.config }, out) : inputsFromFixture({ ...o, ownProcess: true }, out)));
  if (typeof inputs === "number") return inputs;
  return runInputs(o, inputs, out, shard);
}

/** Runs the corpus over inputs assembled by the caller, then closes their network. */
export async function runInputs(o: RunLikeOptions, inputs: RunInputs, out: Output, shard?: ReturnType<typeof shardOption>): Promise<number> {
  out = maskedOutput(out, inputs.config);
  if (o.allowBroadcast && inputs.chain.network !== "regtest") {
    out.stderr(`--allow-broadcast refused: chain "${inputs.chain.name}" is ${inputs.chain.network}. ` +
      "zconform sends valid transactions only to a regtest chain; remove the flag to run without sending them.");
    await inputs.network?.close();
    return 2;
  }
  if (shard) inputs.cases = shardCases(inputs.cases, shard);
  const interrupt = onInterrupt(out);
  try {
    const reporters = reportersFor(o, out, reportContext(inputs.ledger, inputs.config, HASH_FIELDS));
    const emulated = new Set(inputs.config.builds.filter((b) => b.emulated).map((b) => b.name));
    const recorder = o.record ? goldenRecorder(o.record, inputs.chain.name, emulated, inputs.goldenSides) : undefined;
    if (recorder) reporters.push(recorder);
    // Planning problems in the corpus (a bad anchor, a volatile path the answer cannot
    // have) surface here, after the inputs loaded: they are exit 2 like any other.
    const session = await guarded(out, () => runSession({
      config: inputs.config, cases: inputs.cases, chain: inputs.chain, ledger: inputs.ledger, reporters,
      protocol: lightwalletProtocol, allowStale: o.allowStale, signal: interrupt.signal, allowBroadcast: o.allowBroadcast === true || inputs.allowBroadcast === true, force: o.force === true,
      // The command reads the exit code; the reporters keep what they write.
      collect: false,
      ...(o.golden ? { drift: goldenDrift(lightwalletProtocol, o.golden, inputs.chain.name, emulated, inputs.goldenSides) } : {}),
      ...(o.spill ? { spillDir: o.spill } : {}),
      ...(recorder ? { wholeAnswers: true } : {}),
      ...(shard ? { shard } : {}),
    }));
    if (typeof session === "number") return session;
    if (recorder) {
      out.stderr(`recorded ${recorder.written()} golden answers under ${o.record}/${inputs.chain.name}/`);
      // Goldens of a build that could not be checked are not worth keeping quiet about.
      return session.partial || session.exitCode === EXIT.unchecked ? session.exitCode : EXIT.ok;
    }
    return session.exitCode;
  } finally {
    interrupt.dispose();
    await inputs.network?.close();
  }
}
