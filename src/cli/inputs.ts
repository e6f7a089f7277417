// What every run-like command (run, demo, record) assembles before running: the corpus,
// the ledger, the builds and the chain profile — from a config file, or from the
// embedded fixture network. Problems in user files become exit code 2 with file:line.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadChainProfile, type ChainProfile } from "../core/corpus/chain-profile.js";
import type { Case } from "../core/corpus/case.js";
import { loadCorpus } from "../core/corpus/load.js";
import { PROFILE_NAMES, startFixtureNetwork, type FixtureNetwork, type ProfileName } from "../zcash/fixture/network.js";
import { REAL_DEADLINE_MS, startRealServers } from "../zcash/real/servers.js";
import { InputError } from "./input-error.js";
import { startFixtureProcess } from "./fixture-process.js";
import { fixtureDeadlineMs, wholeChainDeadlineMs } from "../zcash/fixture/deadline.js";
import { loadLedger, type Quirk } from "../core/ledger/quirk.js";
import { ConfigError, DEFAULT_LIMITS, describeEndpoint, isInsecure, loadConfig, type RunConfig } from "../core/targets/config.js";
import { ProblemsError } from "../core/io/located-yaml.js";
import { ReportWriteError } from "../core/run/session.js";
import { PreflightError } from "../core/run/preflight.js";
import type { Output } from "./output.js";
import { SelectionError, selectCases, type CaseFilter } from "./select.js";
import type { CaseRef } from "../core/ledger/findings.js";
import { ChainFileError } from "../zcash/fixture/chain/real.js";
import type { NetworkName } from "../zcash/codec/network.js";
import { lightwalletProtocol } from "../zcash/protocol.js";

export interface CorpusOptions extends CaseFilter {
  cases: string;
  ledger?: string;
}

export interface RunInputs {
  config: RunConfig;
  cases: Case[];
  /** Cases of the corpus that --case or --method left out (ledger entries covering one are not judged stale). */
  leftOut?: CaseRef[];
  chain: ChainProfile;
  ledger: Quirk[];
  /** Set when the inputs come from a fixture network the caller must close. */
  network?: { close(): Promise<void> };
  /**
   * The embedded synthetic chain: regtest, local, and accepting transactions, so the
   * corpus's valid-transaction case is sent (the guard still asks every server its chain).
   */
  allowBroadcast?: boolean;
  /** The sides goldens keep and compare (default every build's answers); see modes/golden/store.ts goldenAnswers. */
  goldenSides?: ReadonlySet<string>;
}

export { InputError };

export function loadCorpusAndLedger(o: CorpusOptions): { cases: Case[]; leftOut: CaseRef[]; ledger: Quirk[] } {
  const corpus = loadCorpus(o.cases, lightwalletProtocol);
  const cases = selectCases(corpus, o);
  const chosen = new Set(cases.map((c) => c.id));
  const leftOut = corpus.filter((c) => !chosen.has(c.id)).map((c) => ({ caseId: c.id, method: c.method, transport: c.transport }));
  const ledgerPath = o.ledger ?? join(o.cases, "quirks.yaml");
  if (o.ledger && !existsSync(o.ledger)) throw new InputError(`ledger file not found: ${o.ledger}`);
  return { cases, leftOut, ledger: existsSync(ledgerPath) ? loadLedger(ledgerPath, { implementations: lightwalletProtocol.implementations }) : [] };
}

/** Runs `load`, turning problems in user files into a message on stderr and exit code 2. */
export async function guarded<T>(out: Output, load: () => T | Promise<T>): Promise<T | number> {
  try {
    return await load();
  } catch (e) {
    if (
      e instanceof ProblemsError ||
      e instanceof ConfigError ||
      e instanceof InputError ||
      e instanceof ReportWriteError ||
      e instanceof PreflightError ||
      e instanceof SelectionError ||
      e instanceof ChainFileError
    ) {
      out.stderr(e.message);
      return 2;
    }
    throw e;
  }
}

export function inputsFromConfig(o: CorpusOptions & { config: string }, out: Output): RunInputs {
  if (!existsSync(o.config)) {
    throw new InputError(`config file not found: ${o.config} (write one as the README shows, or try "zconform demo" against the embedded fixture network)`);
  }
  const config = loadConfig(o.config, lightwalletProtocol);
  let chain: ChainProfile;
  try {
    chain = loadChainProfile(o.cases, config.chain);
  } catch (e) {
    if (e instanceof ProblemsError) throw e;
    throw new InputError(`${o.config}: chain: ${(e as Error).message}`);
  }
  for (const b of config.builds) {
    for (const ep of [b.grpc, b.jsonrpc]) {
      if (ep && isInsecure(ep))
        out.stderr(`WARNING: TLS certificate verification is OFF for build ${b.name} (${describeEndpoint(ep)}); answers could come from anyone`);
    }
  }
  // The oracle is the ground truth: an unverified one is worth the same warning.
  const oracle = config.oracle?.jsonrpc;
  if (oracle && isInsecure(oracle))
    out.stderr(`WARNING: TLS certificate verification is OFF for the oracle (${describeEndpoint(oracle)}); its answers could come from anyone`);
  return { config, chain, ...loadCorpusAndLedger(o) };
}

