// zconform as a library: everything the CLI does, as plain functions over plain data.
// The jest integration is the subpath "zconform/jest".

export { loadCorpus, parseCaseFile } from "./corpus/load.js";
export type { Case, Expectation } from "./corpus/case.js";
export { loadChainProfile, listChainProfiles, type ChainProfile } from "./corpus/chain-profile.js";
export { resolveAnchors, type Anchors } from "./corpus/anchors.js";
export { loadConfig, parseConfig, ConfigError, secretsOf, redact, describeEndpoint, type Build, type RunConfig } from "./targets/config.js";
export { grpcTarget, callGrpc, type GrpcTarget } from "./targets/grpc.js";
export { jsonRpcTarget, type JsonRpcTarget } from "./targets/jsonrpc.js";
export type { Observation, GrpcObservation, JsonRpcObservation, Fault, FaultKind } from "./targets/observation.js";
export { canonOf, type Canonical } from "./canon/index.js";
export { compareObservations, type Comparison } from "./diff/compare.js";
export { verdictOf, type Verdict } from "./diff/verdict.js";
export { DIVERGENCE_KINDS, type Divergence, type DivergenceKind } from "./diff/divergence.js";
export { deriveFromOracle } from "./oracle/derive.js";
export { loadLedger, parseLedger, type Quirk } from "./ledger/quirk.js";
export { classify } from "./ledger/classify.js";
export { ledgerFindings } from "./ledger/findings.js";
export { planCases } from "./run/plan.js";
export { runSession, type SessionOptions, type SessionResult } from "./run/session.js";
export type { RunEvent, Reporter, BuildInfo, RunSummary } from "./run/events.js";
export { REPORT_SCHEMA_VERSION, type CaseResult, type Answer, type ClassifiedDivergence } from "./run/result.js";
export { jsonReporter, jsonReportFrom, type JsonReport } from "./report/json.js";
export { readJsonReport, writeJsonReport } from "./report/json-file.js";
export { terminalReporter } from "./report/terminal.js";
export { junitReporter } from "./report/junit.js";
export { htmlReporter } from "./report/html.js";
export { goldenRecorder } from "./golden/recorder.js";
export { runSweep } from "./sweep/sweep.js";
export { runLatency } from "./latency/latency.js";
export { mergeReports } from "./shard/merge.js";
export { startFixtureNetwork, PROFILE_NAMES, type FixtureNetwork, type ProfileName } from "./fixture/network.js";
export * as zcash from "./zcash/index.js";
