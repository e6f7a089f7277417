// The targets module: build config, the gRPC and JSON-RPC clients, and what they observe.

export * from "./observation.js";
export * from "./endpoint.js";
export {
  ConfigError,
  DEFAULT_LIMITS,
  formatProblem,
  loadConfig,
  parseConfig,
  resolvePath,
  type Build,
  type ConfigProblem,
  type Implementation,
  type Limits,
  type Oracle,
  type ParseOptions,
  type RunConfig,
} from "./config.js";
export { redact, secretsOf } from "./secrets.js";
export {
  callGrpc,
  grpcTarget,
  GrpcConnection,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_MESSAGES,
  type GrpcCallObservation,
  type GrpcCallOptions,
  type GrpcRequest,
  type GrpcTarget,
} from "./grpc.js";
export { GrpcCode, grpcCodeName, type GrpcCodeName } from "./grpc-status.js";
export {
  jsonRpcTarget,
  type JsonRpcCallOptions,
  type JsonRpcTarget,
  type JsonRpcTargetOptions,
} from "./jsonrpc.js";
