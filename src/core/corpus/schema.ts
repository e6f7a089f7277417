// JSON Schemas of the corpus files. They are the reference for what a case file may hold;
// the loader adds the checks a schema cannot express (unique ids, known methods).

const errorCode = { anyOf: [{ type: "string", pattern: "^[A-Z_]+$" }, { type: "integer" }] };

const expectation = {
  anyOf: [
    { enum: ["agree", "oracle", "ok"] },
    {
      type: "object",
      required: ["error"],
      additionalProperties: false,
      properties: { error: { type: "array", minItems: 1, items: errorCode } },
    },
  ],
};

function caseSchema(implementations: readonly string[]) {
  return {
    type: "object",
    required: ["id", "request"],
    additionalProperties: false,
    properties: {
      id: { type: "string", pattern: "^[a-z0-9][a-z0-9._-]*$" },
      title: { type: "string" },
      request: {},
      expect: expectation,
      volatile: { type: "array", items: { type: "string", minLength: 1 } },
      wallClock: { type: "array", items: { type: "string", minLength: 1 } },
      unorderedKeys: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
      unordered: { type: "boolean" },
      openEnded: {
        type: "object",
        required: ["quietMs"],
        additionalProperties: false,
        properties: { quietMs: { type: "integer", minimum: 100, maximum: 600000 } },
      },
      cancelAfter: { type: "integer", minimum: 1, maximum: 100000 },
      deadlineMs: { type: "integer", minimum: 10, maximum: 60000 },
      tags: { type: "array", items: { type: "string", pattern: "^[a-z0-9-]+$" } },
      protocol: { type: "string" },
      chains: { type: "array", items: { type: "string" }, minItems: 1 },
      servedBy: { type: "array", items: { enum: implementations }, minItems: 1 },
      sameAnswerAs: {
        type: "object",
        required: ["case", "why"],
        additionalProperties: false,
        properties: { case: { type: "string", pattern: "^[a-z0-9][a-z0-9._-]*$" }, why: { type: "string", minLength: 10 } },
      },
    },
  };
}

/** A case file's schema for a protocol whose builds are one of `implementations` (`servedBy`). */
export function caseFileSchema(implementations: readonly string[]) {
  const c = caseSchema(implementations);
  return {
    type: "object",
    required: ["method", "cases"],
    additionalProperties: false,
    properties: {
      method: { type: "string", minLength: 1 },
      description: { type: "string" },
      defaults: {
        type: "object",
        additionalProperties: false,
        properties: {
          expect: expectation,
          volatile: c.properties.volatile,
          wallClock: c.properties.wallClock,
          unordered: c.properties.unordered,
          openEnded: c.properties.openEnded,
          tags: c.properties.tags,
          protocol: c.properties.protocol,
          chains: c.properties.chains,
          servedBy: c.properties.servedBy,
        },
      },
      cases: { type: "array", minItems: 1, items: c },
    },
  };
}

export const chainProfileSchema = {
  type: "object",
  required: ["name", "network", "anchors"],
  additionalProperties: false,
  properties: {
    name: { type: "string", pattern: "^[a-z0-9-]+$" },
    description: { type: "string" },
    network: { enum: ["mainnet", "testnet", "regtest"] },
    chainName: {
      type: "string",
      description: "the name its servers give the chain (getblockchaininfo.chain, LightdInfo.chainName) when it is not the network's usual one",
    },
    frozenAt: { type: "integer", minimum: 0 },
    frozenHash: { type: "string", pattern: "^[0-9a-f]{64}$" },
    anchors: {
      type: "object",
      propertyNames: { pattern: "^[a-z][a-z0-9_]*$" },
      additionalProperties: { type: ["integer", "string"] },
    },
    dynamic: {
      type: "object",
      description: "anchors resolved through the oracle at run start: the tip's height or hash, or a transaction in its mempool",
      propertyNames: { pattern: "^[a-z][a-z0-9_]*$" },
      additionalProperties: { enum: ["tip_height", "tip_hash", "mempool_txid"] },
    },
    discover: {
      type: "boolean",
      description: "read every other anchor from the chain the oracle serves when a run starts (small chains such as regtest: every block and the mempool)",
    },
  },
} as const;
