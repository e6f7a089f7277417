// JSON Schema of zconform.config.yaml. `x-message` is an annotation read by the loader to
// say what a field must be in words a user understands, instead of the validator's.

const NAME = "^[A-Za-z0-9][A-Za-z0-9._-]*$";
const NAME_MESSAGE = "must be a name of letters, digits, '.', '_' and '-'";

const positiveInt = (max: number) => ({
  type: "integer",
  minimum: 1,
  maximum: max,
  "x-message": `must be a whole number from 1 to ${max}`,
});

const limits = {
  concurrency: positiveInt(1024),
  deadlineMs: positiveInt(86_400_000),
  // A gRPC length prefix is 32 bits.
  maxMessageBytes: positiveInt(4_294_967_295),
  maxCallBytes: positiveInt(Number.MAX_SAFE_INTEGER),
  maxStreamMessages: positiveInt(1_000_000_000),
  unresponsiveAfter: positiveInt(1_000_000),
};

const path = { type: "string", minLength: 1, "x-message": "must be a file path" };

const endpoint = {
  type: "object",
  required: ["url"],
  additionalProperties: false,
  properties: {
    url: {
      type: "string",
      pattern: "^https?://[^/?#\\s]+",
      "x-message": "must be a URL (http:// or https://)",
    },
    caFile: path,
    insecureSkipVerify: { type: "boolean", "x-message": "must be true or false" },
    serverName: { type: "string", minLength: 1, "x-message": "must be a host name" },
    user: { type: "string" },
    password: { type: "string" },
    bearerToken: { type: "string", minLength: 1 },
    cookieFile: path,
    headers: {
      type: "object",
      propertyNames: { pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$", "x-message": "is not a valid header name" },
      additionalProperties: { type: "string", "x-message": "must be a string" },
      "x-message": "must be a map of header names to values",
    },
    public: {
      type: "array",
      items: { type: "string", minLength: 1 },
      "x-message": "must be a list of header names and URL query keys whose values are not secret (url-user for the user name in the URL)",
    },
  },
};

/** The fields of one build; `implementation` is checked against the protocol's names. */
function buildSchema(implementations: readonly string[]) {
  return {
    type: "object",
    required: ["name", "implementation"],
    additionalProperties: false,
    properties: {
      name: { type: "string", pattern: NAME, "x-message": NAME_MESSAGE },
      implementation: {
        enum: implementations,
        "x-message": `must be one of ${implementations.join(", ")}`,
      },
      version: { type: "string", minLength: 1, "x-message": "must be a version string" },
      protocolVersion: {
        type: "string",
        pattern: "^v?\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.+-]*)?$",
        "x-message": "must be a lightwallet-protocol version such as v0.4.0",
      },
      grpc: endpoint,
      jsonrpc: endpoint,
      emulated: { type: "boolean", "x-message": "must be true or false" },
      profile: { type: "string", pattern: NAME, "x-message": NAME_MESSAGE },
      oracle: { type: "string", pattern: NAME, "x-message": "must name one of nodeOracles" },
      // The node behind the build, when the server does not say it (ledger entries may depend on it).
      node: {
        type: "object",
        required: ["implementation"],
        additionalProperties: false,
        properties: {
          implementation: { type: "string", pattern: NAME, "x-message": "must name the node's implementation, such as zebrad or zcashd" },
          version: { type: "string", minLength: 1, "x-message": "must be a version string" },
        },
      },
      ...limits,
    },
  };
}

/** The config's schema for a protocol whose builds declare one of `implementations`. */
export function configSchema(implementations: readonly string[]) {
  return {
    type: "object",
    required: ["chain", "builds"],
    additionalProperties: false,
    properties: {
      chain: { type: "string", pattern: NAME, "x-message": NAME_MESSAGE },
      oracle: {
        type: "object",
        required: ["jsonrpc"],
        additionalProperties: false,
        properties: { jsonrpc: endpoint },
      },
      // Further nodes, by name, for builds backed by another node than the oracle (builds[].oracle).
      nodeOracles: {
        type: "object",
        propertyNames: { pattern: NAME },
        additionalProperties: {
          type: "object",
          required: ["jsonrpc"],
          additionalProperties: false,
          properties: { jsonrpc: endpoint },
        },
      },
      defaults: {
        type: "object",
        additionalProperties: false,
        // maxRunBytes is the run's, shared by every build: it has no per-build form.
        properties: { ...limits, maxRunBytes: positiveInt(Number.MAX_SAFE_INTEGER) },
      },
      builds: {
        type: "array",
        minItems: 1,
        "x-message": "must be a list with at least one build",
        items: buildSchema(implementations),
      },
    },
  };
}

/** Keys whose values are strings even when YAML reads them as numbers (`version: 1.10`). */
export const STRING_KEYS = new Set([
  "chain",
  "name",
  "version",
  "protocolVersion",
  "url",
  "caFile",
  "serverName",
  "user",
  "password",
  "bearerToken",
  "cookieFile",
  "profile",
]);