export interface FixtureChoice {
  chainFile?: string;
  /** The network of the chain file, when its blocks do not tell. */
  network?: NetworkName;
  profiles?: ProfileName[];
  /** Also start the installed real servers (real-servers.yaml) against the fixture's JSON-RPC. */
  real?: boolean;
}

/** The fixture network with the real servers started against it, closed together. */
async function withRealServers(network: FixtureNetwork, out: Output): Promise<{ network: FixtureNetwork; builds: RunConfig["builds"] }> {
  out.stderr("Starting the real servers against the fixture's JSON-RPC…");
  let real;
  try {
    real = await startRealServers(network);
  } catch (e) {
    await network.close();
    throw new InputError((e as Error).message);
  }
  for (const note of real.notes) out.stderr(note);
  for (const s of real.servers) out.stderr(`${s.pin.name} ${s.pin.version} (real) ingested the chain to its tip in ${(s.ingestMs / 1000).toFixed(1)} s`);
  const close = async () => {
    await real.close();
    await network.close();
  };
  return { network: { ...network, close }, builds: real.builds({ deadlineMs: REAL_DEADLINE_MS }) };
}

export async function inputsFromFixture(o: CorpusOptions & FixtureChoice & { ownProcess?: boolean }, out: Output): Promise<RunInputs> {
  const loaded = loadCorpusAndLedger(o);
  out.stderr("Starting the embedded fixture network (emulated builds, not the real servers)…");
  if (o.network && !o.chainFile) throw new InputError("--network names the network of a --chain file; give --chain too");
  // The synthetic regtest chain acknowledges a decodable transaction with its txid (its
  // mempool stays fixed), so the corpus's success path of SendTransaction has an answer.
  const synthetic = !o.chainFile;
  if (o.ownProcess) return { ...(await inputsFromFixtureProcess(o, synthetic, out)), ...loaded };
  const started = await startFixtureNetwork({
    acceptTransactions: synthetic,
    ...(o.chainFile ? { chain: o.chainFile } : {}),
    ...(o.network ? { network: o.network } : {}),
    ...(o.profiles ? { profiles: o.profiles } : {}),
  });
  const { network, builds: realBuilds } = o.real ? await withRealServers(started, out) : { network: started, builds: [] };
  const config: RunConfig = {
    file: "(fixture network)",
    chain: "fixture",
    oracle: { jsonrpc: { url: network.jsonrpc, auth: { kind: "cookie", cookieFile: network.cookie } }, source: { file: "(fixture network)", line: 0 } },
    defaults: DEFAULT_LIMITS,
    builds: [...network.builds({ deadlineMs: await fixtureDeadlineMs(network) }), ...realBuilds],
  };
  const chain: ChainProfile = { name: "fixture", network: network.model.network.name, anchors: network.anchors, dynamic: {} };
  return { config, chain, network, ...loaded, ...(synthetic && chain.network === "regtest" ? { allowBroadcast: true } : {}) };
}

/**
 * The same fixture network in a process of its own (`zconform fixture`): the run's event
 * loop and heap are then the client's alone, and the servers answer from the other core.
 */
async function inputsFromFixtureProcess(o: FixtureChoice, synthetic: boolean, out: Output): Promise<Omit<RunInputs, "cases" | "ledger">> {
  const f = await startFixtureProcess(
    {
      profiles: o.profiles ?? PROFILE_NAMES,
      acceptTransactions: synthetic,
      real: o.real === true,
      ...(o.chainFile ? { chainFile: o.chainFile } : {}),
      ...(o.network ? { network: o.network } : {}),
    },
    out,
  );
  try {
    const profiles = Object.fromEntries(f.builds.filter((b) => b.profile !== undefined).map((b) => [b.name, b.grpc!.url]));
    const deadlineMs = await wholeChainDeadlineMs(profiles, f.chain.baseHeight, f.chain.tipHeight);
    const source = { file: "(fixture network)", line: 0 };
    const config: RunConfig = {
      file: "(fixture network)",
      chain: "fixture",
      oracle: { jsonrpc: f.oracle, source },
      defaults: DEFAULT_LIMITS,
      builds: f.builds.map((b) => ({ ...b, deadlineMs: b.pin !== undefined ? REAL_DEADLINE_MS : deadlineMs })),
    };
    const chain: ChainProfile = { name: "fixture", network: f.chain.network, anchors: f.anchors, dynamic: {} };
    return { config, chain, network: { close: f.close }, ...(synthetic && chain.network === "regtest" ? { allowBroadcast: true } : {}) };
  } catch (e) {
    await f.close();
    throw e;
  }
}
