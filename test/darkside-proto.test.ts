// The generated DarksideStreamer descriptors against lightwalletd v0.5.4's darkside
// service, written out here independently of proto/walletrpc/darkside.proto so that a
// typo in either one shows up.
import { expect, test } from "@jest/globals";
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import { DarksideStreamer, file_walletrpc_darkside } from "../src/zcash/gen/walletrpc/darkside_pb.js";

const RPCS: [string, string, string, string][] = [
  ["Reset", "DarksideMetaState", "Empty", "unary"],
  ["StageBlocksStream", "DarksideBlock", "Empty", "client_streaming"],
  ["StageBlocks", "DarksideBlocksURL", "Empty", "unary"],
  ["StageBlocksCreate", "DarksideEmptyBlocks", "Empty", "unary"],
  ["StageTransactionsStream", "RawTransaction", "Empty", "client_streaming"],
  ["StageTransactions", "DarksideTransactionsURL", "Empty", "unary"],
  ["ApplyStaged", "DarksideHeight", "Empty", "unary"],
  ["GetIncomingTransactions", "Empty", "RawTransaction", "server_streaming"],
  ["ClearIncomingTransactions", "Empty", "Empty", "unary"],
  ["AddAddressUtxo", "GetAddressUtxosReply", "Empty", "unary"],
  ["ClearAddressUtxo", "Empty", "Empty", "unary"],
  ["AddAddressTransaction", "DarksideAddressTransaction", "Empty", "unary"],
  ["ClearAddressTransactions", "Empty", "Empty", "unary"],
  ["AddTreeState", "TreeState", "Empty", "unary"],
  ["RemoveTreeState", "BlockID", "Empty", "unary"],
  ["ClearAllTreeStates", "Empty", "Empty", "unary"],
  ["SetSubtreeRoots", "DarksideSubtreeRoots", "Empty", "unary"],
  ["Stop", "Empty", "Empty", "unary"],
];

const FIELDS: Record<string, [string, number, string, boolean?][]> = {
  DarksideMetaState: [
    ["saplingActivation", 1, "int32"],
    ["branchID", 2, "string"],
    ["chainName", 3, "string"],
    ["startSaplingCommitmentTreeSize", 4, "uint32"],
    ["startOrchardCommitmentTreeSize", 5, "uint32"],
    ["startIronwoodCommitmentTreeSize", 6, "uint32"],
  ],
  DarksideBlock: [["block", 1, "string"]],
  DarksideBlocksURL: [["url", 1, "string"]],
  DarksideTransactionsURL: [
    ["height", 1, "int32"],
    ["url", 2, "string"],
  ],
  DarksideHeight: [["height", 1, "int32"]],
  DarksideEmptyBlocks: [
    ["height", 1, "int32"],
    ["nonce", 2, "int32"],
    ["count", 3, "int32"],
  ],
  DarksideSubtreeRoots: [
    ["shieldedProtocol", 1, "ShieldedProtocol"],
    ["startIndex", 2, "uint32"],
    ["subtreeRoots", 3, "SubtreeRoot", true],
  ],
  DarksideAddressTransaction: [
    ["address", 1, "string"],
    ["data", 2, "bytes"],
    ["height", 3, "uint64"],
  ],
};

test("DarksideStreamer has lightwalletd's rpcs, in order, with their message types and kinds", () => {
  expect(DarksideStreamer.typeName).toBe("cash.z.wallet.sdk.rpc.DarksideStreamer");
  expect(DarksideStreamer.methods.map((m) => [m.name, m.input.name, m.output.name, m.methodKind])).toEqual(RPCS);
});

/** A field's type as the .proto spells it. */
function typeName(f: DescField): string {
  if (f.fieldKind === "list") return f.listKind === "message" ? f.message.name : f.listKind === "enum" ? f.enum.name : ScalarType[f.scalar].toLowerCase();
  if (f.fieldKind === "scalar") return ScalarType[f.scalar].toLowerCase();
  if (f.fieldKind === "enum") return f.enum.name;
  if (f.fieldKind === "message") return f.message.name;
  return "map";
}

test("each darkside message has lightwalletd's field names, numbers and types", () => {
  const got = Object.fromEntries(
    file_walletrpc_darkside.messages.map((m) => [
      m.name,
      m.fields.map((f) => (f.fieldKind === "list" ? [f.localName, f.number, typeName(f), true] : [f.localName, f.number, typeName(f)])),
    ]),
  );
  expect(got).toEqual(FIELDS);
});
