// Comparisons, field paths, divergence kinds and verdicts.
export * from "./divergence.js";
export * from "./compare.js";
export { compareGrpc, sameGrpcWire } from "./compare-grpc.js";
export { compareJsonRpc, sameJsonRpcWire } from "./compare-json.js";
export { diffMessages } from "./fields.js";
export { classifyLeaf, isReversed, isReversedHex, multiplicityFactor } from "./kinds.js";
export { compareSequences, type SequenceOutcome } from "./sequence.js";
export { encodingNotes, encodingDifference } from "./encoding.js";
export { jsonPatch, formatPatch, type PatchOp } from "./patch.js";
export * from "./verdict.js";
export * from "./expect.js";
