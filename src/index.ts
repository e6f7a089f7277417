// zconform as a library: everything the CLI does, as plain functions over plain data.
// The jest integration is the subpath "zconform/jest".

export { loadCorpus, parseCaseFile } from "./core/corpus/load.js";
export type { Case, Expectation } from "./core/corpus/case.js";
export { loadChainProfile, listChainProfiles, type ChainProfile } from "./core/corpus/chain-profile.js";
export { resolveAnchors, type Anchors } from "./core/corpus/anchors.js";
export { loadConfig, parseConfig, ConfigError, secretsOf, redact, describeEndpoint, type Build, type RunConfig } from "./core/targets/config.js";
export { grpcTarget, callGrpc, type GrpcTarget } from "./core/targets/grpc.js";
export { jsonRpcTarget, type JsonRpcTarget } from "./core/targets/jsonrpc.js";
export type { Observation, GrpcObservation, JsonRpcObservation, Fault, FaultKind } from "./core/targets/observation.js";
export { canonOf, type Canonical } from "./core/canon/index.js";
export { compareObservations, type Comparison } from "./core/diff/compare.js";
export { verdictOf, type Verdict } from "./core/diff/verdict.js";
export { DIVERGENCE_KINDS, type Divergence, type DivergenceKind } from "./core/diff/divergence.js";
export { deriveFromOracle } from "./zcash/oracle/derive.js";
export { loadLedger, parseLedger, type Quirk } from "./core/ledger/quirk.js";
export { classify } from "./core/ledger/classify.js";
export { ledgerFindings } from "./core/ledger/findings.js";
export { planCases } from "./core/run/plan.js";
export type { Protocol, StartFacts } from "./core/run/protocol.js";
export { lightwalletProtocol } from "./zcash/protocol.js";
export { runSession, type SessionOptions, type SessionResult } from "./core/run/session.js";
export type { RunEvent, Reporter, BuildInfo, RunSummary, RunCondition } from "./core/results/events.js";
export type { BuildOutcome, OutcomeKind } from "./core/results/outcome.js";
export type { UncheckedSide } from "./core/results/unchecked.js";
export { REPORT_SCHEMA_VERSION, type CaseResult, type Answer, type ClassifiedDivergence } from "./core/results/result.js";
export { jsonReporter, jsonReportFrom, type JsonReport } from "./core/report/json.js";
export { readJsonReport, writeJsonReport } from "./core/report/json-file.js";
export { terminalReporter } from "./core/report/terminal.js";
export { junitReporter } from "./core/report/junit.js";
export { htmlReporter } from "./core/report/html.js";
export { goldenRecorder } from "./modes/golden/recorder.js";
export { goldenDrift } from "./modes/golden/drift.js";
export { runSweep } from "./modes/sweep/sweep.js";
export { runLatency } from "./modes/latency/latency.js";
export { mergeReports } from "./modes/shard/merge.js";
export { startFixtureNetwork, PROFILE_NAMES, type FixtureNetwork, type ProfileName } from "./zcash/fixture/network.js";
export * as zcash from "./zcash/codec/index.js";
