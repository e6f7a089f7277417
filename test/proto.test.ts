// Checks the generated descriptors against the lightwallet protocol v0.5.0 field table,
// written out here independently of proto/ so that a typo in either one shows up.
import { describe, expect, test } from "@jest/globals";
import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { file_walletrpc_service, CompactTxStreamer, PoolTypeSchema, ShieldedProtocolSchema } from "../src/zcash/gen/walletrpc/service_pb.js";
import { file_walletrpc_compact_formats } from "../src/zcash/gen/walletrpc/compact_formats_pb.js";

const RPCS: [string, string, string, string][] = [
  ["GetLatestBlock", "ChainSpec", "BlockID", "unary"],
  ["GetBlock", "BlockID", "CompactBlock", "unary"],
  ["GetBlockNullifiers", "BlockID", "CompactBlock", "unary"],
  ["GetBlockRange", "BlockRange", "CompactBlock", "server_streaming"],
  ["GetBlockRangeNullifiers", "BlockRange", "CompactBlock", "server_streaming"],
  ["GetTransaction", "TxFilter", "RawTransaction", "unary"],
  ["SendTransaction", "RawTransaction", "SendResponse", "unary"],
  ["GetTaddressTxids", "TransparentAddressBlockFilter", "RawTransaction", "server_streaming"],
  ["GetTaddressTransactions", "TransparentAddressBlockFilter", "RawTransaction", "server_streaming"],
  ["GetTaddressBalance", "AddressList", "Balance", "unary"],
  ["GetTaddressBalanceStream", "Address", "Balance", "client_streaming"],
  ["GetMempoolTx", "GetMempoolTxRequest", "CompactTx", "server_streaming"],
  ["GetMempoolStream", "Empty", "RawTransaction", "server_streaming"],
  ["GetTreeState", "BlockID", "TreeState", "unary"],
  ["GetLatestTreeState", "Empty", "TreeState", "unary"],
  ["GetSubtreeRoots", "GetSubtreeRootsArg", "SubtreeRoot", "server_streaming"],
  ["GetAddressUtxos", "GetAddressUtxosArg", "GetAddressUtxosReplyList", "unary"],
  ["GetAddressUtxosStream", "GetAddressUtxosArg", "GetAddressUtxosReply", "server_streaming"],
  ["GetLightdInfo", "Empty", "LightdInfo", "unary"],
  ["Ping", "Duration", "PingResponse", "unary"],
];

// message -> field -> [number, type, repeated]
type F = [number, string, boolean?];
const MESSAGES: Record<string, Record<string, F>> = {
  BlockID: { height: [1, "uint64"], hash: [2, "bytes"] },
  BlockRange: { start: [1, "BlockID"], end: [2, "BlockID"], poolTypes: [3, "PoolType", true] },
  TxFilter: { block: [1, "BlockID"], index: [2, "uint64"], hash: [3, "bytes"] },
  RawTransaction: { data: [1, "bytes"], height: [2, "uint64"] },
  SendResponse: { errorCode: [1, "int32"], errorMessage: [2, "string"] },
  ChainSpec: {},
  Empty: {},
  LightdInfo: {
    version: [1, "string"],
    vendor: [2, "string"],
    taddrSupport: [3, "bool"],
    chainName: [4, "string"],
    saplingActivationHeight: [5, "uint64"],
    consensusBranchId: [6, "string"],
    blockHeight: [7, "uint64"],
    gitCommit: [8, "string"],
    branch: [9, "string"],
    buildDate: [10, "string"],
    buildUser: [11, "string"],
    estimatedHeight: [12, "uint64"],
    zcashdBuild: [13, "string"],
    zcashdSubversion: [14, "string"],
    donationAddress: [15, "string"],
    upgradeName: [16, "string"],
    upgradeHeight: [17, "uint64"],
    lightwalletProtocolVersion: [18, "string"],
  },
  TransparentAddressBlockFilter: { address: [1, "string"], range: [2, "BlockRange"] },
  Duration: { intervalUs: [1, "int64"] },
  PingResponse: { entry: [1, "int64"], exit: [2, "int64"] },
  Address: { address: [1, "string"] },
  AddressList: { addresses: [1, "string", true] },
  Balance: { valueZat: [1, "int64"] },
  GetMempoolTxRequest: { exclude_txid_suffixes: [1, "bytes", true], poolTypes: [3, "PoolType", true] },
  TreeState: {
    network: [1, "string"],
    height: [2, "uint64"],
    hash: [3, "string"],
    time: [4, "uint32"],
    saplingTree: [5, "string"],
    orchardTree: [6, "string"],
    ironwoodTree: [7, "string"],
  },
  GetSubtreeRootsArg: { startIndex: [1, "uint32"], shieldedProtocol: [2, "ShieldedProtocol"], maxEntries: [3, "uint32"] },
  SubtreeRoot: { rootHash: [2, "bytes"], completingBlockHash: [3, "bytes"], completingBlockHeight: [4, "uint64"] },
  GetAddressUtxosArg: { addresses: [1, "string", true], startHeight: [2, "uint64"], maxEntries: [3, "uint32"] },
  GetAddressUtxosReply: {
    address: [6, "string"],
    txid: [1, "bytes"],
    index: [2, "int32"],
    script: [3, "bytes"],
    valueZat: [4, "int64"],
    height: [5, "uint64"],
  },
  GetAddressUtxosReplyList: { addressUtxos: [1, "GetAddressUtxosReply", true] },
  ChainMetadata: {
    saplingCommitmentTreeSize: [1, "uint32"],
    orchardCommitmentTreeSize: [2, "uint32"],
    ironwoodCommitmentTreeSize: [3, "uint32"],
  },
  CompactBlock: {
    height: [2, "uint64"],
    hash: [3, "bytes"],
    prevHash: [4, "bytes"],
    time: [5, "uint32"],
    header: [6, "bytes"],
    vtx: [7, "CompactTx", true],
    chainMetadata: [8, "ChainMetadata"],
  },
  CompactTx: {
    index: [1, "uint64"],
    txid: [2, "bytes"],
    fee: [3, "uint32"],
    spends: [4, "CompactSaplingSpend", true],
    outputs: [5, "CompactSaplingOutput", true],
    actions: [6, "CompactOrchardAction", true],
    vin: [7, "CompactTxIn", true],
    vout: [8, "TxOut", true],
    ironwoodActions: [9, "CompactOrchardAction", true],
  },
  CompactTxIn: { prevoutTxid: [1, "bytes"], prevoutIndex: [2, "uint32"] },
  TxOut: { value: [1, "uint64"], scriptPubKey: [2, "bytes"] },
  CompactSaplingSpend: { nf: [1, "bytes"] },
  CompactSaplingOutput: { cmu: [1, "bytes"], ephemeralKey: [2, "bytes"], ciphertext: [3, "bytes"] },
  CompactOrchardAction: { nullifier: [1, "bytes"], cmx: [2, "bytes"], ephemeralKey: [3, "bytes"], ciphertext: [4, "bytes"] },
};

