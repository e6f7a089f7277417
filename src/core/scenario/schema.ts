// The JSON Schema of a scenario file (cases/scenarios/<id>.yaml). It is the reference for
// what a file may hold; the loader adds what a schema cannot say (one action per step, a
// check either names a corpus case or is written out, names used only once defined).

const id = { type: "string", pattern: "^[a-z0-9][a-z0-9._-]*$", "x-message": "must be lower-case letters, digits, '.', '_' or '-'" };
const name = { type: "string", pattern: "^[a-z][a-z0-9_]*$", "x-message": "must be a lower-case name (letters, digits, '_')" };
const ms = (max: number) => ({ type: "integer", minimum: 0, maximum: max });
const expectation = {
  anyOf: [
    { enum: ["agree", "oracle", "ok"] },
    {
      type: "object",
      required: ["error"],
      additionalProperties: false,
      properties: { error: { type: "array", minItems: 1, items: { anyOf: [{ type: "string" }, { type: "integer" }] } } },
    },
  ],
};
const paths = { type: "array", items: { type: "string", minLength: 1 } };

/** What a check, or the call a held stream makes, may say. */
const callFields = {
  case: { type: "string", minLength: 1, description: "a corpus case by id (Method/name)" },
  id,
  title: { type: "string" },
  rpc: { type: "string", minLength: 1, description: "a gRPC method of the protocol's service" },
  method: { type: "string", minLength: 1, description: "a JSON-RPC method" },
  request: {},
  expect: expectation,
  volatile: paths,
  wallClock: paths,
  unordered: { type: "boolean" },
};

const check = {
  type: "object",
  additionalProperties: false,
  properties: { ...callFields, stream: { ...name, description: "a held stream, judged on what it carried so far" }, deadlineMs: ms(600_000) },
};

const step = {
  type: "object",
  additionalProperties: false,
  properties: {
    title: { type: "string" },
    mine: {
      anyOf: [
        { type: "integer", minimum: 1, maximum: 1000 },
        {
          type: "object",
          required: ["blocks"],
          additionalProperties: false,
          properties: { blocks: { type: "integer", minimum: 1, maximum: 1000 }, everyMs: ms(60_000) },
        },
      ],
    },
    send: { anyOf: [name, { type: "array", minItems: 1, maxItems: 1000, items: name }] },
    reorg: {
      anyOf: [
        { type: "integer", minimum: 1, maximum: 100 },
        {
          type: "object",
          required: ["depth"],
          additionalProperties: false,
          properties: { depth: { type: "integer", minimum: 1, maximum: 100 }, include: { type: "array", items: name } },
        },
      ],
    },
    wait: {
      type: "object",
      additionalProperties: false,
      properties: { ms: ms(600_000), until: { enum: ["tip"] }, deadlineMs: ms(600_000) },
    },
    open: {
      type: "object",
      required: ["stream"],
      additionalProperties: false,
      properties: { ...callFields, stream: name, pauseAfter: { type: "integer", minimum: 1, maximum: 100_000 } },
    },
    read: { anyOf: [name, { type: "object", required: ["stream"], additionalProperties: false, properties: { stream: name, deadlineMs: ms(600_000) } }] },
    close: name,
    checks: { type: "array", items: check },
  },
};

export const scenarioFileSchema = {
  type: "object",
  required: ["id", "steps"],
  additionalProperties: false,
  properties: {
    id,
    title: { type: "string" },
    description: { type: "string" },
    tags: { type: "array", items: { type: "string", pattern: "^[a-z0-9-]+$" } },
    convergeMs: ms(600_000),
    steps: { type: "array", minItems: 1, maxItems: 10_000, items: step },
  },
} as const;

export const ACTION_KEYS = ["mine", "send", "reorg", "wait", "open", "read", "close"] as const;
