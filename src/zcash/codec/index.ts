// Zcash blocks and transactions: decoding, encoding, txids, addresses, compact blocks.
export * from "./bytes.js";
export * from "./hash.js";
export * from "./reader.js";
export * from "./writer.js";
export * from "./network.js";
export * from "./tx-model.js";
export * from "./tx-decode.js";
export * from "./tx-encode.js";
export * from "./txid.js";
export * from "./merkle.js";
export * from "./block.js";
export * from "./base58.js";
export * from "./address.js";
export * from "./compact.js";
export * from "./exclude.js";