const RESERVED: Record<string, { numbers: number[]; names: string[] }> = {
  GetMempoolTxRequest: { numbers: [2], names: [] },
  CompactBlock: { numbers: [1], names: ["protoVersion"] },
};

function typeOf(field: DescMessage["fields"][number]): string {
  switch (field.fieldKind) {
    case "scalar":
      return ScalarType[field.scalar].toLowerCase();
    case "enum":
      return field.enum.name;
    case "message":
      return field.message.name;
    case "list":
      return field.listKind === "scalar" ? ScalarType[field.scalar].toLowerCase() : field.listKind === "enum" ? field.enum.name : field.message.name;
    default:
      return field.fieldKind;
  }
}

const allMessages = [...file_walletrpc_service.messages, ...file_walletrpc_compact_formats.messages];

describe("lightwallet protocol v0.5.0 descriptors", () => {
  test("the package is cash.z.wallet.sdk.rpc", () => {
    expect(CompactTxStreamer.typeName).toBe("cash.z.wallet.sdk.rpc.CompactTxStreamer");
  });

  test("CompactTxStreamer has exactly the 20 rpcs with their streaming kinds", () => {
    const got = CompactTxStreamer.methods.map((m) => [m.name, m.input.name, m.output.name, m.methodKind]);
    expect(got).toEqual(RPCS);
  });

  test("every message has exactly the listed fields, numbers, types and labels", () => {
    expect(allMessages.map((m) => m.name).sort()).toEqual(Object.keys(MESSAGES).sort());
    for (const msg of allMessages) {
      const got = Object.fromEntries(
        msg.fields.map((f) => {
          const entry: F = [f.number, typeOf(f)];
          if (f.fieldKind === "list") entry.push(true);
          return [f.name, entry];
        }),
      );
      expect({ [msg.name]: got }).toEqual({ [msg.name]: MESSAGES[msg.name] });
    }
  });

  test("reserved numbers and names are declared", () => {
    for (const msg of allMessages) {
      const proto = msg.proto;
      const numbers = proto.reservedRange.flatMap((r) => Array.from({ length: r.end - r.start }, (_, i) => r.start + i));
      expect({ [msg.name]: { numbers, names: proto.reservedName } }).toEqual({ [msg.name]: RESERVED[msg.name] ?? { numbers: [], names: [] } });
    }
  });

  test("repeated enum fields are packed", () => {
    for (const msg of allMessages)
      for (const f of msg.fields) {
        if (f.fieldKind === "list" && f.listKind === "enum") expect(`${msg.name}.${f.name}:${f.packed}`).toBe(`${msg.name}.${f.name}:true`);
      }
  });

  test("enum values", () => {
    expect(PoolTypeSchema.values.map((v) => [v.name, v.number])).toEqual([
      ["POOL_TYPE_INVALID", 0],
      ["TRANSPARENT", 1],
      ["SAPLING", 2],
      ["ORCHARD", 3],
      ["IRONWOOD", 4],
    ]);
    expect(ShieldedProtocolSchema.values.map((v) => [v.name, v.number])).toEqual([
      ["sapling", 0],
      ["orchard", 1],
      ["ironwood", 2],
    ]);
  });

  test("the deprecated nullifier rpcs carry the deprecated option", () => {
    const deprecated = CompactTxStreamer.methods.filter((m) => m.deprecated).map((m) => m.name);
    expect(deprecated).toEqual(["GetBlockNullifiers", "GetBlockRangeNullifiers"]);
  });
});

test("the rpc name table matches the descriptor", async () => {
  const { RPC_NAMES } = await import("../src/zcash/lightwallet-rpcs.js");
  expect([...RPC_NAMES]).toEqual(CompactTxStreamer.methods.map((m) => m.name));
});
